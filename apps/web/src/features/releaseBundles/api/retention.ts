import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { RetentionPolicy } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'

/** GET /retention: how received bundles are kept (administrators). */
export const getRetention = () => distributionRequest<RetentionPolicy>('/retention')
export const retentionQuery = () => queryOptions({ queryKey: ['releaseBundles', 'retention'], queryFn: getRetention })
export const useRetention = () => useQuery(retentionQuery())

/** PUT /retention: the same call's path, to change it; answers the policy as stored. */
export const saveRetention = (policy: RetentionPolicy) =>
  distributionRequest<RetentionPolicy>('/retention', { method: 'PUT', body: policy })

export function useSaveRetention() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveRetention,
    onSuccess: (stored) => queryClient.setQueryData(retentionQuery().queryKey, stored),
  })
}
