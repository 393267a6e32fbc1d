import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { BundleDetails } from '@trove/contracts/distribution'
import { bundlePath, distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/** POST /release_bundles/{name}/{version}/distribute: queued for each target; the details then show the progress. */
export const distributeBundle = ({ name, version, targets }: { name: string; version: string; targets: string[] }) =>
  distributionRequest<BundleDetails>(`/release_bundles${bundlePath(name, version)}/distribute`, {
    method: 'POST',
    body: { targets },
    ownRefusals: true,
  })

export function useDistributeBundle() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: distributeBundle, onSuccess: () => invalidateBundles(queryClient) })
}
