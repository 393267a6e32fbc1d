import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { RoleInfo, RoleInput } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

const base = '/ui/admin/roles'

export const listRoles = () => apiRequest<RoleInfo[]>(base)
export const rolesQuery = () => queryOptions({ queryKey: ['access', 'roles'], queryFn: listRoles })
export const useRoles = () => useQuery(rolesQuery())

function useRolesMutation<T>(fn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQuery().queryKey }) })
}
export const useCreateRole = () => useRolesMutation((role: RoleInput) => apiRequest<void>(base, { method: 'POST', body: role }))
export const useDeleteRole = () =>
  useRolesMutation((name: string) => apiRequest<void>(`${base}/${encodeURIComponent(name)}`, { method: 'DELETE' }))
