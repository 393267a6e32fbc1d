import crypto from 'node:crypto'
import type { BlobInfo } from '../../core/blobStore.js'

/**
 * What a remote fetched from its upstream is answered first and kept after: the client does not
 * wait for the blob's write, its fsync and the rows that record it (about a tenth of a cold
 * install's time, whose every request already waits on the upstream's round trip). Until it is
 * kept, what was fetched is served from memory, so a second request neither asks the upstream
 * again nor finds the cache half-written; a crash in between loses only the cached copy, which the
 * next request fetches again.
 */

const pending = new Map<string, { value: unknown; kept: Promise<void> }>()

/** Where a failed keep is told (the app's log; set at start-up). */
let reportFailure: (error: unknown, key: string) => void = () => {}
export function onKeepFailure(report: (error: unknown, key: string) => void): void {
  reportFailure = report
}

/** What was fetched for `key` and is being kept, if any. */
export function beingKept<T>(key: string): T | undefined {
  return pending.get(key)?.value as T | undefined
}

/**
 * Runs `keep` after the caller's answer and holds the value `make` returns (given the promise of
 * what `keep` returns) under `key` until it is done. A failed keep is reported and its promise
 * resolves to undefined (the answer was given already; the next request fetches again).
 */
export function keepLater<V, R>(key: string, make: (kept: Promise<R | undefined>) => V, keep: () => Promise<R>): V {
  const kept = Promise.resolve()
    .then(keep)
    .catch((error: unknown) => {
      reportFailure(error, key)
      return undefined
    })
  const done: Promise<void> = kept.then(() => {
    if (pending.get(key)?.kept === done) pending.delete(key)
  })
  const value = make(kept)
  pending.set(key, { value, kept: done })
  return value
}

/** Bodies up to this size are read into memory, answered and kept after; larger ones stream to the store first. */
export const KEEP_LATER_MAX_BYTES = 1024 * 1024

/** The whole body of an upstream's answer that declares a length up to KEEP_LATER_MAX_BYTES, else undefined (the body is left unread). */
export async function smallBody(response: Response): Promise<Buffer | undefined> {
  const length = Number(response.headers.get('content-length') ?? Number.NaN)
  if (!Number.isInteger(length) || length > KEEP_LATER_MAX_BYTES || response.headers.has('content-encoding')) return undefined
  const body = Buffer.from(await response.arrayBuffer())
  if (body.length !== length) throw new TypeError(`fetch failed: the upstream sent ${body.length} of ${length} bytes`)
  return body
}

/** The sums the blob store records of `body`. */
export function sumsOf(body: Buffer): BlobInfo {
  const sum = (algorithm: string) => crypto.createHash(algorithm).update(body).digest('hex')
  return { sha256: sum('sha256'), sha1: sum('sha1'), md5: sum('md5'), size: body.length }
}

/** Resolves once everything fetched so far is kept (on shutdown, before the database closes; tests). */
export async function allKept(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending.values()].map((p) => p.kept))
}
