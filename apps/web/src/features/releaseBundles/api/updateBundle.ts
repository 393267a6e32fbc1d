import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { BundleDetails, UpdateBundle } from '@trove/contracts/distribution'
import { bundlePath, distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/**
 * PATCH /release_bundles/{name}/{version}: an open bundle's description, notes, files added (from
 * sources) and files left out. A refusal (403, 404, 409 once signed) is shown in the dialog.
 */
export const updateBundle = ({ name, version, ...changes }: UpdateBundle & { name: string; version: string }) =>
  distributionRequest<BundleDetails>(`/release_bundles${bundlePath(name, version)}`, {
    method: 'PATCH',
    body: changes,
    ownRefusals: true,
  })

export function useUpdateBundle() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: updateBundle, onSuccess: () => invalidateBundles(queryClient) })
}
