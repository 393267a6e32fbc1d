import type { QueryClient } from '@tanstack/react-query'
import { PACKAGE_LICENSE_FIELDS, PACKAGE_RISK_FIELDS } from '@trove/contracts/packages'
import { SECURITY_LICENSES } from '@trove/contracts/shell'
import { packagesQuery } from '../features/packages/api/packagesApi'
import { packagesRequestOf } from '../features/search/packageQuery'
import { buildSearchQuery, parseSearchQuery, type SearchModel } from '../features/search/searchModel'
import type { ShellContext } from '../features/shell/model'

/** §3: licences only with a security licence, operational risk only with its feature. */
export function packageFieldsFor(ctx: ShellContext): string {
  return [SECURITY_LICENSES.includes(ctx.license) && PACKAGE_LICENSE_FIELDS, ctx.features.operationalRisk && PACKAGE_RISK_FIELDS]
    .filter(Boolean)
    .join(' ')
}

/**
 * The list call: the search's, or with nothing searched the most recently updated packages (the
 * list on arrival, paged like any other; packageOrderOf gives its order).
 */
export function listRequestFor(model: SearchModel, packageFields: string) {
  return packagesRequestOf(model, buildSearchQuery(model), packageFields)
}

/**
 * Starts the list call of a search typed in the top bar at once, while the router is still on its
 * way to the list; the list screen then finds it under way (same request, same cache entry).
 */
export function prefetchPackageList(queryClient: QueryClient, query: string, ctx: ShellContext): void {
  const request = listRequestFor(parseSearchQuery(query), packageFieldsFor(ctx))
  if (request) void queryClient.prefetchInfiniteQuery(packagesQuery(request))
}
