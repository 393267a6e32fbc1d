import type { Kysely } from 'kysely'
import { HttpError } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import type { Repository } from '../../storage/service.js'
import { beingKept, keepLater } from './keepLater.js'
import type { FormatContext } from './types.js'
import { fetchOnce, RefusedUpstream, upstreamFetch } from './upstreamFetch.js'

/** A remote's user and password as Basic credentials; undefined without both. */
export function basicCredentials(repo: Repository): string | undefined {
  if (!repo.username || !repo.password) return undefined
  return `Basic ${Buffer.from(`${repo.username}:${repo.password}`).toString('base64')}`
}

/** Headers of a call to a remote repository's upstream: its credentials (Basic with a user name, else Bearer). */
export function upstreamHeaders(fctx: FormatContext, repo: Repository, accept = '*/*'): Record<string, string> {
  const headers: Record<string, string> = { accept, 'user-agent': `Trove/${fctx.build.version}` }
  const basic = basicCredentials(repo)
  if (basic) headers.authorization = basic
  else if (repo.password) headers.authorization = `Bearer ${repo.password}`
  return headers
}

/**
 * Records in remote_cache what a remote's upstream answered for `path`: a document's blob, or a
 * miss (404); through `db` when the write is about one subject (WriteWatch.about).
 */
export async function rememberUpstream(
  fctx: FormatContext,
  repoKey: string,
  path: string,
  sha256: string | null,
  db: Kysely<Database> = fctx.db.kysely,
) {
  const fetched_at = Date.now()
  const status = sha256 ? 200 : 404
  const content_type = sha256 ? 'application/json' : null
  await db
    .insertInto('remote_cache')
    .values({ repo_key: repoKey, path, sha256, status, content_type, fetched_at })
    .onConflict((oc) => oc.columns(['repo_key', 'path']).doUpdateSet({ sha256, status, content_type, fetched_at }))
    .execute()
}

/** What to fetch for a cached upstream document, and how to turn the upstream's answer into what is kept. */
export interface UpstreamDocumentRequest {
  /** Its key in remote_cache. */
  path: string
  url: string
  accept: string
  /** The document to keep, from the upstream's answer; throws an HttpError (502) for one it cannot read. */
  convert: (text: string, response: Response) => string
  /** Where the answer is remembered: a handle about the document's subject (npm: its package), else the database. */
  db?: Kysely<Database>
}

/**
 * A document of a remote's upstream (a packument, an index page), kept as a blob in remote_cache:
 * fresh for the metadata cache lifetime, a miss remembered for the missed cache lifetime. When the
 * upstream cannot answer, a stale copy does (and always when the repository is offline); without
 * one, an upstream error is a 502 and an unreachable upstream a miss.
 */
export function upstreamDocument(
  fctx: FormatContext,
  repo: Repository,
  request: UpstreamDocumentRequest,
): Promise<string | undefined> {
  // However many clients ask for the same document at once, it is read (or fetched) once.
  const key = `document\0${repo.key}\0${request.path}`
  const fetched = beingKept<{ document: string; at: number }>(key)
  if (fetched && (repo.offline || Date.now() - fetched.at < repo.metadataCacheSecs * 1000))
    return Promise.resolve(fetched.document)
  return fetchOnce(key, () => readOrFetchDocument(fctx, repo, request, key))
}

async function readOrFetchDocument(
  fctx: FormatContext,
  repo: Repository,
  request: UpstreamDocumentRequest,
  key: string,
): Promise<string | undefined> {
  const cached = await fctx.db.kysely
    .selectFrom('remote_cache')
    .selectAll()
    .where('repo_key', '=', repo.key)
    .where('path', '=', request.path)
    .executeTakeFirst()
  // A copy answered and still being kept is as good a stale copy as a kept one.
  const held = beingKept<{ document: string }>(key)?.document
  const stale = async () => held ?? (cached?.status === 200 && cached.sha256 ? fctx.blobs.readText(cached.sha256) : undefined)
  if (cached) {
    const lifetime = (cached.status === 200 ? repo.metadataCacheSecs : repo.missedCacheSecs) * 1000
    if (repo.offline || Date.now() - cached.fetched_at < lifetime) return stale()
  } else if (repo.offline) return held
  let response: Response
  try {
    response = await upstreamFetch(repo.key, request.url, {
      headers: upstreamHeaders(fctx, repo, request.accept),
      signal: AbortSignal.timeout(30_000),
    })
  } catch (error) {
    if (error instanceof RefusedUpstream) throw error
    return stale()
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel()
    await rememberUpstream(fctx, repo.key, request.path, null, request.db)
    return undefined
  }
  if (!response.ok) {
    await response.body?.cancel()
    const copy = await stale()
    if (copy !== undefined) return copy
    throw new HttpError(502, `The upstream of ${repo.key} answered ${response.status} for ${request.path}`)
  }
  const document = request.convert(await response.text(), response)
  // Answered now, kept after (kit/keepLater.ts).
  return keepLater(
    key,
    () => ({ document, at: Date.now() }),
    async () => {
      const blob = await fctx.blobs.put(document)
      await rememberUpstream(fctx, repo.key, request.path, blob.sha256, request.db)
    },
  ).document
}
