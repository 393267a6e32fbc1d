import type { Readable } from 'node:stream'
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError, storageFullAsHttp } from '../../core/errors.js'
import type { Repository } from '../../storage/service.js'
import { IndexAnswers } from '../kit/answers.js'
import { declaredChecksums, deployTarget } from '../kit/files.js'
import { authorize, rawBodies, readBody, repositoryOf } from '../kit/http.js'
import type { FormatContext } from '../kit/types.js'
import { compareGoVersions, modulePathProblem, parseGoVersion, unescapeCase } from './module.js'
import { checkModuleVersion, type GoExt, GoRepository, goFilePath } from './repository.js'

const PREFIXES = ['/api/go', '/artifactory/api/go']

/** A request inside a repository: a module and what of it is asked for. */
type GoRequest =
  | { kind: 'list'; module: string }
  | { kind: 'latest'; module: string }
  | { kind: 'file'; module: string; version: string; ext: GoExt }

/**
 * Reads `<escaped module>/@v/list`, `…/@v/<escaped version>.(info|mod|zip)` and `…/@latest`;
 * undefined for any other path. An escaping that is not Go's (`!` before anything but a lower-case
 * letter, upper-case letters) is a 400.
 */
export function parseGoPath(segments: string[]): GoRequest | undefined {
  const last = segments.at(-1)
  const decode = (s: string, what: string) => {
    const out = unescapeCase(s)
    if (out === null) throw new HttpError(400, `${what}: ${JSON.stringify(s)} is not escaped as Go escapes it (!x for X)`)
    return out
  }
  if (last === '@latest' && segments.length >= 2) {
    return { kind: 'latest', module: decode(segments.slice(0, -1).join('/'), 'module') }
  }
  if (segments.length < 3 || segments.at(-2) !== '@v' || !last) return undefined
  const module = decode(segments.slice(0, -2).join('/'), 'module')
  if (last === 'list') return { kind: 'list', module }
  const m = /^(.+)\.(info|mod|zip)$/.exec(last)
  if (!m) return undefined
  return { kind: 'file', module, version: decode(m[1] ?? '', 'version'), ext: m[2] as GoExt }
}

/**
 * The GOPROXY protocol at /api/go/<repo>/ (and /artifactory/api/go/<repo>/): `@v/list`, `.info`,
 * `.mod`, `.zip` and `@latest` for every repository class; a module zip PUT to
 * `<module>/@v/<version>.zip` publishes the version (its .mod and .info are made from it; PUTs of
 * them afterwards are accepted when they agree); DELETE of any of the three removes the version.
 */
