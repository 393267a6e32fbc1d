import { HttpError } from '../../core/errors.js'
import { authorize, sendListingOr404 } from '../kit/files.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { GoRepository } from './repository.js'
import { goRoutes } from './routes.js'

/** `/artifactory/<repo>/<module>/@v/<file>`: the stored files by path (read only; publishing is the GOPROXY-path PUT). */
const goPaths =
  (fctx: FormatContext): PathHandler =>
  async (request, reply, repo, path) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(
        405,
        `${request.method} is not supported here: publish to /api/go/${repo.key}/<module>/@v/<version>.zip`,
      )
    }
    await authorize(fctx, request, 'read', repo.key)
    const file = repo.rclass === 'virtual' ? undefined : await fctx.artifacts.findFile(repo.key, path)
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file, { count: path.endsWith('.zip') })
  }

export const goFormat: Format = {
  ecosystem: 'Go',
  type: 'go',
  routes: goRoutes,
  paths: goPaths,
  filesChanged: (fctx) => {
    const go = new GoRepository(fctx)
    return (repo, paths) => go.filesChanged(repo, paths)
  },
}
