import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { SCANNER_PATHS, type SecurityPolicy } from '@trove/contracts/scanner'
import { apiRequest } from '../../../lib/api'
import { violationsKey } from './violations'

const onePolicy = (name: string) => SCANNER_PATHS.policy.replace(':name', encodeURIComponent(name))

/** GET admin/policies: every policy, by name. */
export const policiesQuery = () =>
  queryOptions({
    queryKey: ['scanner-admin', 'policies'],
    queryFn: () => apiRequest<SecurityPolicy[]>(SCANNER_PATHS.policies),
  })
export const usePolicies = () => useQuery(policiesQuery())

/** POST admin/policies, or PUT admin/policies/:name when `existing` names the policy changed (it may be renamed). */
export function useSavePolicy() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ policy, existing }: { policy: SecurityPolicy; existing?: string }) =>
      existing
        ? apiRequest<{ name: string }>(onePolicy(existing), { method: 'PUT', body: policy })
        : apiRequest<{ name: string }>(SCANNER_PATHS.policies, { method: 'POST', body: policy }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: policiesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: violationsKey }),
      ]),
  })
}

/** DELETE admin/policies/:name: refused (409) while a watch applies it. */
export function useDeletePolicy() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => apiRequest<void>(onePolicy(name), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: policiesQuery().queryKey }),
  })
}
