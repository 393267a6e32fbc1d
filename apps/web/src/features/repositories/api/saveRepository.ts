import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { RepositoryConfig, RepositoryConfigInput, RepositoryConfigUpdate } from '@trove/contracts/repositories'
import { apiRequest } from '../../../lib/api'
import { repositoriesQuery } from './listRepositories'
import { repositoryConfigQuery } from './repositoryConfig'

/** PUT /api/repositories/{key} creates; POST updates. */
export const createRepository = ({ key, config }: { key: string; config: RepositoryConfigInput }) =>
  apiRequest<RepositoryConfig>(`/api/repositories/${encodeURIComponent(key)}`, { method: 'PUT', body: config, absolute: true })
export const updateRepository = ({ key, config }: { key: string; config: RepositoryConfigUpdate }) =>
  apiRequest<RepositoryConfig>(`/api/repositories/${encodeURIComponent(key)}`, { method: 'POST', body: config, absolute: true })

export function useSaveRepository(mode: 'create' | 'update') {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { key: string; config: RepositoryConfigInput }) =>
      mode === 'create' ? createRepository(input) : updateRepository(input),
    onSuccess: (_data, input) => {
      queryClient.invalidateQueries({ queryKey: repositoriesQuery().queryKey })
      queryClient.invalidateQueries({ queryKey: repositoryConfigQuery(input.key).queryKey })
    },
  })
}
