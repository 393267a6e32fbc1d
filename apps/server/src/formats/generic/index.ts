import type { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../modules/repositories/artifacts.js'
import type { Repository } from '../../modules/repositories/service.js'
import {
  authorize,
  authorizeOverwrite,
  bodyLength,
  declaredChecksums,
  deployTarget,
  matrixParams,
  mimeOf,
  resolveFile,
  sendListingOr404,
} from '../files.js'
import type { Format, FormatContext, PathHandler } from '../types.js'

/** `PUT/GET/HEAD/DELETE /artifactory/<repo>/<any path>[;prop=value…]` for generic repositories. */
const genericPaths =
  (fctx: FormatContext): PathHandler =>
  async (request, reply, repo, rawPath) => {
    const { path, properties } = matrixParams(rawPath)
    if (!path || path.endsWith('/')) {
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new HttpError(400, 'path: a file path is required')
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      await authorize(fctx, request, 'read', repo.key)
      const file = path ? await resolveFile(fctx, repo, path) : undefined
      if (!file) return sendListingOr404(fctx, reply, repo, path)
      return fctx.artifacts.sendFile(request, reply, file)
    }
    const target = await deployTarget(fctx, repo)
    if (request.method === 'PUT') {
      const file = await deployFile(fctx, request, target, path, properties)
      return reply.code(201).send(await fileInfo(fctx, fctx.baseUrl(request), target.key, file))
    }
    if (request.method === 'DELETE') {
      await authorize(fctx, request, 'delete', target.key)
      const removed = await fctx.db.kysely.transaction().execute(async (tx) => {
        if (await fctx.artifacts.deleteFile(target.key, path, tx)) return 1
        await fctx.artifacts.assertNotHeld(tx, target.key, { prefix: `${path.replace(/\/+$/, '')}/` })
        const res = await tx
          .deleteFrom('files')
          .where('repo_key', '=', target.key)
          .where('path', 'like', `${path.replace(/\/+$/, '').replace(/[\\%_]/g, (c) => `\\${c}`)}/%`)
          .executeTakeFirst()
        return Number(res.numDeletedRows)
      })
      if (removed === 0) throw new HttpError(404, `${path} not found in ${target.key}`)
      return reply.code(204).send()
    }
    throw new HttpError(405, `${request.method} is not supported here`)
  }

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

export const genericFormat: Format = { type: 'generic', paths: genericPaths }
