import { useMutation, useQueryClient } from '@tanstack/react-query'
import { bundleDetailsQuery } from './bundleDetails'
import { bundlePath, distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'
import type { BundleOrigin } from './listBundles'

/**
 * DELETE /release_bundles/{name}/{version}?origin: a source bundle goes from here (copies on
 * targets stay); a received one goes with its files.
 */
export const deleteBundle = ({ origin, name, version }: { origin: BundleOrigin; name: string; version: string }) =>
  distributionRequest<void>(`/release_bundles${bundlePath(name, version)}`, {
    method: 'DELETE',
    query: { origin },
    ownRefusals: true,
  })

export function useDeleteBundle() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteBundle,
    onSuccess: (_data, { origin, name, version }) => {
      queryClient.removeQueries({ queryKey: bundleDetailsQuery(origin, name, version).queryKey })
      return invalidateBundles(queryClient)
    },
  })
}
