import { queryOptions, useQuery } from '@tanstack/react-query'
import { BUILDS_PATHS, type BuildRunsResponse } from '@trove/contracts/builds'
import { apiRequest } from '../../../lib/api'

/** GET /ui/api/v1/ui/builds/{name}: the runs of one build, newest first. */
export const getBuildRuns = (name: string) => apiRequest<BuildRunsResponse>(BUILDS_PATHS.runs(name))
export const buildRunsQuery = (name: string) =>
  queryOptions({ queryKey: ['builds', 'runs', name], queryFn: () => getBuildRuns(name) })
export const useBuildRuns = (name: string) => useQuery(buildRunsQuery(name))