export const goRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const go = new GoRepository(fctx)
    // `@v/list` and `@latest` are what go asks most (answers.ts).
    const answers = new IndexAnswers(fctx.repos)

    // The go command prints a failed answer's text/plain body ("server response: …"): reads get
    // the message as plain text; uploads and deletions (curl, scripts) the JSON error shape.
    app.setErrorHandler((raw: FastifyError, request, reply) => {
      const error = storageFullAsHttp(raw)
      if (error !== raw) request.log.error({ err: raw }, 'a write failed: the disk is full')
      const status = error instanceof HttpError ? error.status : error.validation ? 400 : (error.statusCode ?? 500)
      if (status >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'go request failed')
      const message = status >= 500 && !(error instanceof HttpError) ? 'Internal server error' : error.message
      if (status === 401) reply.header('www-authenticate', 'Basic realm="Trove"')
      if (request.method === 'GET' || request.method === 'HEAD') {
        return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`)
      }
      return reply.code(status).send({ errors: [{ status, message }] })
    })

    const notFound = (what: string, repo: Repository) => new HttpError(404, `not found: ${what} in ${repo.key}`)

    const read = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, req: GoRequest) => {
      await authorize(fctx, request, 'read', repo.key)
      const problem = modulePathProblem(req.module)
      // A 404 (not a 400): the go command then tries the next proxy or a shorter path.
      if (problem) throw new HttpError(404, `not found: malformed module path ${JSON.stringify(req.module)}: ${problem}`)
      if (req.kind === 'list') {
        const list = await answers.get(repo, `list\0${req.module}`, async () => {
          const versions = (await go.versions(repo, req.module)).filter((v) => parseGoVersion(v)).sort(compareGoVersions)
          return versions.length === 0 ? null : `${versions.join('\n')}\n`
        })
        if (list === null) throw notFound(req.module, repo)
        return reply.type('text/plain; charset=utf-8').send(list)
      }
      if (req.kind === 'latest') {
        const info = await answers.get(repo, `latest\0${req.module}`, () => go.latest(repo, req.module))
        if (!info) throw notFound(`${req.module}@latest`, repo)
        return reply.type('application/json').send(info)
      }
      if (!parseGoVersion(req.version)) throw notFound(`${req.module}@${req.version}: invalid version`, repo)
      const file = await go.file(repo, req.module, req.version, req.ext)
      if (!file) throw notFound(`${req.module}@${req.version}`, repo)
      // A download is a zip fetched; .info and .mod are the resolver's reading.
      return fctx.artifacts.sendFile(request, reply, file, { count: req.ext === 'zip' })
    }

    const put = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, req: GoRequest) => {
      if (req.kind !== 'file') throw new HttpError(405, `PUT ${req.kind === 'list' ? '@v/list' : '@latest'} is not supported`)
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      checkModuleVersion(req.module, req.version)
      const body = request.body as Readable | undefined
      if (!body) throw new HttpError(400, `body: the .${req.ext} file is missing`)
      if (req.ext === 'zip') {
        const blob = await fctx.blobs.put(body, declaredChecksums(request))
        const result = await go.publish(target, req.module, req.version, blob, principal?.name ?? null)
        request.log.info(
          { repo: target.key, module: req.module, version: req.version, user: principal?.name },
          'go module published',
        )
        return reply.code(result === 'created' ? 201 : 200).send({ module: req.module, version: req.version, repo: target.key })
      }
      // .mod and .info after the zip (as go-publish tools send them): kept when they agree with it.
      const version = await fctx.artifacts.findVersion(target.key, 'go', req.module, req.version)
      const stored = await fctx.artifacts.findFile(target.key, goFilePath(req.module, req.version, req.ext))
      if (!version || !stored) throw new HttpError(409, `${req.module}@${req.version}: upload its .zip first`)
      const text = (await readBody(body, 1024 * 1024)).toString('utf8')
      if (req.ext === 'mod') {
        if (text.replace(/\r\n/g, '\n').trim() !== (await fctx.blobs.readText(stored.sha256)).trim()) {
          throw new HttpError(409, `${req.module}@${req.version}: this .mod differs from the go.mod in the module zip`)
        }
        return reply.code(200).send({ module: req.module, version: req.version, repo: target.key })
      }
      let info: { Version?: unknown; Time?: unknown }
      try {
        info = JSON.parse(text)
      } catch {
        throw new HttpError(400, 'body: the .info is not JSON')
      }
      if (info.Version !== req.version)
        throw new HttpError(400, `body: the .info names ${String(info.Version)}, not ${req.version}`)
      if (typeof info.Time !== 'string' || !Number.isFinite(Date.parse(info.Time))) {
        throw new HttpError(400, 'body: the .info needs a Time (RFC 3339)')
      }
      const blob = await fctx.blobs.put(JSON.stringify({ Version: req.version, Time: info.Time }))
      await fctx.db.kysely.transaction().execute(async (tx) => {
        await fctx.artifacts.putFile(
          tx,
          target.key,
          { path: stored.path, blob, mimeType: 'application/json' },
          { versionId: version.id, createdBy: principal?.name ?? null },
        )
      })
      return reply.code(200).send({ module: req.module, version: req.version, repo: target.key })
    }

    const remove = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, req: GoRequest) => {
      if (req.kind !== 'file') throw new HttpError(405, 'DELETE a version by its .zip, .mod or .info')
      const target = await deployTarget(fctx, repo)
      await authorize(fctx, request, 'delete', target.key)
      const deleted = await fctx.artifacts.deleteVersion(target.key, 'go', req.module, req.version)
      if (!deleted) throw new HttpError(404, `${req.module}@${req.version} not found in ${target.key}`)
      return reply.code(204).send()
    }

    for (const prefix of PREFIXES) {
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        const { repo: key } = request.params as { repo: string }
        const repo = await repositoryOf(fctx, key, 'go')
        // From the raw URL, each segment decoded once (a remote's fetch encodes `@` as %40).
        let segments: string[]
        try {
          segments = (request.url.split('?')[0] ?? '')
            .split('/')
            .slice(prefix.split('/').length + 1)
            .filter((s) => s !== '')
            .map((s) => decodeURIComponent(s))
        } catch {
          throw new HttpError(400, 'path: invalid percent-encoding')
        }
        if (segments.some((s) => s === '..' || s === '.' || s.includes('/')))
          throw new HttpError(400, 'path: must not contain . or .. segments')
        const req = parseGoPath(segments)
        if (!req) throw new HttpError(404, `Not found: ${request.method} ${request.url.split('?')[0]}`)
        if (request.method === 'GET' || request.method === 'HEAD') return read(request, reply, repo, req)
        if (request.method === 'PUT') return put(request, reply, repo, req)
        return remove(request, reply, repo, req)
      }
      app.route({
        method: ['GET', 'HEAD', 'PUT', 'DELETE'],
        url: `${prefix}/:repo/*`,
        config: { access: 'public' },
        schema: { hide: true },
        bodyLimit: fctx.config.repositories.uploadMaxBytes + 64 * 1024 * 1024,
        handler,
      })
    }
  }
