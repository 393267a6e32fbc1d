import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { CreateProjectInput, Project, ProjectMember, ProjectMembers, UpdateProject } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

const base = '/ui/admin/projects'
const path = (key: string) => `${base}/${encodeURIComponent(key)}`

export const listProjects = () => apiRequest<Project[]>(base)
export const projectsQuery = () => queryOptions({ queryKey: ['access', 'projects'], queryFn: listProjects })
export const useProjects = () => useQuery(projectsQuery())

export const getMembers = (key: string) => apiRequest<ProjectMembers>(`${path(key)}/members`)
export const membersQuery = (key: string) =>
  queryOptions({ queryKey: ['access', 'projects', 'members', key], queryFn: () => getMembers(key), enabled: Boolean(key) })
export const useMembers = (key: string) => useQuery(membersQuery(key))

function useProjectsMutation<T>(fn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsQuery().queryKey }) })
}
export const useCreateProject = () =>
  useProjectsMutation((input: CreateProjectInput) => apiRequest<Project>(base, { method: 'POST', body: input }))
export const useUpdateProject = () =>
  useProjectsMutation(({ key, ...body }: UpdateProject & { key: string }) =>
    apiRequest<Project>(path(key), { method: 'PUT', body }),
  )
export const useDeleteProject = () => useProjectsMutation((key: string) => apiRequest<void>(path(key), { method: 'DELETE' }))
export function useSaveMembers() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ key, members }: { key: string; members: ProjectMember[] }) =>
      apiRequest<ProjectMembers>(`${path(key)}/members`, { method: 'PUT', body: { members } }),
    onSuccess: (_data, { key }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectsQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: membersQuery(key).queryKey }),
      ]),
  })
}
