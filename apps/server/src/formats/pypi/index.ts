import { HttpError } from '../../core/errors.js'
import { authorize, sendListingOr404 } from '../kit/files.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { PypiRepository } from './repository.js'
import { pypiRoutes } from './routes.js'

/** `/artifactory/<repo>/<name>/<version>/<file>`: the stored files by path (read only; uploads are twine's form). */
const pypiPaths = (fctx: FormatContext): PathHandler => {
  const pypi = new PypiRepository(fctx)
  return async (request, reply, repo, path) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported here: upload with twine to /api/pypi/${repo.key}`)
    }
    await authorize(fctx, request, 'read', repo.key)
    const file = path.split('/').length === 3 ? await pypi.file(repo, path) : undefined
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file)
  }
}

export const pypiFormat: Format = { type: 'pypi', routes: pypiRoutes, paths: pypiPaths, ecosystem: 'PyPI' }
