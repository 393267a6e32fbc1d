import { useMutation, useQueryClient } from '@tanstack/react-query'
import { distributionRequest } from './distributionRequest'
import { targetsQuery } from './listTargets'

/** DELETE /targets/{name}: forgets a target (and its distributions' rows; its copies stay there). */
export const deleteTarget = (name: string) =>
  distributionRequest<void>(`/targets/${encodeURIComponent(name)}`, { method: 'DELETE' })

export function useDeleteTarget() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteTarget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetsQuery().queryKey }),
  })
}
