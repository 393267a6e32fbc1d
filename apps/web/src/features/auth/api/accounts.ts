import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { LoginRelatedData, UserData } from '@trove/contracts/auth'
import { apiRequest } from '../../../lib/api'
import { login, rememberSignIn } from './login'

export const loginRelatedDataQuery = () =>
  queryOptions({
    queryKey: ['auth', 'login-related-data'],
    queryFn: () => apiRequest<LoginRelatedData>('/ui/auth/screen/loginRelatedData'),
    staleTime: 60_000,
  })
export const useLoginRelatedData = () => useQuery(loginRelatedDataQuery())

export const getInvitation = (token: string) =>
  apiRequest<{ email: string }>('/ui/auth/invitation', { query: { token }, handleAuthErrors: true })

/** Makes the account, then signs in with it (remember-me off). */
function useCreateAndSignIn<T extends { password: string }>(create: (input: T) => Promise<UserData>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: T) => {
      const user = await create(input)
      return login({ user: user.name, password: input.password, rememberMe: false })
    },
    onSuccess: (user) => rememberSignIn(queryClient, user),
  })
}

export const useRegister = () =>
  useCreateAndSignIn((input: { name: string; email: string; password: string }) =>
    apiRequest<UserData>('/ui/auth/register', { method: 'POST', body: input, handleAuthErrors: true }),
  )

export const useAcceptInvitation = (token: string) =>
  useCreateAndSignIn((input: { name: string; password: string }) =>
    apiRequest<UserData>('/ui/auth/invitation', { method: 'POST', query: { token }, body: input, handleAuthErrors: true }),
  )
