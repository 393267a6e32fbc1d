import { queryOptions, useQuery } from '@tanstack/react-query'
import { BUILDS_PATHS, type BuildDiffResponse } from '@trove/contracts/builds'
import { apiRequest } from '../../../lib/api'

/** GET /ui/api/v1/ui/builds/{name}/{number}/diff/{base}: what run `number` changed since run `base`. */
export const getBuildDiff = (name: string, number: string, base: string) =>
  apiRequest<BuildDiffResponse>(BUILDS_PATHS.diff(name, number, base))
export const buildDiffQuery = (name: string, number: string, base: string) =>
  queryOptions({ queryKey: ['builds', 'diff', name, number, base], queryFn: () => getBuildDiff(name, number, base) })
/** Runs only once two runs are picked. */
export const useBuildDiff = (name: string, pair: { number: string; base: string } | null) =>
  useQuery({ ...buildDiffQuery(name, pair?.number ?? '', pair?.base ?? ''), enabled: pair !== null })
