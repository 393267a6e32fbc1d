import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import mime from 'mime-types'
import type { Expected } from '../../core/blobStore.js'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { childKeys } from '../../storage/tree.js'
import { authorize } from './http.js'
import type { FormatContext } from './types.js'
import { rememberUpstream, upstreamHeaders } from './upstream.js'
import { fetchOnce, RefusedUpstream, upstreamFetch } from './upstreamFetch.js'

/** Checksums a client declares in the widespread headers (X-Checksum-Sha1, -Sha256, -Md5). */
export function declaredChecksums(request: FastifyRequest): Expected {
  const h = (name: string) => {
    const v = request.headers[name]
    return typeof v === 'string' && v.trim() ? v.trim().toLowerCase() : undefined
  }
  const expected: Expected = {}
  const sha1 = h('x-checksum-sha1')
  const sha256 = h('x-checksum-sha256')
  const md5 = h('x-checksum-md5')
  if (sha1) expected.sha1 = sha1
  if (sha256) expected.sha256 = sha256
  if (md5) expected.md5 = md5
  const length = request.headers['content-length']
  if (typeof length === 'string' && /^\d+$/.test(length)) expected.size = Number(length)
  return expected
}

/**
 * The bytes a request's body carries as it arrives (its Content-Length), when the body is passed
 * on as received (no content coding): the blob store sends such a body to a bucket in one request.
 */
export function bodyLength(request: FastifyRequest): number | undefined {
  const coding = request.headers['content-encoding']
  if (coding && coding !== 'identity') return undefined
  const length = request.headers['content-length']
  return typeof length === 'string' && /^\d+$/.test(length) ? Number(length) : undefined
}

export function mimeOf(path: string): string {
  return mime.lookup(path) || 'application/octet-stream'
}

/** Splits `path;a=1;b=2,3` (matrix parameters) into the path and its properties. */
export function matrixParams(raw: string): { path: string; properties: Record<string, string[]> } {
  const [path = '', ...params] = raw.split(';')
  const properties: Record<string, string[]> = {}
  for (const p of params) {
    const eq = p.indexOf('=')
    const name = (eq < 0 ? p : p.slice(0, eq)).trim()
    if (!name) continue
    properties[name] = eq < 0 ? [''] : p.slice(eq + 1).split(',')
  }
  return { path, properties }
}

/** The local repository a deploy to `repo` lands in (a virtual's default deployment repository). */
export async function deployTarget(fctx: FormatContext, repo: Repository): Promise<Repository> {
  if (repo.rclass === 'local') return repo
  if (repo.rclass === 'virtual' && repo.defaultDeploymentRepo) {
    const target = await fctx.repos.get(repo.defaultDeploymentRepo)
    if (target) return target
  }
  throw new HttpError(405, `${repo.key} is a ${repo.rclass} repository without a deployment target: deploy to a local one`)
}

/**
 * A file by path in a repository: a local's own; a remote's cached copy, fetched from its upstream
 * on a miss (metadata-like paths are fetched again after the metadata cache lifetime); a virtual's
 * first member that has it.
 */
export async function resolveFile(
  fctx: FormatContext,
  repo: Repository,
  path: string,
  options: { isMetadata?: (path: string) => boolean } = {},
): Promise<FileRow | undefined> {
  if (repo.rclass === 'local') return fctx.artifacts.servedFile(repo.key, path)
  if (repo.rclass === 'virtual') {
    for (const key of repo.members) {
      const member = await fctx.repos.get(key)
      const found = member ? await resolveFile(fctx, member, path, options) : undefined
      if (found) return found
    }
    return undefined
  }
  const cached = await fctx.artifacts.findFile(repo.key, path)
  const fresh =
    cached && (!options.isMetadata?.(path) || Date.now() - cached.modified_at < repo.metadataCacheSecs * 1000 || repo.offline)
  if (cached && fresh) return cached
  if (repo.offline) return cached
  // However many clients miss the same file at once, one of them fetches it.
  return fetchOnce(`file\0${repo.key}\0${path}`, () => fetchRemoteFile(fctx, repo, path, cached))
}

