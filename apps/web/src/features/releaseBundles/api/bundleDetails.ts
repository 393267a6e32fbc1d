import { queryOptions, useQuery } from '@tanstack/react-query'
import type { BundleDetails, DistributionView } from '@trove/contracts/distribution'
import { type BundleOrigin, bundlePath, distributionRequest } from './distributionRequest'

/** Every bundle's details: what a change to a bundle invalidates. */
export const bundleDetailsKey = ['releaseBundles', 'details'] as const

/** A distribution the distributor is still working on (sending, or removing from its target). */
export const inFlight = (d: Pick<DistributionView, 'state'>) =>
  d.state === 'waiting' || d.state === 'running' || d.state === 'deleting'

/** How often the details are read again while a distribution is in flight (its progress is written twice a second). */
export const PROGRESS_POLL_MS = 2000

/** GET /release_bundles/{name}/{version}?origin: contents, signature and distributions. */
export const bundleDetails = (origin: BundleOrigin, name: string, version: string) =>
  distributionRequest<BundleDetails>(`/release_bundles${bundlePath(name, version)}`, { query: { origin } })

export const bundleDetailsQuery = (origin: BundleOrigin, name: string, version: string) =>
  queryOptions({
    queryKey: [...bundleDetailsKey, origin, name, version],
    queryFn: () => bundleDetails(origin, name, version),
    refetchInterval: (query) => (query.state.data?.distributions.some(inFlight) ? PROGRESS_POLL_MS : false),
  })
export const useBundleDetails = (origin: BundleOrigin, name: string, version: string) =>
  useQuery(bundleDetailsQuery(origin, name, version))
