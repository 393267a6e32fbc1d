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