async function fetchRemoteFile(
  fctx: FormatContext,
  repo: Repository,
  path: string,
  cached: FileRow | undefined,
): Promise<FileRow | undefined> {
  const missed = await fctx.db.kysely
    .selectFrom('remote_cache')
    .select('fetched_at')
    .where('repo_key', '=', repo.key)
    .where('path', '=', path)
    .where('status', '=', 404)
    .executeTakeFirst()
  if (missed && Date.now() - missed.fetched_at < repo.missedCacheSecs * 1000) return cached
  let response: Response
  try {
    response = await upstreamFetch(repo.key, `${repo.url}/${path.split('/').map(encodeURIComponent).join('/')}`, {
      headers: upstreamHeaders(fctx, repo),
      signal: AbortSignal.timeout(300_000),
    })
  } catch (error) {
    if (error instanceof RefusedUpstream) throw error
    return cached
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel()
    if (response.status === 404 || response.status === 410) {
      await rememberUpstream(fctx, repo.key, path, null)
      return undefined
    }
    if (cached) return cached
    throw new HttpError(502, `The upstream of ${repo.key} answered ${response.status} for ${path}`)
  }
  const expected: Expected = {}
  const sha1 = response.headers.get('x-checksum-sha1')
  if (sha1 && /^[0-9a-f]{40}$/i.test(sha1)) expected.sha1 = sha1
  const blob = await fctx.blobs.put(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), expected)
  await fctx.db.kysely.transaction().execute(async (tx) => {
    await fctx.artifacts.putFile(tx, repo.key, { path, blob, mimeType: mimeOf(path) })
    await tx.deleteFrom('remote_cache').where('repo_key', '=', repo.key).where('path', '=', path).execute()
  })
  return fctx.artifacts.findFile(repo.key, path)
}

/** Sends a folder listing when the path names one (files under it exist), else 404. */
/** Children read per query when a folder is listed. */
const LISTING_PAGE = 1000

export async function sendListingOr404(fctx: FormatContext, reply: FastifyReply, repo: Repository, path: string) {
  const prefix = path.replace(/\/+$/, '')
  // A folder's children by the tree's loose index scan (one seek each), never every file below it.
  const children = new Map<string, boolean>()
  for (let after: string | undefined; ; ) {
    const page = await childKeys(fctx.db, repo.key, prefix, { after, limit: LISTING_PAGE })
    for (const child of page) children.set(child.name, children.get(child.name) === true || child.folder)
    if (page.length < LISTING_PAGE) break
    after = page[page.length - 1]?.key
  }
  if (children.size === 0) throw new HttpError(404, `${path} not found in ${repo.key}`)
  return reply.send({
    repo: repo.key,
    path: `/${prefix}`,
    children: [...children.entries()].map(([name, folder]) => ({ uri: `/${name}`, folder })),
  })
}

/**
 * Authorizes an overwrite: replacing a stored file needs the delete permission. Returns whether the
 * caller may replace the file; pass it on to `putFile` (`replace`), which decides again as it writes
 * the row, because another deploy of the same path may land while this one uploads.
 */
export async function authorizeOverwrite(
  fctx: FormatContext,
  request: FastifyRequest,
  repo: Repository,
  path: string,
): Promise<boolean> {
  if (await fctx.authz.canOnRepo(await fctx.principal(request), 'delete', repo.key)) return true
  if (await fctx.artifacts.findFile(repo.key, path)) {
    throw new HttpError(409, `${path} already exists in ${repo.key}; replacing it needs the delete permission`)
  }
  return false
}

export { authorize }

/**
 * Stores a request's body as a file of a local repository with its properties: the caller needs
 * deploy there, and delete to replace a file. The blob is complete and verified before the row is
 * written, so an interrupted upload leaves nothing visible.
 */
export async function deployFile(
  fctx: FormatContext,
  request: FastifyRequest,
  target: Repository,
  path: string,
  properties: Record<string, string[]>,
): Promise<FileRow> {
  const principal = await authorize(fctx, request, 'deploy', target.key)
  const replace = await authorizeOverwrite(fctx, request, target, path)
  const body = (request.body as Readable | undefined) ?? Buffer.alloc(0)
  // The answer carries sha1 and md5: hashed while the file streams.
  const blob = await fctx.blobs.put(body, declaredChecksums(request), { allSums: true, length: bodyLength(request) })
  await fctx.db.kysely.transaction().execute(async (tx) => {
    const id = await fctx.artifacts.putFile(
      tx,
      target.key,
      { path, blob, mimeType: mimeOf(path) },
      { createdBy: principal?.name, replace },
    )
    await fctx.artifacts.setProperties(tx, id, properties)
  })
  return (await fctx.artifacts.findFile(target.key, path)) as FileRow
}

/** The storage API's answer about one file (`GET /api/storage/<repo>/<path>`, and a deploy's answer). */
export async function fileInfo(fctx: FormatContext, baseUrl: string, repoKey: string, file: FileRow) {
  // A large file's sha1 and md5 may still be left for later: computed now, the answer has them.
  const { sha1, md5 } = await fctx.blobs.checksums(file)
  return {
    repo: repoKey,
    path: `/${file.path}`,
    created: new Date(file.created_at).toISOString(),
    createdBy: file.created_by ?? undefined,
    lastModified: new Date(file.modified_at).toISOString(),
    downloadUri: `${baseUrl}/artifactory/${repoKey}/${file.path}`,
    mimeType: file.mime_type,
    size: String(file.size),
    checksums: { sha1, md5, sha256: file.sha256 },
    originalChecksums: { sha1, md5, sha256: file.sha256 },
    uri: `${baseUrl}/api/storage/${repoKey}/${file.path}`,
  }
}
