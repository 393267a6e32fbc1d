import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Principal } from '../../core/access.js'
import { HttpError } from '../../core/errors.js'
import type { RepoAction } from '../../core/permissions.js'
import type { Repository } from '../../storage/service.js'
import type { FormatContext } from './types.js'

/**
 * Asks `ctx.authz` whether the caller may do `action` on the repository: returns the caller (null
 * when anonymous and allowed), or throws 401 for an anonymous caller and 403 for a signed-in one.
 */
export async function authorize(
  fctx: FormatContext,
  request: FastifyRequest,
  action: RepoAction,
  repoKey: string,
): Promise<Principal | null> {
  const principal = await fctx.principal(request)
  if (await fctx.authz.canOnRepo(principal, action, repoKey)) return principal
  if (!principal) throw new HttpError(401, 'Authentication is required')
  throw new HttpError(403, `${principal.name} may not ${action} in ${repoKey}`)
}

/** The repository a client names, of the type the format serves; 404 otherwise. */
export async function repositoryOf(fctx: FormatContext, key: string, type: string): Promise<Repository> {
  const repo = await fctx.repos.get(key)
  if (!repo || repo.packageType !== type) throw new HttpError(404, `Repository ${key} does not exist`)
  return repo
}

/** Makes request bodies of every content type in this plugin scope arrive as the raw stream (uploads stream to the blob store). */
export function rawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload))
}

/** Reads a whole (small) body stream into a buffer, refusing more than `limit` bytes. */
export async function readBody(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new HttpError(413, `The request body is larger than the limit of ${limit} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** Sets the WWW-Authenticate challenge on 401s so clients (Maven, pip) send their credentials and retry. */
export function challenge(reply: FastifyReply, error: unknown, realm = 'Trove'): void {
  if (error instanceof HttpError && error.status === 401) reply.header('www-authenticate', `Basic realm="${realm}"`)
}

/** Whether an If-None-Match header names `etag` (weak comparison, as GET's revalidation uses; `*` names any). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const wanted = opaque(etag)
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted)
}

/** Validators of answers kept in memory (the formats' cached answers are the same Buffer each time). */
const validators = new WeakMap<Buffer, string>()

function validatorOf(payload: string | Buffer): string {
  const known = typeof payload === 'string' ? undefined : validators.get(payload)
  if (known) return known
  const etag = `W/"${crypto.hash('sha1', payload, 'base64url')}"`
  if (typeof payload !== 'string') validators.set(payload, etag)
  return etag
}

/**
 * Validators on the package clients' metadata answers (packuments, simple pages, indexes, Release
 * files, tag lists…), for the routes of `app` that the format protocols registered: a GET or HEAD
 * answered 200 with a body in memory gets a weak ETag of that body and `Cache-Control: no-cache`
 * (`private` when the caller sent credentials) unless the route set its own, and a request whose
 * If-None-Match names the answer's ETag (its own or the route's: manifests, stored files) is
 * answered 304 without the body. Registered before compression, so the ETag is the content's.
 */
export function conditionalAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload
    if (!request.routeOptions.config?.scopeCapped) return payload
    let etag = reply.getHeader('etag') as string | undefined
    if (!etag) {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
      etag = validatorOf(payload)
      reply.header('etag', etag)
      if (!reply.hasHeader('cache-control')) {
        const credentials = request.headers.authorization !== undefined || request.headers.cookie !== undefined
        reply.header('cache-control', credentials ? 'private, no-cache' : 'no-cache')
      }
    }
    if (!noneMatch(request.headers['if-none-match'], etag)) return payload
    reply.code(304).removeHeader('content-length').removeHeader('content-type')
    if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function')
      (payload as { destroy: () => void }).destroy()
    return ''
  })
}
