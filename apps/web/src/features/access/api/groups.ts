import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Group, GroupInput, GroupSummary } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

const base = '/ui/admin/groups'
const path = (name: string) => `${base}/${encodeURIComponent(name)}`

export const listGroups = () => apiRequest<GroupSummary[]>(base)
export const groupsQuery = () => queryOptions({ queryKey: ['access', 'groups'], queryFn: listGroups })
export const useGroups = () => useQuery(groupsQuery())

export const getGroup = (name: string) => apiRequest<Group>(path(name))
export const groupQuery = (name: string) =>
  queryOptions({
    queryKey: ['access', 'groups', 'one', name],
    queryFn: () => getGroup(name),
    // A new one has no name yet: nothing to fetch (an empty name is not a call to make).
    enabled: name !== '',
  })
export const useGroup = (name: string) => useQuery(groupQuery(name))

function useGroupsMutation<T>(fn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsQuery().queryKey }) })
}
export const useSaveGroup = () =>
  useGroupsMutation(({ original, group }: { original?: string; group: GroupInput }) =>
    original
      ? apiRequest<Group>(path(original), { method: 'PUT', body: group })
      : apiRequest<Group>(base, { method: 'POST', body: group }),
  )
export const useDeleteGroup = () => useGroupsMutation((name: string) => apiRequest<void>(path(name), { method: 'DELETE' }))
