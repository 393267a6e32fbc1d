import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { TargetInput, TargetView } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'
import { targetsQuery } from './listTargets'

/**
 * PUT /targets/{name}: registers a target; the target is asked at once to trust this node's keys,
 * so a wrong token is refused (400) with the target's own answer.
 */
export const saveTarget = ({ name, ...input }: TargetInput & { name: string }) =>
  distributionRequest<TargetView>(`/targets/${encodeURIComponent(name)}`, { method: 'PUT', body: input })

export function useSaveTarget() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveTarget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: targetsQuery().queryKey }),
  })
}
