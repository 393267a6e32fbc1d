import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { LoginScreenSettings } from '@trove/contracts/sso'
import { apiRequest } from '../../../lib/api'

const PATH = '/ui/admin/security/loginScreen'

export const getLoginScreenSettings = () => apiRequest<LoginScreenSettings>(PATH)
export const loginScreenQuery = () => queryOptions({ queryKey: ['sso', 'login-screen'], queryFn: getLoginScreenSettings })
export const useLoginScreenSettings = () => useQuery(loginScreenQuery())

export const saveLoginScreenSettings = (settings: LoginScreenSettings) =>
  apiRequest<LoginScreenSettings>(PATH, { method: 'PUT', body: settings })

export function useSaveLoginScreenSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveLoginScreenSettings,
    onSuccess: (saved) => queryClient.setQueryData(loginScreenQuery().queryKey, saved),
  })
}
