import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AccountPortal } from '@trove/contracts/shell'
import { apiRequest } from '../../../lib/api'

const path = '/ui/accountPortal'

/** Where "my account" leads: '' when no administrator set it. */
export const getAccountPortal = () => apiRequest<AccountPortal>(path)
export const accountPortalQuery = () => queryOptions({ queryKey: ['accountPortal'], queryFn: getAccountPortal })
export const useAccountPortal = () => useQuery(accountPortalQuery())

export const useSaveAccountPortal = () => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (value: AccountPortal) => apiRequest<AccountPortal>(path, { method: 'PUT', body: value }),
    onSuccess: (saved) => queryClient.setQueryData(accountPortalQuery().queryKey, saved),
  })
}
