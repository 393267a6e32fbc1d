import { isDatabaseUnavailable } from './errors.js'

/**
 * How old an answer a node read from the database may be and still be served while the database
 * cannot be reached. Reads go on from what the node's caches hold (callers, permissions,
 * repositories, npm packuments, served files); everything else, writes included, answers 503 until
 * the database is back. Bounded, so a node cut off from the database does not serve a revoked
 * token or a deleted file for long.
 */
export const STALE_WHILE_DOWN_MS = 5 * 60_000

/** Whether an answer loaded at `loadedAt` may stand in for a fresh load that failed with `error`. */
export function servesStale(error: unknown, loadedAt: number | undefined, now = Date.now()): boolean {
  return loadedAt !== undefined && now - loadedAt <= STALE_WHILE_DOWN_MS && isDatabaseUnavailable(error)
}
