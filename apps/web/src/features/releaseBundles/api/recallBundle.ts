import { useMutation, useQueryClient } from '@tanstack/react-query'
import { bundlePath, distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/** POST /release_bundles/{name}/{version}/recall: every target removes its copy. */
export const recallBundle = ({ name, version }: { name: string; version: string }) =>
  distributionRequest<void>(`/release_bundles${bundlePath(name, version)}/recall`, { method: 'POST', ownRefusals: true })

export function useRecallBundle() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: recallBundle, onSuccess: () => invalidateBundles(queryClient) })
}
