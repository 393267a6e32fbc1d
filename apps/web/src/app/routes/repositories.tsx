import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import { currentUserQuery } from '../../features/auth/api/currentUser'
import { notify } from '../../lib/notify'
import { loadChunk } from '../chunks'

const RCLASSES = new Set(['local', 'remote', 'virtual'])

/** Admin only: anyone else is told so and sent home. */
async function adminOnly({ context }: { context: unknown }) {
  const { queryClient } = context as { queryClient: QueryClient }
  const user = await queryClient.ensureQueryData(currentUserQuery())
  if (!user.admin) {
    notify({ color: 'red', message: Messages.notAuthorized, autoClose: 4500 })
    throw redirect({ to: '/', replace: true })
  }
}

const screen = (name: 'RepositoriesScreen' | 'NewRepositoryScreen' | 'EditRepositoryScreen') =>
  lazyRouteComponent(() => loadChunk('admin-repositories', () => import('../screens/RepositoryScreens')), name)

/** The repository admin screens (shell §2.2): list, new local/remote/virtual, edit. */
export function repositoryRoutes<P extends AnyRoute>(parent: P) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: 'repositories',
    staticData: { name: 'admin.repositories', title: 'Repositories' },
    beforeLoad: adminOnly,
    component: screen('RepositoriesScreen'),
  })
  const create = createRoute({
    getParentRoute: () => parent,
    path: 'repositories/$rclass/new',
    staticData: { name: 'admin.repositories.new', title: 'New repository' },
    beforeLoad: async (args) => {
      await adminOnly(args)
      if (!RCLASSES.has(args.params.rclass)) throw redirect({ to: '/404', replace: true })
    },
    component: screen('NewRepositoryScreen'),
  })
  const edit = createRoute({
    getParentRoute: () => parent,
    path: 'repositories/$rclass/$key/edit',
    staticData: { name: 'admin.repositories.edit', title: 'Edit repository' },
    beforeLoad: async (args) => {
      await adminOnly(args)
      if (!RCLASSES.has(args.params.rclass)) throw redirect({ to: '/404', replace: true })
    },
    component: screen('EditRepositoryScreen'),
  })
  return [list, create, edit] as const
}
