import { RESERVED_REPO_KEYS } from '@trove/contracts/repositoryConstants'
import type { FastifyPluginAsync } from 'fastify'
import { canonicalPath } from '../../core/artifactPath.js'
import { HttpError } from '../../core/errors.js'
import { challenge, rawBodies } from './http.js'
import type { Format, FormatContext, PathHandler } from './types.js'

/**
 * `/artifactory/<repo>/<path>` for every method: finds the repository and hands the path to its
 * format (Maven and generic answer here; tools configured for that layout work unchanged).
 */
export const repositoryPathRoutes =
  (fctx: FormatContext, formats: Format[]): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const handlers = new Map<string, PathHandler>()
    for (const format of formats) {
      const handler = format.paths?.(fctx)
      if (handler) handlers.set(format.type, handler)
    }
    app.setErrorHandler((error, _request, reply) => {
      challenge(reply, error)
      throw error
    })
    app.route({
      method: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
      url: '/artifactory/:repo/*',
      config: { access: 'public' },
      schema: { hide: true },
      handler: async (request, reply) => {
        const { repo: key, '*': rest } = request.params as { repo: string; '*': string }
        // /artifactory/api/… that no API route answered: the usual not-found, not a repository's.
        if (RESERVED_REPO_KEYS.includes(key.toLowerCase()))
          throw new HttpError(404, `Not found: ${request.method} ${request.url.split('?')[0]}`)
        const repo = await fctx.repos.get(key)
        if (!repo) throw new HttpError(404, `Repository ${key} does not exist`)
        const handler = handlers.get(repo.packageType)
        if (!handler) throw new HttpError(404, `${repo.packageType} repositories are not served at this path`)
        let decoded: string
        try {
          decoded = decodeURIComponent(rest)
        } catch {
          // The router has decoded the path once already: what is left may be a lone `%`.
          throw new HttpError(400, 'path: malformed percent-encoding')
        }
        // Canonical before the format (and its permission check) sees it (core/artifactPath.ts).
        // A trailing slash is kept: it asks for a folder's listing.
        const path = canonicalPath(decoded) + (decoded.endsWith('/') && decoded.replace(/\/+/g, '') !== '' ? '/' : '')
        return handler(request, reply, repo, path)
      },
    })
  }
