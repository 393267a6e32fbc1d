import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { currentUserQuery } from '../../features/auth/api/currentUser'
import { notify } from '../../lib/notify'
import { loadChunk } from '../chunks'

/** §6: git integrations are an administrator's; others are told so and sent home. */
async function adminOnly({ context }: { context: unknown }) {
  const { queryClient } = context as { queryClient: QueryClient }
  const user = await queryClient.ensureQueryData(currentUserQuery())
  if (!user.admin) {
    notify({ color: 'red', message: Messages.notAuthorized, autoClose: Limits.toastMs })
    throw redirect({ to: '/', replace: true })
  }
}

/** The router reads `?integrationId=3` as the number 3: an id is taken as text either way. */
const text = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '')
export const parseScanSearch = (search: Record<string, unknown>) => ({
  vcsType: text(search.vcsType),
  integrationId: text(search.integrationId),
})

/** The vendor table (integrations.vendor.list) and the scanner's repository selection (gitRepoScan.selectRepos). */
export function gitIntegrationRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/integrations/vendor/list/$vendorName',
      staticData: { name: 'integrations.vendor.list', title: 'Git integrations' },
      beforeLoad: adminOnly,
      component: lazyRouteComponent(
        () => loadChunk('git-integrations', () => import('../../features/gitIntegrations/VendorIntegrationsPage')),
        'VendorIntegrationsPage',
      ),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/gitRepoScan/selectRepos',
      staticData: { name: 'gitRepoScan.selectRepos', title: 'Select repositories' },
      validateSearch: parseScanSearch,
      beforeLoad: adminOnly,
      component: lazyRouteComponent(
        () => loadChunk('git-repo-scan', () => import('../../features/gitIntegrations/SelectReposPage')),
        'SelectReposPage',
      ),
    }),
  ]
}
