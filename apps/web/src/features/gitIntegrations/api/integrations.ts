import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type ConnectionTestResult,
  type GitIntegrationForm,
  INTEGRATION_PATHS,
  type IntegrationGroup,
} from '@trove/contracts/gitIntegrations'
import { apiRequest } from '../../../lib/api'

const withKey = (path: string, key: string) => path.replace(':integrationKey', encodeURIComponent(key))

/** GET /integration/getIntegrations (§7): the git group, its availability and each vendor's integrations. */
export const integrationGroupsQuery = () =>
  queryOptions({
    queryKey: ['integrations', 'groups'],
    queryFn: () => apiRequest<IntegrationGroup[]>(INTEGRATION_PATHS.list),
  })
export const useIntegrationGroups = () => useQuery(integrationGroupsQuery())

/** POST /integration/test (§7) with the git form: the vendor's user name, or §8's failure. */
export const testConnection = (form: GitIntegrationForm) =>
  apiRequest<ConnectionTestResult>(INTEGRATION_PATHS.test, { method: 'POST', body: form })

/** Create, update and delete (§7); each answers the integration's key as its data, and re-reads the groups (§4). */
export function useSaveIntegration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ form, key }: { form: GitIntegrationForm; key?: string }) =>
      key
        ? apiRequest<{ data: string }>(withKey(INTEGRATION_PATHS.one, key), {
            method: 'PUT',
            body: { ...form, integrationKey: key },
          })
        : apiRequest<{ data: string }>(INTEGRATION_PATHS.create, { method: 'POST', body: form }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationGroupsQuery().queryKey }),
  })
}

export function useDeleteIntegration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (key: string) => apiRequest<{ data: string }>(withKey(INTEGRATION_PATHS.one, key), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationGroupsQuery().queryKey }),
  })
}
