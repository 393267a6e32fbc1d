import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type IgnoreRule, type IgnoreRuleForm, SCANNER_PATHS } from '@trove/contracts/scanner'
import { apiRequest } from '../../../lib/api'
import { violationsKey } from './violations'

/** GET admin/ignore_rules: newest first, expired ones included. */
export const ignoreRulesQuery = () =>
  queryOptions({
    queryKey: ['scanner-admin', 'ignore-rules'],
    queryFn: () => apiRequest<IgnoreRule[]>(SCANNER_PATHS.ignoreRules),
  })
export const useIgnoreRules = () => useQuery(ignoreRulesQuery())

/** POST admin/ignore_rules: the violations it accepts leave the list. */
export function useAddIgnoreRule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (form: IgnoreRuleForm) => apiRequest<{ id: number }>(SCANNER_PATHS.ignoreRules, { method: 'POST', body: form }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ignoreRulesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: violationsKey }),
      ]),
  })
}

/** DELETE admin/ignore_rules/:id: what it accepted violates again. */
export function useDeleteIgnoreRule() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => apiRequest<void>(SCANNER_PATHS.ignoreRule.replace(':id', String(id)), { method: 'DELETE' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ignoreRulesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: violationsKey }),
      ]),
  })
}
