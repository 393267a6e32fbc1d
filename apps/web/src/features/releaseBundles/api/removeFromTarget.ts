import { useMutation, useQueryClient } from '@tanstack/react-query'
import { bundlePath, distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/** DELETE /release_bundles/{name}/{version}/targets/{target}: the target removes its copy (and its files). */
export const removeFromTarget = ({ name, version, target }: { name: string; version: string; target: string }) =>
  distributionRequest<void>(`/release_bundles${bundlePath(name, version)}/targets/${encodeURIComponent(target)}`, {
    method: 'DELETE',
    ownRefusals: true,
  })

export function useRemoveFromTarget() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: removeFromTarget, onSuccess: () => invalidateBundles(queryClient) })
}
