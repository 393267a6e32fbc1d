import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PermissionSummary, PermissionTarget, PermissionTargetInput } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

const base = '/ui/admin/permissions'
const path = (name: string) => `${base}/${encodeURIComponent(name)}`

export const listPermissions = () => apiRequest<PermissionSummary[]>(base)
export const permissionsQuery = () => queryOptions({ queryKey: ['access', 'permissions'], queryFn: listPermissions })
export const usePermissions = () => useQuery(permissionsQuery())

export const getPermission = (name: string) => apiRequest<PermissionTarget>(path(name))
export const permissionQuery = (name: string) =>
  queryOptions({
    queryKey: ['access', 'permissions', 'one', name],
    queryFn: () => getPermission(name),
    // A new one has no name yet: nothing to fetch (an empty name is not a call to make).
    enabled: name !== '',
  })
export const usePermission = (name: string) => useQuery(permissionQuery(name))

function usePermissionsMutation<T>(fn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: permissionsQuery().queryKey }),
  })
}
export const useSavePermission = () =>
  usePermissionsMutation(({ original, target }: { original?: string; target: PermissionTargetInput }) =>
    original
      ? apiRequest<PermissionTarget>(path(original), { method: 'PUT', body: target })
      : apiRequest<PermissionTarget>(base, { method: 'POST', body: target }),
  )
export const useDeletePermission = () =>
  usePermissionsMutation((name: string) => apiRequest<void>(path(name), { method: 'DELETE' }))
