import { useNavigate, useParams } from '@tanstack/react-router'
import type { RepoClassName } from '@trove/contracts/repositoryConstants'
import { RepositoriesPage } from '../../features/repositories/RepositoriesPage'
import { RepositoryForm } from '../../features/repositories/RepositoryForm'

export function RepositoriesScreen() {
  const navigate = useNavigate()
  return (
    <RepositoriesPage
      onNew={(rclass) => navigate({ to: '/admin/repositories/$rclass/new', params: { rclass } })}
      onEdit={(key, rclass) => navigate({ to: '/admin/repositories/$rclass/$key/edit', params: { rclass, key } })}
    />
  )
}

export function NewRepositoryScreen() {
  const navigate = useNavigate()
  const { rclass } = useParams({ strict: false }) as { rclass: RepoClassName }
  return <RepositoryForm key={rclass} rclass={rclass} onDone={() => navigate({ to: '/admin/repositories' })} />
}

export function EditRepositoryScreen() {
  const navigate = useNavigate()
  const { rclass, key } = useParams({ strict: false }) as { rclass: RepoClassName; key: string }
  return <RepositoryForm key={key} rclass={rclass} editKey={key} onDone={() => navigate({ to: '/admin/repositories' })} />
}
