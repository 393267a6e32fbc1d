import { useRepositories } from '../../features/repositories/api/listRepositories'
import { DatabasePage } from '../../features/scanner/DatabasePage'
import { PoliciesPage } from '../../features/scanner/PoliciesPage'
import { ViolationsPage } from '../../features/scanner/ViolationsPage'
import { WatchesPage } from '../../features/scanner/WatchesPage'

/** The repository keys a watch names or the violations are filtered by (the repositories feature lists them). */
function useRepositoryKeys(): string[] {
  const repositories = useRepositories()
  return (repositories.data ?? []).map((r) => r.key).sort()
}

export function SecurityPoliciesScreen() {
  return <PoliciesPage />
}

export function SecurityWatchesScreen() {
  return <WatchesPage repositories={useRepositoryKeys()} />
}

export function SecurityViolationsScreen() {
  return <ViolationsPage repositories={useRepositoryKeys()} />
}

export function SecurityDatabaseScreen() {
  return <DatabasePage />
}
