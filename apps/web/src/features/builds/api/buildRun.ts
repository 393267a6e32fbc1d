import { queryOptions, useQuery } from '@tanstack/react-query'
import { BUILDS_PATHS, type BuildRunResponse } from '@trove/contracts/builds'
import { apiRequest } from '../../../lib/api'

/** GET /ui/api/v1/ui/builds/{name}/{number}: one run with its modules, environment, properties and document. */
export const getBuildRun = (name: string, number: string) => apiRequest<BuildRunResponse>(BUILDS_PATHS.run(name, number))
export const buildRunQuery = (name: string, number: string) =>
  queryOptions({ queryKey: ['builds', 'run', name, number], queryFn: () => getBuildRun(name, number) })
export const useBuildRun = (name: string, number: string) => useQuery(buildRunQuery(name, number))
