import { queryOptions, useQuery } from '@tanstack/react-query'
import type { RepositoryConfig } from '@trove/contracts/repositories'
import { apiRequest } from '../../../lib/api'

/** GET /api/repositories/{key}: one repository's configuration (admin). */
export const getRepositoryConfig = (key: string) =>
  apiRequest<RepositoryConfig>(`/api/repositories/${encodeURIComponent(key)}`, { absolute: true })
export const repositoryConfigQuery = (key: string) =>
  queryOptions({ queryKey: ['repositories', 'config', key], queryFn: () => getRepositoryConfig(key) })
export const useRepositoryConfig = (key: string | undefined) =>
  useQuery({ ...repositoryConfigQuery(key ?? ''), enabled: Boolean(key) })
