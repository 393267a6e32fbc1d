import { useMutation, useQueryClient } from '@tanstack/react-query'
import { distributionRequest } from './distributionRequest'
import { invalidateBundles } from './invalidateBundles'

/** POST /retention/run: applies the policy now; answers what it removed (`<name> <version>`). */
export const runRetention = () => distributionRequest<{ removed: string[] }>('/retention/run', { method: 'POST' })

export function useRunRetention() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: runRetention, onSuccess: () => invalidateBundles(queryClient) })
}
