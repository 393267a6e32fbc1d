import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { BundleDetails } from '@trove/contracts/distribution'
import { bundlePath, distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/** POST /release_bundles/{name}/{version}/sign: the manifest is frozen and signed with the active key. */
export const signBundle = ({ name, version }: { name: string; version: string }) =>
  distributionRequest<BundleDetails>(`/release_bundles${bundlePath(name, version)}/sign`, { method: 'POST', ownRefusals: true })

export function useSignBundle() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: signBundle, onSuccess: () => invalidateBundles(queryClient) })
}
