import { useQueryClient } from '@tanstack/react-query'
import { useNavigate, useParams, useRouter, useRouterState } from '@tanstack/react-router'
import { ARTIFACTS_BROWSE_PATH, ARTIFACTS_TREE_PATH } from '@trove/contracts/searchConstants'
import { forwardRef } from 'react'
import { SearchBar, type SearchTarget } from '../features/search/SearchBar'
import type { SearchContext } from '../features/search/searchTypes'
import { searchTypeForPath } from '../features/search/searchTypes'
import type { ShellContext } from '../features/shell/model'
import { isAdmin, isTour } from '../features/shell/model'
import { prefetchPackageList } from './packagesRequest'

/** The search rules' view of the shell's context (packages §4, §6). */
export function searchContextOf(ctx: ShellContext): SearchContext {
  return {
    admin: isAdmin(ctx),
    projectAdmin: ctx.canAdminProjects && !ctx.user.anonymous,
    tour: isTour(ctx),
    anonymous: ctx.user.anonymous,
    services: ctx.services,
    license: ctx.license,
    features: ctx.features,
    projectKey: ctx.selectedProject,
    // The scanner's anonymous permission (§6): Trove's scanner grants anonymous callers nothing.
    scannerAnonymous: false,
  }
}

/** The top bar's search, wired to the router: results go where §2 says, with the project key. */
export const TopSearch = forwardRef<HTMLInputElement, { ctx: ShellContext }>(function TopSearch({ ctx }, ref) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const router = useRouter()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> })
  const currentQuery = typeof search.query === 'string' ? search.query : ''
  const splat = (useParams({ strict: false }) as { _splat?: string })._splat
  const projectKey = ctx.selectedProject

  const pathOf = (target: SearchTarget): string => {
    if ('path' in target) return target.path
    const route = Object.values(router.routesById).find((r) => r.options.staticData?.name === target.routeName)
    return route ? route.fullPath : '/404'
  }
  const go = (target: SearchTarget, query: string, replace = false) => {
    const search = { query: query || undefined, projectKey: projectKey ?? undefined }
    const path = pathOf(target)
    if (path === ARTIFACTS_TREE_PATH && pathname.startsWith(`${ARTIFACTS_BROWSE_PATH}/`) && splat) {
      // A files search from the tree keeps its selection: the results show beside it.
      void navigate({ to: '/artifacts/browse/$', params: { _splat: splat }, search, replace })
    } else if (path === '/packages') void navigate({ to: '/packages/{-$packageId}/{-$versionId}', params: {}, search, replace })
    else {
      const params = new URLSearchParams({ ...(query ? { query } : {}), ...(projectKey ? { projectKey } : {}) }).toString()
      void navigate({ href: `${path}${params ? `?${params}` : ''}`, replace })
    }
  }
  // On the package list, results follow the typing.
  const onList = pathname === '/packages' || pathname === '/packages/'
  return (
    <SearchBar
      ref={ref}
      ctx={searchContextOf(ctx)}
      routeType={searchTypeForPath(pathname)}
      currentQuery={currentQuery}
      currentPath={pathname}
      username={ctx.user.anonymous ? null : ctx.user.name}
      onSearch={(target, query) => go(target, query)}
      onLiveSearch={
        onList
          ? (query) => {
              prefetchPackageList(queryClient, query, ctx)
              go({ path: '/packages' }, query, true)
            }
          : undefined
      }
    />
  )
})
