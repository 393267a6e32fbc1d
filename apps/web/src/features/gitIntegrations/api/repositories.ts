import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type GitRepositoryPage, INTEGRATION_PATHS, type SelectedRepository } from '@trove/contracts/gitIntegrations'
import { apiRequest } from '../../../lib/api'

const withId = (path: string, id: string) => path.replace(':integrationId', encodeURIComponent(id))

/** One vendor page of the repositories the integration's token can see. */
export const repositoriesQuery = (integrationId: string, page: number) =>
  queryOptions({
    queryKey: ['gitRepoScan', integrationId, 'repositories', page],
    queryFn: () => apiRequest<GitRepositoryPage>(withId(INTEGRATION_PATHS.repositories, integrationId), { query: { page } }),
    placeholderData: keepPreviousData,
  })
export const useRepositories = (integrationId: string, page: number) => useQuery(repositoriesQuery(integrationId, page))

/** The repositories selected for scanning, re-read while a clone is under way. */
export const selectedQuery = (integrationId: string) =>
  queryOptions({
    queryKey: ['gitRepoScan', integrationId, 'selected'],
    queryFn: () => apiRequest<SelectedRepository[]>(withId(INTEGRATION_PATHS.selection, integrationId)),
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'pending') ? 1000 : false),
  })
export const useSelected = (integrationId: string) => useQuery(selectedQuery(integrationId))

export function useSaveSelection(integrationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (repositories: string[]) =>
      apiRequest<SelectedRepository[]>(withId(INTEGRATION_PATHS.selection, integrationId), {
        method: 'PUT',
        body: { repositories },
      }),
    onSuccess: (rows) => queryClient.setQueryData(selectedQuery(integrationId).queryKey, rows),
  })
}
