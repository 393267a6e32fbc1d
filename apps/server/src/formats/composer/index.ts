import type { Readable } from 'node:stream'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/errors.js'
import type { Repository } from '../../storage/service.js'
import { deployTarget, sendListingOr404 } from '../kit/files.js'
import { authorize, challenge, rawBodies, repositoryOf } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { isDevVersion } from './package.js'
import { ComposerRepository, p2Entry, TYPE } from './repository.js'

const PREFIXES = ['/api/composer', '/artifactory/api/composer']

/** `?version=` of an upload: the version when composer.json names none. */
const queryVersion = (request: FastifyRequest) => {
  const value = (request.query as { version?: unknown } | undefined)?.version
  return typeof value === 'string' && value ? value : undefined
}

const NOT_A_ZIP = (path: string) =>
  new HttpError(400, `Upload a package as a .zip (composer.json inside; ?version= when it names none), not ${path}`)

/**
 * Composer repositories at /api/composer/<repo>/ (and /artifactory/api/composer/<repo>/), the v2
 * protocol: `packages.json` points Composer at `p2/%package%.json` and lists the package names it
 * holds; `p2/<vendor>/<name>.json` lists the stable versions in full (not minified), `~dev.json`
 * the dev ones; each version's `dist` is the stored zip with its sha1. Uploads are a PUT of the zip
 * (any path ending in .zip); a DELETE of `<vendor>/<name>/<version>` removes a version. Remote
 * repositories proxy another Composer repository's v2 metadata and cache the zips it serves under
 * its own URL (a second Trove's); zips it serves from elsewhere keep their own URLs.
 */
const composerRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const composer = new ComposerRepository(fctx)
    app.setErrorHandler((error, _request, reply) => {
      challenge(reply, error)
      throw error
    })

    const readable = async (request: FastifyRequest) => {
      const { repo: key } = request.params as { repo: string }
      const repo = await repositoryOf(fctx, key, TYPE)
      await authorize(fctx, request, 'read', repo.key)
      return repo
    }

    for (const prefix of PREFIXES) {
      const repoUrl = (request: FastifyRequest, repo: Repository) => `${fctx.baseUrl(request)}${prefix}/${repo.key}`
      const route = { config: { access: 'public' as const }, schema: { hide: true } }

      app.get(`${prefix}/:repo/packages.json`, route, async (request, reply) => {
        const repo = await readable(request)
        const names = await composer.names(repo)
        return reply.send({
          packages: [],
          'metadata-url': `${prefix}/${repo.key}/p2/%package%.json`,
          // Left out when a remote's upstream does not list its names: Composer then asks for each.
          ...(names === undefined ? {} : { 'available-packages': names }),
        })
      })

      app.get(`${prefix}/:repo/p2/:vendor/:file`, route, async (request, reply) => {
        const { vendor, file } = request.params as { vendor: string; file: string }
        const match = /^(.+?)(~dev)?\.json$/.exec(file)
        if (!match) throw new HttpError(404, `${vendor}/${file} not found`)
        const name = `${vendor}/${match[1]}`.toLowerCase()
        const dev = match[2] !== undefined
        const repo = await readable(request)
        const all = await composer.versions(repo, name)
        if (all.length === 0) throw new HttpError(404, `Package ${name} is not in ${repo.key}`)
        const url = repoUrl(request, repo)
        const listed = all.filter((v) => isDevVersion(v.version) === dev).map((v) => p2Entry(v, url))
        return reply.send({ packages: { [name]: listed } })
      })

      app.delete(`${prefix}/:repo/:vendor/:name/:version`, route, async (request, reply) => {
        const {
          repo: key,
          vendor,
          name,
          version,
        } = request.params as { repo: string; vendor: string; name: string; version: string }
        const target = await deployTarget(fctx, await repositoryOf(fctx, key, TYPE))
        await authorize(fctx, request, 'delete', target.key)
        await composer.delete(target, `${vendor}/${name}`, version)
        return reply.send({ deleted: true })
      })

      app.get(`${prefix}/:repo/*`, route, async (request, reply) => {
        const { '*': path } = request.params as { '*': string }
        const repo = await readable(request)
        const file = await composer.file(repo, path)
        if (!file) throw new HttpError(404, `${path} not found in ${repo.key}`)
        return fctx.artifacts.sendFile(request, reply, file)
      })

      app.put(`${prefix}/:repo/*`, route, async (request, reply) => {
        const { repo: key, '*': path } = request.params as { repo: string; '*': string }
        if (!path.endsWith('.zip')) throw NOT_A_ZIP(path)
        return upload(request, reply, await repositoryOf(fctx, key, TYPE))
      })
    }

    const upload = async (request: FastifyRequest, reply: FastifyReply, repo: Repository) => {
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const pkg = await composer.upload(target, request.body as Readable, principal?.name ?? null, queryVersion(request))
      request.log.info(
        { repo: target.key, package: pkg.name, version: pkg.version, user: principal?.name },
        'composer package uploaded',
      )
      return reply.code(201).send({ saved: true, name: pkg.name, version: pkg.version })
    }
  }

/** `/artifactory/<repo>/<path>`: the stored zips by path; a PUT of a `.zip` uploads a package. */
const composerPaths = (fctx: FormatContext): PathHandler => {
  const composer = new ComposerRepository(fctx)
  return async (request, reply, repo, path) => {
    if (request.method === 'PUT') {
      if (!path.endsWith('.zip')) throw NOT_A_ZIP(path)
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const pkg = await composer.upload(target, request.body as Readable, principal?.name ?? null, queryVersion(request))
      return reply.code(201).send({ saved: true, name: pkg.name, version: pkg.version })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported here: upload package zips with PUT`)
    }
    await authorize(fctx, request, 'read', repo.key)
    const file = path ? await composer.file(repo, path) : undefined
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file)
  }
}

export const composerFormat: Format = { type: TYPE, routes: composerRoutes, paths: composerPaths, ecosystem: 'Packagist' }
