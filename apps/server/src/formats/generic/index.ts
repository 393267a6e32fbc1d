import { HttpError } from '../../core/errors.js'
import { startsWith } from '../../core/sqlLike.js'
import { authorize, deployFile, deployTarget, fileInfo, matrixParams, resolveFile, sendListingOr404 } from '../kit/files.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'

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
          .where(startsWith('path', `${path.replace(/\/+$/, '')}/`))
          .executeTakeFirst()
        return Number(res.numDeletedRows)
      })
      if (removed === 0) throw new HttpError(404, `${path} not found in ${target.key}`)
      return reply.code(204).send()
    }
    throw new HttpError(405, `${request.method} is not supported here`)
  }

export const genericFormat: Format = { type: 'generic', paths: genericPaths }
