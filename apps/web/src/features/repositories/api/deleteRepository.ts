import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api'
import { repositoriesQuery } from './listRepositories'

/** DELETE /api/repositories/{key}: the repository and everything in it. */
export const deleteRepository = (key: string) =>
  apiRequest<void>(`/api/repositories/${encodeURIComponent(key)}`, { method: 'DELETE', absolute: true })

export function useDeleteRepository() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteRepository,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoriesQuery().queryKey }),
  })
}
