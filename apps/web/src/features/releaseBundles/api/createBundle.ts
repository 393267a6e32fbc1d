import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { BundleDetails, CreateBundle } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/** POST /release_bundles: an open bundle from its sources. A refusal (403, 404, 409) is shown in the dialog. */
export const createBundle = (input: CreateBundle) =>
  distributionRequest<BundleDetails>('/release_bundles', { method: 'POST', body: input, ownRefusals: true })

export function useCreateBundle() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: createBundle, onSuccess: () => invalidateBundles(queryClient) })
}
