import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type GitRepoFindingsPage,
  type GitRepositoryPage,
  INTEGRATION_PATHS,
  type SelectedRepository,
} from '@trove/contracts/gitIntegrations'
import { apiRequest } from '../../../lib/api'

const withId = (path: string, id: string) => path.replace(':integrationId', encodeURIComponent(id))

/** One vendor page of the repositories the integration's token can see. */
export const repositoriesQuery = (integrationId: string, page: number) =>
  queryOptions({
    queryKey: ['gitRepoScan', integrationId, 'repositories', page],
    queryFn: () => apiRequest<GitRepositoryPage>(withId(INTEGRATION_PATHS.repositories, integrationId), { query: { page } }),
    placeholderData: keepPreviousData,
    enabled: integrationId !== '',
  })
export const useRepositories = (integrationId: string, page: number) => useQuery(repositoriesQuery(integrationId, page))

const busy = (r: SelectedRepository) => r.status === 'pending' || r.scan.state === 'waiting' || r.scan.state === 'scanning'

/** The repositories selected for scanning, re-read while a clone or a scan is under way. */
export const selectedQuery = (integrationId: string) =>
  queryOptions({
    queryKey: ['gitRepoScan', integrationId, 'selected'],
    queryFn: () => apiRequest<SelectedRepository[]>(withId(INTEGRATION_PATHS.selection, integrationId)),
    refetchInterval: (query) => (query.state.data?.some(busy) ? 1000 : false),
    enabled: integrationId !== '',
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

/** One page of a selected repository's findings, worst first. */
export const repositoryFindingsQuery = (integrationId: string, repository: string, page: number) =>
  queryOptions({
    queryKey: ['gitRepoScan', integrationId, 'findings', repository, page],
    queryFn: () =>
      apiRequest<GitRepoFindingsPage>(withId(INTEGRATION_PATHS.repositoryFindings, integrationId), {
        method: 'POST',
        body: { repository, page },
      }),
    placeholderData: keepPreviousData,
  })
export const useRepositoryFindings = (integrationId: string, repository: string, page: number) =>
  useQuery(repositoryFindingsQuery(integrationId, repository, page))
