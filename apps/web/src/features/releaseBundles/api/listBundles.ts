import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { BundleList } from '@trove/contracts/distribution'
import { inFlight, PROGRESS_POLL_MS } from './bundleDetails'
import { type BundleOrigin, distributionRequest } from './distributionRequest'

export type { BundleOrigin }

/** Every list of bundles, whatever its origin and filter: what a change to a bundle invalidates. */
export const bundleListsKey = ['releaseBundles', 'list'] as const

/** GET /release_bundles?origin&q: the bundles made here (source) or received (target), by name, version or checksum. */
export const listBundles = (origin: BundleOrigin, q: string) =>
  distributionRequest<BundleList>('/release_bundles', { query: { origin, q: q.trim() || undefined } })

export const bundlesQuery = (origin: BundleOrigin, q: string) =>
  queryOptions({
    queryKey: [...bundleListsKey, origin, q.trim()],
    queryFn: () => listBundles(origin, q),
    placeholderData: keepPreviousData,
    // The "Distributed to" column follows a distribution under way, as the drawer does.
    refetchInterval: (query) =>
      query.state.data?.bundles.some((b) => b.distributedTo.some(inFlight)) ? PROGRESS_POLL_MS : false,
  })
export const useBundles = (origin: BundleOrigin, q: string) => useQuery(bundlesQuery(origin, q))
