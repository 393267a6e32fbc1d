import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { MyProjectPermissions, MyRepositoriesQuery, MyRepositoryPermissions } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

/** The repositories the signed-in user holds actions on, one page, filtered by name. */
export const getMyRepositories = (q: MyRepositoriesQuery) =>
  apiRequest<MyRepositoryPermissions>('/ui/access/me/repositories', { query: { ...q } })
export const myRepositoriesQuery = (q: MyRepositoriesQuery) =>
  queryOptions({
    queryKey: ['authorization', 'repositories', q],
    queryFn: () => getMyRepositories(q),
    placeholderData: keepPreviousData,
  })
export const useMyRepositories = (q: MyRepositoriesQuery) => useQuery(myRepositoriesQuery(q))

/** The projects the signed-in user is a member of, with the roles held there. */
export const getMyProjects = () => apiRequest<MyProjectPermissions>('/ui/access/me/projects')
export const myProjectsQuery = () => queryOptions({ queryKey: ['authorization', 'projects'], queryFn: getMyProjects })
export const useMyProjects = () => useQuery(myProjectsQuery())
