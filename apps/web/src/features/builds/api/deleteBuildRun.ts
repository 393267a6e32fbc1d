import { useMutation, useQueryClient } from '@tanstack/react-query'
import { BUILDS_PATHS } from '@trove/contracts/builds'
import { apiRequest } from '../../../lib/api'
import { buildRunQuery } from './buildRun'
import { buildRunsQuery } from './buildRuns'
import { buildsQuery } from './listBuilds'

/** DELETE /ui/api/v1/ui/builds/{name}/{number}: removes one run (needs the delete permission on the build). */
export const deleteBuildRun = ({ name, number }: { name: string; number: string }) =>
  apiRequest<void>(BUILDS_PATHS.run(name, number), { method: 'DELETE' })

export function useDeleteBuildRun() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteBuildRun,
    onSuccess: (_data, { name, number }) => {
      queryClient.removeQueries({ queryKey: buildRunQuery(name, number).queryKey })
      queryClient.invalidateQueries({ queryKey: buildRunsQuery(name).queryKey })
      queryClient.invalidateQueries({ queryKey: buildsQuery().queryKey })
    },
  })
}
