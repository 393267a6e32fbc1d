import type { Readable } from 'node:stream'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError, serverFaultAsHttp } from '../../core/errors.js'
import { deployTarget, sendListingOr404 } from '../kit/files.js'
import { authorize, rawBodies, readBody, repositoryOf } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { isPrerelease, specsIndex } from './gem.js'
import { GemsRepository, TYPE, versionsFile } from './repository.js'

const PREFIXES = ['/api/gems', '/artifactory/api/gems']

/**
 * RubyGems repositories at /api/gems/<repo>/ (and /artifactory/api/gems/<repo>/): `gem push`
 * (`POST api/v1/gems`), `gem yank` (`DELETE api/v1/gems/yank`), the API key of
 * `api/v1/api_key.yaml`, the compact index Bundler and `gem install` read (`versions`,
 * `info/<name>`, `names`), the Marshal indexes (`specs.4.8.gz`, `latest_specs.4.8.gz`,
 * `prerelease_specs.4.8.gz`), the quick gemspecs and the gems.
 */
const gemsRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const gems = new GemsRepository(fctx)

    // gem and Bundler print an error's body as it is: plain text, the message.
    app.setErrorHandler((raw, request, reply) => {
      const error = serverFaultAsHttp(raw, reply)
      if (error !== raw) request.log.error({ err: raw }, (error as HttpError).message)
      const status = error instanceof HttpError ? error.status : ((error as { statusCode?: number }).statusCode ?? 500)
      if (status >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'gems request failed')
      const message = status >= 500 && !(error instanceof HttpError) ? 'Internal server error' : (error as Error).message
      if (status === 401) reply.header('www-authenticate', 'Basic realm="Trove"')
      return reply.code(status).type('text/plain; charset=utf-8').send(message)
    })

    const repoOf = async (request: FastifyRequest) => {
      const { repo: key } = request.params as { repo: string }
      const repo = await repositoryOf(fctx, key, TYPE)
      await authorize(fctx, request, 'read', repo.key)
      return repo
    }
    const text = (reply: FastifyReply, body: string) => reply.type('text/plain; charset=utf-8').send(body)
    const binary = (reply: FastifyReply, type: string, body: Buffer) => reply.type(type).send(body)

    for (const prefix of PREFIXES) {
      const route = (method: 'get' | 'post' | 'delete', url: string, handler: (r: FastifyRequest, p: FastifyReply) => unknown) =>
        app[method](`${prefix}/:repo/${url}`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) =>
          handler(request, reply),
        )

      // The API key `~/.gem/credentials` holds: the credentials the caller asked with, sent back as
      // the Authorization header gem then sends with every push.
      route('get', 'api/v1/api_key.yaml', async (request, reply) => {
        await repoOf(request)
        const authorization = request.headers.authorization
        if (!authorization || !(await fctx.principal(request))) throw new HttpError(401, 'Authentication is required')
        return reply.type('text/yaml; charset=utf-8').send(`---\n:rubygems_api_key: ${authorization}\n`)
      })

      route('post', 'api/v1/gems', async (request, reply) => {
        const { repo: key } = request.params as { repo: string }
        const target = await deployTarget(fctx, await repositoryOf(fctx, key, TYPE))
        const principal = await authorize(fctx, request, 'deploy', target.key)
        const spec = await gems.push(target, request.body as Readable, principal?.name ?? null)
        request.log.info({ repo: target.key, gem: spec.name, version: spec.version, user: principal?.name }, 'gem pushed')
        return text(reply, `Successfully registered gem: ${spec.name} (${spec.version})`)
      })

      route('delete', 'api/v1/gems/yank', async (request, reply) => {
        const { repo: key } = request.params as { repo: string }
        const target = await deployTarget(fctx, await repositoryOf(fctx, key, TYPE))
        await authorize(fctx, request, 'delete', target.key)
        // gem yank sends its fields as a form, or as query parameters.
        const body = request.body ? (await readBody(request.body as Readable, 64 * 1024)).toString('utf8') : ''
        const fields = new URLSearchParams(body || (request.url.split('?')[1] ?? ''))
        const name = fields.get('gem_name')
        const version = fields.get('version')
        if (!name || !version) throw new HttpError(400, 'gem_name and version are required')
        await gems.yank(target, name, version, fields.get('platform') || 'ruby')
        return text(reply, `Successfully deleted gem: ${name} (${version})`)
      })

      route('get', 'versions', async (request, reply) =>
        text(reply, versionsFile(await gems.compactIndex(await repoOf(request)), new Date())),
      )
      route('get', 'names', async (request, reply) => {
        const names = [...(await gems.compactIndex(await repoOf(request))).entries()]
          .filter(([, { versions }]) => versions.length > 0)
          .map(([name]) => name)
          .sort()
        return text(reply, `---\n${names.map((n) => `${n}\n`).join('')}`)
      })
      route('get', 'info/:name', async (request, reply) => {
        const { name } = request.params as { name: string }
        const info = await gems.info(await repoOf(request), name)
        if (info === undefined) throw new HttpError(404, `Gem ${name} is not in the repository`)
        return text(reply, info)
      })

      type Tuple = Awaited<ReturnType<GemsRepository['specTuples']>>[number]
      const specs = (pick: (all: Tuple[]) => Tuple[]) => async (request: FastifyRequest, reply: FastifyReply) =>
        binary(reply, 'application/octet-stream', specsIndex(pick(await gems.specTuples(await repoOf(request)))))
      route(
        'get',
        'specs.4.8.gz',
        specs((all) => all.filter((g) => !isPrerelease(g.version))),
      )
      route(
        'get',
        'prerelease_specs.4.8.gz',
        specs((all) => all.filter((g) => isPrerelease(g.version))),
      )
      // The highest release of each name and platform.
      route(
        'get',
        'latest_specs.4.8.gz',
        specs((all) => {
          const latest = new Map<string, Tuple>()
          for (const g of all.filter((x) => !isPrerelease(x.version))) {
            const key = `${g.name}\0${g.platform}`
            const seen = latest.get(key)
            if (!seen || compareGemVersions(g.version, seen.version) > 0) latest.set(key, g)
          }
          return [...latest.values()]
        }),
      )

      route('get', 'quick/Marshal.4.8/:file', async (request, reply) => {
        const { file } = request.params as { file: string }
        const found = file.endsWith('.gemspec.rz') ? await gems.quickSpec(await repoOf(request), file) : undefined
        if (!found) throw new HttpError(404, `${file} is not in the repository`)
        if (Buffer.isBuffer(found)) return binary(reply, 'application/octet-stream', found)
        return fctx.artifacts.sendFile(request, reply, found)
      })

      route('get', 'gems/:file', async (request, reply) => {
        const { file } = request.params as { file: string }
        const repo = await repoOf(request)
        const found = await gems.file(repo, `gems/${file}`)
        if (!found) throw new HttpError(404, `${file} is not in ${repo.key}`)
        return fctx.artifacts.sendFile(request, reply, found)
      })
    }
  }

/** Gem::Version's order, enough for picking the latest release: numeric segments compare as numbers. */
export function compareGemVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/)
  const pb = b.split(/[.-]/)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0'
    const y = pb[i] ?? '0'
    const nx = /^\d+$/.test(x)
    const ny = /^\d+$/.test(y)
    if (nx && ny) {
      if (Number(x) !== Number(y)) return Number(x) - Number(y)
    } else if (nx !== ny) return nx ? 1 : -1
    else if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/** `/artifactory/<repo>/<path>`: the stored gems by path (read only; pushes are gem's). */
const gemsPaths = (fctx: FormatContext): PathHandler => {
  const gems = new GemsRepository(fctx)
  return async (request, reply, repo, path) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported here: push with gem push --host <url>/api/gems/${repo.key}`)
    }
    await authorize(fctx, request, 'read', repo.key)
    const file = path.startsWith('gems/') ? await gems.file(repo, path) : undefined
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file)
  }
}

export const gemsFormat: Format = { type: TYPE, routes: gemsRoutes, paths: gemsPaths, ecosystem: 'RubyGems' }
