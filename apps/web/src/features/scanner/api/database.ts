import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type AdvisoryDatabaseStatus,
  type AdvisoryFeed,
  type AdvisoryImportResult,
  SCANNER_PATHS,
} from '@trove/contracts/scanner'
import { apiRequest } from '../../../lib/api'
import { violationsKey } from './violations'

/** GET admin/database: advisory count, versions waiting for a scan, the feed and the last ten imports. */
export const databaseQuery = () =>
  queryOptions({
    queryKey: ['scanner-admin', 'database'],
    queryFn: () => apiRequest<AdvisoryDatabaseStatus>(SCANNER_PATHS.database),
    // Versions wait only a moment for their scan, and an import may be running: look again while so.
    refetchInterval: (query) =>
      query.state.data && (query.state.data.waiting > 0 || query.state.data.imports.some((i) => i.state === 'running'))
        ? 3000
        : false,
  })
export const useDatabase = () => useQuery(databaseQuery())

/** A header value fetch accepts (Latin-1 only): other characters of the file's name become "_". */
const headerSafe = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').slice(0, 255)

/**
 * POST admin/database/import with the file as the raw body. The server tells a zip from JSON by
 * its first bytes, so the file goes as octet-stream: a large JSON array is streamed to disk rather
 * than parsed by the request's JSON reader.
 */
export const importAdvisories = (file: File) =>
  apiRequest<AdvisoryImportResult>(SCANNER_PATHS.databaseImport, {
    method: 'POST',
    body: new Blob([file], { type: 'application/octet-stream' }),
    headers: { 'x-file-name': headerSafe(file.name) },
  })

const useInvalidatingMutation = <A, R>(mutationFn: (arg: A) => Promise<R>) => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    // An import or sync may add the advisories a stored version violates; a failed one is an import row too.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: databaseQuery().queryKey }),
        queryClient.invalidateQueries({ queryKey: violationsKey }),
      ]),
  })
}

export const useImportAdvisories = () => useInvalidatingMutation(importAdvisories)

/** POST admin/database/sync: fetches the feed now (400 "url: …" when none is set). */
export const useSyncFeed = () =>
  useInvalidatingMutation(() => apiRequest<AdvisoryImportResult>(SCANNER_PATHS.databaseSync, { method: 'POST' }))

/** PUT admin/database/feed */
export function useSaveFeed() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (feed: AdvisoryFeed) => apiRequest<AdvisoryFeed>(SCANNER_PATHS.databaseFeed, { method: 'PUT', body: feed }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseQuery().queryKey }),
  })
}
