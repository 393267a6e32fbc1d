import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ChangePasswordRequest } from '@trove/contracts/passwords'
import { apiRequest } from '../../../lib/api'
import { login, rememberSignIn } from './login'

export const forgotPassword = (user: string) =>
  apiRequest<Record<string, never>>('/ui/auth/forgotPassword', { method: 'POST', body: { user }, handleAuthErrors: true })

export const validateResetKey = (key: string) =>
  apiRequest<{ user: string }>('/ui/auth/validateToken', { method: 'POST', query: { key }, handleAuthErrors: true })

export const useResetKey = (key: string) =>
  useQuery({ queryKey: ['auth', 'reset-key', key], queryFn: () => validateResetKey(key), retry: false, enabled: key !== '' })

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword })

/** Shell §4.4: after a reset or change of password the user is signed in, with remember-me off. */
export function useResetPassword(key: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ user, password }: { user: string; password: string }) => {
      await apiRequest('/ui/auth/resetPassword', {
        method: 'POST',
        query: { key },
        body: { user, password },
        handleAuthErrors: true,
      })
      return login({ user, password, rememberMe: false })
    },
    onSuccess: (user) => rememberSignIn(queryClient, user),
  })
}

export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: ChangePasswordRequest) => {
      await apiRequest('/ui/auth/changePassword', {
        method: 'POST',
        query: { prefix: 'changePassword' },
        body: input,
        handleAuthErrors: true,
      })
      return login({ user: input.userName, password: input.newPassword1, rememberMe: false })
    },
    onSuccess: (user) => rememberSignIn(queryClient, user),
  })
}
