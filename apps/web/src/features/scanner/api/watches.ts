import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { SCANNER_PATHS, type SecurityWatch } from '@trove/contracts/scanner'
import { apiRequest } from '../../../lib/api'
import { violationsKey } from './violations'

const oneWatch = (name: string) => SCANNER_PATHS.watch.replace(':name', encodeURIComponent(name))

/** GET admin/watches: every watch, by name. */
export const watchesQuery = () =>
  queryOptions({
    queryKey: ['scanner-admin', 'watches'],
    queryFn: () => apiRequest<SecurityWatch[]>(SCANNER_PATHS.watches),
  })
export const useWatches = () => useQuery(watchesQuery())

/** POST admin/watches, or PUT admin/watches/:name for the watch `existing` names. */
export function useSaveWatch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ watch, existing }: { watch: SecurityWatch; existing?: string }) =>
      existing
        ? apiRequest<{ name: string }>(oneWatch(existing), { method: 'PUT', body: watch })
        : apiRequest<{ name: string }>(SCANNER_PATHS.watches, { method: 'POST', body: watch }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: watchesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: violationsKey }),
      ]),
  })
}

/** DELETE admin/watches/:name */
export function useDeleteWatch() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => apiRequest<void>(oneWatch(name), { method: 'DELETE' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: watchesQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: violationsKey }),
      ]),
  })
}
