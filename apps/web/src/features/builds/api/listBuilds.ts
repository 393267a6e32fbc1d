import { queryOptions, useQuery } from '@tanstack/react-query'
import { BUILDS_PATHS, type BuildListResponse } from '@trove/contracts/builds'
import { apiRequest } from '../../../lib/api'

/** GET /ui/api/v1/ui/builds: every build the caller may read, with its last run. */
export const listBuilds = () => apiRequest<BuildListResponse>(BUILDS_PATHS.list)
export const buildsQuery = () => queryOptions({ queryKey: ['builds', 'list'], queryFn: listBuilds })
export const useBuilds = () => useQuery(buildsQuery())
