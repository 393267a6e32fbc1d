import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CreateUserInput, SignInLock, UpdateUser, UserDetail, UserListQuery, UserPage } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

const base = '/ui/admin/users'
const path = (name: string) => `${base}/${encodeURIComponent(name)}`

export const listUsers = (query: UserListQuery) => apiRequest<UserPage>(base, { query: { ...query } })
export const usersQuery = (query: UserListQuery) =>
  queryOptions({ queryKey: ['access', 'users', query], queryFn: () => listUsers(query), placeholderData: keepPreviousData })
export const useUsers = (query: UserListQuery) => useQuery(usersQuery(query))

export const getUser = (name: string) => apiRequest<UserDetail>(path(name))
export const userQuery = (name: string) =>
  queryOptions({
    queryKey: ['access', 'users', 'one', name],
    queryFn: () => getUser(name),
    // A new one has no name yet: nothing to fetch (an empty name is not a call to make).
    enabled: name !== '',
  })
export const useUser = (name: string) => useQuery(userQuery(name))

function useUsersMutation<T>(fn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['access', 'users'] }),
  })
}

export const useCreateUser = () =>
  useUsersMutation((input: CreateUserInput) => apiRequest<UserDetail>(base, { method: 'POST', body: input }))
export const useUpdateUser = () =>
  useUsersMutation(({ name, ...body }: UpdateUser & { name: string }) =>
    apiRequest<UserDetail>(path(name), { method: 'PUT', body }),
  )
export const useDeleteUser = () => useUsersMutation((name: string) => apiRequest<void>(path(name), { method: 'DELETE' }))
export const useResetPassword = () =>
  useUsersMutation(({ name, password }: { name: string; password: string }) =>
    apiRequest<void>(`${path(name)}/password`, { method: 'POST', body: { password } }),
  )

export const getSignInLock = (name: string) => apiRequest<SignInLock>(`${path(name)}/signInLock`)
export const signInLockQuery = (name: string) =>
  queryOptions({ queryKey: ['access', 'users', 'lock', name], queryFn: () => getSignInLock(name) })
export const useSignInLock = (name: string) => useQuery({ ...signInLockQuery(name), enabled: name !== '' })
export const useUnlockUser = () =>
  useUsersMutation((name: string) => apiRequest<void>(`${path(name)}/signInLock`, { method: 'DELETE' }))
