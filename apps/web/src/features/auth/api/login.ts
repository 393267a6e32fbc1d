import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import type { LoginRequest, UserData } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'
import { currentUserQuery } from './currentUser'

export interface LoginInput {
  user: string
  password: string
  rememberMe: boolean
}

export const login = ({ user, password, rememberMe }: LoginInput) =>
  apiRequest<UserData>('/ui/auth/login', {
    method: 'POST',
    query: { _spring_security_remember_me: rememberMe },
    body: { user, password, type: 'login' } satisfies LoginRequest,
    handleAuthErrors: true,
  })

/** Records a completed sign-in for the guards; one waiting for a one-time code is not signed in yet. */
export function rememberSignIn(queryClient: QueryClient, user: UserData): void {
  if (user.mfaStatus === 'none') queryClient.setQueryData(currentUserQuery().queryKey, user)
}

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: login, onSuccess: (user) => rememberSignIn(queryClient, user) })
}
