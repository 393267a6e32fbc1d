import { queryOptions, useQuery } from '@tanstack/react-query'
import type { RepositorySummary } from '@trove/contracts/repositories'
import { apiRequest } from '../../../lib/api'

/** GET /api/repositories: every repository the caller may read. */
export const listRepositories = () => apiRequest<RepositorySummary[]>('/api/repositories', { absolute: true })
export const repositoriesQuery = () => queryOptions({ queryKey: ['repositories', 'list'], queryFn: listRepositories })
export const useRepositories = () => useQuery(repositoriesQuery())
