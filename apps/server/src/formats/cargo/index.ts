import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError, storageFullAsHttp } from '../../core/errors.js'
import { TOKEN_PATTERN } from '../../identity/index.js'
import { IndexAnswers } from '../kit/answers.js'
import { authorize, deployTarget, sendListingOr404 } from '../kit/files.js'
import { rawBodies, readBody, repositoryOf } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { checkCrate, indexPath, parsePublishBody } from './crate.js'
import { CargoRepository } from './repository.js'

const TYPE = 'cargo'
const PREFIXES = ['/api/cargo', '/artifactory/api/cargo']

/** The crate name an index file's path names (`3/a/abc` → abc), if the path is where Cargo looks for it. */
export function crateOfIndexPath(path: string): string | undefined {
  const name = path.split('/').at(-1) ?? ''
  if (!/^[a-z][a-z0-9_-]{0,63}$/.test(name)) return undefined
  return indexPath(name) === path ? name : undefined
}

/**
 * Cargo registries at /api/cargo/<repo>/ (and /artifactory/api/cargo/<repo>/): the sparse index
 * under `index/` (`config.json`, a file per crate), and the web API Cargo calls under the
 * registry's `api` URL: publish (`PUT api/v1/crates/new`), download, yank, unyank and owners.
 */
const cargoRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const cargo = new CargoRepository(fctx)
    // Index files are what Cargo asks most (answers.ts; a yank counts as a change).
    const answers = new IndexAnswers(fctx.repos)

    // Cargo sends its token as the whole Authorization header, without a scheme. Only here is such a
    // header read as a token: it becomes the Bearer token every other route knows.
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers.authorization
      if (header && TOKEN_PATTERN.test(header.trim())) request.headers.authorization = `Bearer ${header.trim()}`
      done()
    })

    // Cargo prints the `detail` of every error in its JSON error shape.
    app.setErrorHandler((raw: FastifyError, request, reply) => {
      const error = storageFullAsHttp(raw)
      const status = error instanceof HttpError ? error.status : raw.validation ? 400 : (raw.statusCode ?? 500)
      const internal = status >= 500 && !(error instanceof HttpError)
      if (internal) request.log.error({ err: raw }, 'cargo request failed')
      if (status === 401) reply.header('www-authenticate', 'Cargo')
      return reply.code(status).send({ errors: [{ detail: internal ? 'Internal server error' : error.message }] })
    })

    const repoOf = (request: FastifyRequest) => repositoryOf(fctx, (request.params as { repo: string }).repo, TYPE)
    const crateParams = (request: FastifyRequest) => {
      const { name, version } = request.params as { name: string; version: string }
      checkCrate(name, version)
      return { name, version }
    }
    /** The registry's own URL as this request reached it. */
    const registryUrl = (request: FastifyRequest, prefix: string, key: string) => `${fctx.baseUrl(request)}${prefix}/${key}`

    for (const prefix of PREFIXES) {
      const base = `${prefix}/:repo`
      const hidden = { config: { access: 'public' as const }, schema: { hide: true } }

      app.get(`${base}/index/config.json`, hidden, async (request, reply) => {
        const repo = await repoOf(request)
        await authorize(fctx, request, 'read', repo.key)
        const url = registryUrl(request, prefix, repo.key)
        return reply.type('application/json').send({ dl: `${url}/api/v1/crates`, api: url, 'auth-required': true })
      })

      app.get(`${base}/index/*`, hidden, async (request, reply) => {
        const repo = await repoOf(request)
        await authorize(fctx, request, 'read', repo.key)
        const path = (request.params as { '*': string })['*']
        const name = crateOfIndexPath(path)
        if (!name) throw new HttpError(404, `${path} is not an index file of ${repo.key}`)
        const text = await answers.get(repo, name, async () => {
          const lines = await cargo.indexLines(repo, name)
          return lines === undefined || lines.length === 0 ? null : `${lines.join('\n')}\n`
        })
        if (text === null) throw new HttpError(404, `crate ${name} does not exist in ${repo.key}`)
        return reply.type('text/plain; charset=utf-8').send(text)
      })

      app.put(
        `${base}/api/v1/crates/new`,
        { ...hidden, bodyLimit: fctx.config.repositories.uploadMaxBytes + 16 * 1024 * 1024 },
        async (request, reply) => {
          const target = await deployTarget(fctx, await repoOf(request))
          const principal = await authorize(fctx, request, 'deploy', target.key)
          const body = await readBody(
            request.body as NodeJS.ReadableStream,
            fctx.config.repositories.uploadMaxBytes + 1024 * 1024,
          )
          const { metadata, crate } = parsePublishBody(body)
          const entry = await cargo.publish(target, metadata, crate, principal?.name ?? null)
          request.log.info({ repo: target.key, crate: entry.name, version: entry.vers, user: principal?.name }, 'crate published')
          return reply.send({ warnings: { invalid_categories: [], invalid_badges: [], other: [] } })
        },
      )

      app.get(`${base}/api/v1/crates/:name/:version/download`, hidden, async (request, reply) => {
        const repo = await repoOf(request)
        await authorize(fctx, request, 'read', repo.key)
        const { name, version } = crateParams(request)
        const file = await cargo.crate(repo, name, version)
        if (!file) throw new HttpError(404, `crate \`${name}@${version}\` does not exist in ${repo.key}`)
        return fctx.artifacts.sendFile(request, reply, file, { count: true })
      })

      const yank = (yanked: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
        const target = await deployTarget(fctx, await repoOf(request))
        const principal = await authorize(fctx, request, 'deploy', target.key)
        const { name, version } = crateParams(request)
        await cargo.setYanked(target, name, version, yanked)
        request.log.info(
          { repo: target.key, crate: name, version, user: principal?.name },
          yanked ? 'crate yanked' : 'crate unyanked',
        )
        return reply.send({ ok: true })
      }
      app.delete(`${base}/api/v1/crates/:name/:version/yank`, hidden, yank(true))
      app.put(`${base}/api/v1/crates/:name/:version/unyank`, hidden, yank(false))

      app.get(`${base}/api/v1/crates/:name/owners`, hidden, async (request, reply) => {
        const repo = await repoOf(request)
        await authorize(fctx, request, 'read', repo.key)
        const { name } = request.params as { name: string }
        const target = repo.rclass === 'local' ? repo : await deployTarget(fctx, repo)
        const owners = await cargo.owners(target, name)
        if (!owners) throw new HttpError(404, `crate \`${name}\` does not exist in ${target.key}`)
        return reply.send({ users: owners.map((login, i) => ({ id: i + 1, login, name: login })) })
      })

      // Not Cargo's (its registries never delete; a yank hides a version from new lock files): Trove's
      // way to remove a version, as the console's delete does.
      app.delete(`${base}/api/v1/crates/:name/:version`, hidden, async (request, reply) => {
        const target = await deployTarget(fctx, await repoOf(request))
        await authorize(fctx, request, 'delete', target.key)
        const { name, version } = crateParams(request)
        if (!(await fctx.artifacts.deleteVersion(target.key, TYPE, name, version))) {
          throw new HttpError(404, `crate \`${name}@${version}\` does not exist in ${target.key}`)
        }
        return reply.send({ ok: true })
      })
    }
  }

/** `/artifactory/<repo>/crates/<name>/<name>-<version>.crate`: the stored archives by path (read only). */
const cargoPaths =
  (fctx: FormatContext): PathHandler =>
  async (request, reply, repo, path) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported here: publish with cargo publish --registry ${repo.key}`)
    }
    await authorize(fctx, request, 'read', repo.key)
    const file = repo.rclass === 'virtual' ? undefined : await fctx.artifacts.findFile(repo.key, path)
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file, { count: path.endsWith('.crate') })
  }

export const cargoFormat: Format = { type: TYPE, routes: cargoRoutes, paths: cargoPaths, ecosystem: 'crates.io' }
