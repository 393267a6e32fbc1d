import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError, serverFaultAsHttp } from '../../core/errors.js'
import { contains } from '../../core/sqlLike.js'
import { createAccessToken, verifyCredentials } from '../../identity/index.js'
import type { Repository } from '../../storage/service.js'
import { authorize, repositoryOf } from '../kit/http.js'
import type { FormatContext } from '../kit/types.js'
import { bulkAudit, quickAudit } from './audit.js'
import { abbreviate, type Manifest, validPackageName } from './metadata.js'
import { NpmRegistry } from './registry.js'

const ABBREVIATED = 'application/vnd.npm.install-v1+json'
/** Packuments smaller than this go uncompressed (as the app-wide compression does). */
const COMPRESS_THRESHOLD = 1024
const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/** The encoding to answer with: gzip when the client takes it (npm does), else br, else none. */
function pickEncoding(header: string | undefined): 'gzip' | 'br' | undefined {
  if (!header) return undefined
  let br = false
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue
    if (name === 'gzip' || name === '*') return 'gzip'
    if (name === 'br') br = true
  }
  return br ? 'br' : undefined
}

/** Splits what follows the repository in the URL into the package name and what comes after it. */
function splitName(segments: string[]): { name: string; rest: string[] } | undefined {
  const [first, second, ...more] = segments
  if (!first) return undefined
  if (first.startsWith('@') && first.includes('/')) return { name: first, rest: [second, ...more].filter((s) => s !== undefined) }
  if (first.startsWith('@')) {
    if (!second) return undefined
    return { name: `${first}/${second}`, rest: more }
  }
  return { name: first, rest: [second, ...more].filter((s) => s !== undefined) }
}

/** The npm registry protocol at /api/npm/<repo>/ (publish, install, dist-tags, deprecate, unpublish, search, login). */
export const npmRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    const registry = new NpmRegistry(fctx)
    const db = fctx.db.kysely
    const publishLimit = Math.min(Math.ceil(fctx.config.repositories.uploadMaxBytes * 1.4) + 1024 * 1024, 512 * 1024 * 1024)

    // npm reads `error` from failures; Trove's usual `errors` array is kept beside it.
    app.setErrorHandler((raw: FastifyError, request, reply) => {
      const error = serverFaultAsHttp(raw, reply)
      if (error !== raw) request.log.error({ err: raw }, error.message)
      const status = error instanceof HttpError ? error.status : error.validation ? 400 : (error.statusCode ?? 500)
      if (status >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'npm request failed')
      const message = status >= 500 && !(error instanceof HttpError) ? 'Internal server error' : error.message
      if (status === 401) reply.header('www-authenticate', 'Bearer realm="Trove", Basic realm="Trove"')
      return reply.code(status).send({ error: message, errors: [{ status, message }] })
    })
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: publishLimit }, (request, body, done) => {
      let data = body as Buffer
      // npm audit sends its bulk request gzipped (when the compression plugin has not inflated it already).
      if (request.headers['content-encoding'] === 'gzip' && data[0] === 0x1f && data[1] === 0x8b) {
        try {
          data = zlib.gunzipSync(data, { maxOutputLength: publishLimit })
        } catch {
          done(new HttpError(400, 'Invalid request: the body is not valid gzip, or expands past the limit'), undefined)
          return
        }
      }
      try {
        done(null, data.length === 0 ? undefined : JSON.parse(data.toString('utf8')))
      } catch {
        done(new HttpError(400, 'Invalid request: the body is not valid JSON'), undefined)
      }
    })

    const repoUrl = (request: FastifyRequest, key: string) => `${fctx.baseUrl(request)}/api/npm/${key}`

    const sendPackument = async (
      request: FastifyRequest,
      reply: FastifyReply,
      repo: Repository,
      name: string,
      version?: string,
    ) => {
      await authorize(fctx, request, 'read', repo.key)
      const entry = registry.cached(repo, name)
      const found = await entry.packument
      if (!found) throw new HttpError(404, `package ${name} not found`)
      const url = repoUrl(request, repo.key)
      if (version !== undefined) {
        const packument = registry.rewriteTarballs(found, url)
        const v = packument['dist-tags']?.[version] ?? version
        const manifest = packument.versions?.[v]
        if (!manifest) throw new HttpError(404, `version ${version} of ${name} not found`)
        return reply.send(manifest)
      }
      const abbreviated = String(request.headers.accept ?? '').includes(ABBREVIATED)
      const variant = `${abbreviated ? 'a' : 'f'}${url}`
      let body = entry.bodies.get(variant) as Buffer | undefined
      if (!body) {
        const packument = registry.rewriteTarballs(found, url)
        body = Buffer.from(JSON.stringify(abbreviated ? abbreviate(packument) : packument))
        entry.bodies.set(variant, body)
      }
      reply.type(abbreviated ? ABBREVIATED : 'application/json')
      if (body.length < COMPRESS_THRESHOLD) return reply.send(body)
      // Compressed once per cached packument and encoding, off the event loop.
      reply.header('vary', 'accept-encoding')
      const encoding = pickEncoding(request.headers['accept-encoding'])
      if (!encoding) return reply.send(body)
      let encoded = entry.bodies.get(`${encoding}${variant}`)
      if (!encoded) {
        encoded = encoding === 'gzip' ? gzip(body) : brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
        entry.bodies.set(`${encoding}${variant}`, encoded)
      }
      return reply.header('content-encoding', encoding).send(await encoded)
    }

    const update = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, name: string, body: Manifest) => {
      // An update without attachments: deprecation messages, dist-tags, and versions left out are unpublished.
      const target = await registry.deployTarget(repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const current = await registry.localPackument(target, name)
      if (!current) throw new HttpError(404, `package ${name} not found`)
      const wanted = (body.versions ?? {}) as Manifest
      const removed = Object.keys(current.versions).filter((v) => !wanted[v])
      if (removed.length > 0) await authorize(fctx, request, 'delete', target.key)
      const pkgId = await registry.packageRowId(name)
      // Every write here is this package's: other nodes drop its packuments alone.
      const db = registry.writesAbout(name)
      for (const v of removed) await fctx.artifacts.deleteVersion(target.key, 'npm', name, v, db)
      for (const [v, m] of Object.entries(wanted) as [string, Manifest][]) {
        if (!current.versions[v]) continue
        const deprecated = typeof m.deprecated === 'string' && m.deprecated !== '' ? m.deprecated : null
        if ((current.versions[v].deprecated ?? null) !== deprecated) {
          await db
            .updateTable('package_versions')
            .set({ deprecated, modified_at: Date.now() })
            .where('package_id', '=', pkgId ?? -1)
            .where('repo_key', '=', target.key)
            .where('version', '=', v)
            .execute()
        }
      }
      if (pkgId !== undefined && body['dist-tags'] && typeof body['dist-tags'] === 'object') {
        const tags = body['dist-tags'] as Record<string, string>
        const left = await registry.localPackument(target, name)
        if (left) {
          await db.deleteFrom('dist_tags').where('package_id', '=', pkgId).where('repo_key', '=', target.key).execute()
          for (const [tag, v] of Object.entries(tags))
            if (left.versions[v]) await registry.setDistTag(pkgId, target.key, tag, v, db)
        }
      }
      registry.invalidate(name)
      request.log.info({ repo: target.key, pkg: name, unpublished: removed, user: principal?.name }, 'npm package updated')
      return reply.code(200).send({ ok: true, id: name })
    }

    const distTags = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, segments: string[]) => {
      const split = splitName(segments)
      if (split?.rest[0] !== 'dist-tags') throw new HttpError(404, 'Not found')
      const { name } = split
      const tag = split.rest[1]
      if (request.method === 'GET') {
        await authorize(fctx, request, 'read', repo.key)
        const p = await registry.packument(repo, name)
        if (!p) throw new HttpError(404, `package ${name} not found`)
        return reply.send(p['dist-tags'] ?? {})
      }
      const target = await registry.deployTarget(repo)
      await authorize(fctx, request, 'deploy', target.key)
      const pkgId = await registry.packageRowId(name)
      const current = pkgId === undefined ? undefined : await registry.localPackument(target, name)
      if (!current || pkgId === undefined) throw new HttpError(404, `package ${name} not found`)
      if (!tag) throw new HttpError(400, 'tag: missing')
      const db = registry.writesAbout(name)
      if (request.method === 'DELETE') {
        if (tag === 'latest') throw new HttpError(400, 'tag: latest cannot be removed')
        await db
          .deleteFrom('dist_tags')
          .where('package_id', '=', pkgId)
          .where('repo_key', '=', target.key)
          .where('tag', '=', tag)
          .execute()
        registry.invalidate(name)
        return reply.send({ ok: true })
      }
      const version = request.body
      if (typeof version !== 'string' || !current.versions[version])
        throw new HttpError(400, `version ${String(version)} of ${name} does not exist`)
      // One transaction: of concurrent moves of `latest`, the package's latest version is the tag's.
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('dist_tags')
          .values({ package_id: pkgId, repo_key: target.key, tag, version })
          .onConflict((oc) => oc.columns(['package_id', 'repo_key', 'tag']).doUpdateSet({ version }))
          .execute()
        if (tag === 'latest') await tx.updateTable('packages').set({ latest_version: version }).where('id', '=', pkgId).execute()
      })
      registry.invalidate(name)
      return reply.code(201).send({ ok: true })
    }

    const search = async (request: FastifyRequest, reply: FastifyReply, repo: Repository) => {
      await authorize(fctx, request, 'read', repo.key)
      const q = request.query as Record<string, string | undefined>
      const text = (q.text ?? '').trim().toLowerCase()
      const size = Math.min(Math.max(Number(q.size) || 20, 1), 250)
      const from = Math.max(Number(q.from) || 0, 0)
      const keys = repo.rclass === 'virtual' ? repo.members : [repo.key]
      const base = db
        .selectFrom('packages as p')
        .where('p.package_type', '=', 'npm')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('package_versions as v')
              .select('v.id')
              .whereRef('v.package_id', '=', 'p.id')
              .where('v.repo_key', 'in', keys.length > 0 ? keys : ['']),
          ),
        )
        .where((eb) =>
          text
            ? eb.or([
                contains('p.lowercase_name', text),
                contains(eb.fn('lower', ['p.description']), text),
                eb.exists(
                  eb
                    .selectFrom('package_tags as t')
                    .select('t.tag')
                    .whereRef('t.package_id', '=', 'p.id')
                    .where('t.tag', '=', text),
                ),
              ])
            : eb.lit(true),
        )
      const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()
      const rows = await base
        .select(['p.id', 'p.name', 'p.description', 'p.latest_version', 'p.modified_at', 'p.downloads'])
        .select((eb) => {
          // Of the latest version (in one of the repositories searched): who published it, when, and its manifest.
          const latest = <C extends 'created_by' | 'created_at' | 'metadata'>(column: C) =>
            eb
              .selectFrom('package_versions as lv')
              .select(`lv.${column}` as `lv.${C}`)
              .whereRef('lv.package_id', '=', 'p.id')
              .whereRef('lv.version', '=', 'p.latest_version')
              .where('lv.repo_key', 'in', keys.length > 0 ? keys : [''])
              .limit(1)
          return [latest('created_by').as('created_by'), latest('created_at').as('created_at'), latest('metadata').as('metadata')]
        })
        .orderBy('p.lowercase_name')
        .limit(size)
        .offset(from)
        .execute()
      const tags = rows.length
        ? await db
            .selectFrom('package_tags')
            .select(['package_id', 'tag'])
            .where(
              'package_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute()
        : []
      // A version proxied from an upstream was published there: its date and people are the upstream's.
      const people = (r: (typeof rows)[number]) => {
        const manifest = (() => {
          try {
            return JSON.parse(r.metadata ?? '{}') as Manifest
          } catch {
            return {} as Manifest
          }
        })()
        const listed = Array.isArray(manifest.maintainers)
          ? (manifest.maintainers as { name?: unknown; email?: unknown }[])
              .filter((m) => m && typeof m.name === 'string')
              .map((m) => ({ username: m.name as string, email: typeof m.email === 'string' ? m.email : '' }))
          : []
        const npmUser = manifest._npmUser as { name?: unknown; email?: unknown } | undefined
        const publisher = r.created_by ?? (typeof npmUser?.name === 'string' ? npmUser.name : listed[0]?.username) ?? ''
        return {
          publisher: {
            username: publisher,
            ...(typeof npmUser?.email === 'string' && !r.created_by ? { email: npmUser.email } : {}),
          },
          maintainers: r.created_by ? [{ username: r.created_by, email: '' }] : listed,
        }
      }
      return reply.send({
        objects: rows.map((r) => ({
          package: {
            name: r.name,
            scope: r.name.startsWith('@') ? r.name.slice(1).split('/')[0] : 'unscoped',
            version: r.latest_version,
            description: r.description,
            keywords: tags.filter((t) => t.package_id === r.id).map((t) => t.tag),
            date: new Date(Number(r.created_at ?? r.modified_at)).toISOString(),
            links: { npm: `${repoUrl(request, repo.key)}/${r.name}` },
            ...people(r),
          },
          downloads: { monthly: Number(r.downloads), weekly: Number(r.downloads) },
          score: { final: 1, detail: { quality: 1, popularity: 1, maintenance: 1 } },
          searchScore: r.name.toLowerCase() === text ? 100 : 1,
        })),
        total: Number(total?.n ?? 0),
        time: new Date().toUTCString(),
      })
    }

    const login = async (request: FastifyRequest, reply: FastifyReply, userSegment: string) => {
      const body = (request.body ?? {}) as Manifest
      const name = userSegment.replace(/^org\.couchdb\.user:/, '')
      if (typeof body.password !== 'string' || !body.password) throw new HttpError(400, 'password: missing')
      if (typeof body.name === 'string' && body.name !== name) throw new HttpError(400, 'name: does not match the URL')
      let user: Awaited<ReturnType<typeof verifyCredentials>>
      try {
        user = await verifyCredentials(db, { user: name, password: body.password, ip: request.ip })
      } catch (error) {
        if (error instanceof HttpError && error.status < 500) throw new HttpError(401, error.message)
        throw error
      }
      const principal = {
        userId: user.id,
        name: user.name,
        admin: Boolean(user.admin),
        realm: user.realm,
        via: 'password' as const,
      }
      const created = await createAccessToken(db, principal, {
        name: user.name,
        expiresIn: 365 * 24 * 60 * 60,
        description: 'npm login',
      })
      return reply.code(201).send({ ok: true, id: `org.couchdb.user:${user.name}`, token: created.access_token })
    }

    app.route({
      method: ['GET', 'HEAD', 'PUT', 'DELETE', 'POST'],
      url: '/api/npm/:repo/*',
      config: { access: 'public' },
      schema: { hide: true },
      bodyLimit: publishLimit,
      // Tarballs are gzip already; packuments are compressed once per cached copy (sendPackument).
      compress: false,
      handler: async (request, reply) => {
        const { repo: key } = request.params as { repo: string }
        const pathPart = (request.url.split('?')[0] ?? '').slice(`/api/npm/${encodeURIComponent(key)}/`.length)
        const segments = pathPart
          .split('/')
          .filter((s) => s !== '')
          .map((s) => decodeURIComponent(s))
        const repo = await repositoryOf(fctx, key, 'npm')
        const method = request.method
        if (segments[0] === '-') {
          const [, what, ...more] = segments
          if (what === 'ping') return reply.send({})
          if (what === 'whoami') {
            const principal = await fctx.principal(request)
            if (!principal) throw new HttpError(401, 'Authentication is required')
            return reply.send({ username: principal.name })
          }
          if (what === 'user' && method === 'PUT' && more[0]) return login(request, reply, more[0])
          if (what === 'v1' && more[0] === 'search' && method === 'GET') return search(request, reply, repo)
          if (what === 'package' && more.length >= 2) return distTags(request, reply, repo, more)
          if (what === 'npm' && method === 'POST' && more[0] === 'v1' && more[1] === 'security') {
            await authorize(fctx, request, 'read', repo.key)
            const route = more.slice(2).join('/')
            if (route === 'advisories/bulk' || route === 'audits/quick' || route === 'audits') {
              // npm prints a registry's npm-notice: a clean audit from an empty or stale database says so.
              const notice = await fctx.advisories.notice()
              if (notice) reply.header('npm-notice', notice)
            }
            if (route === 'advisories/bulk') return reply.send(await bulkAudit(fctx, request, request.body))
            if (route === 'audits/quick' || route === 'audits') return reply.send(await quickAudit(fctx, request, request.body))
          }
          throw new HttpError(404, `Not found: ${method} ${request.url.split('?')[0]}`)
        }
        const split = splitName(segments)
        if (!split || !validPackageName(split.name)) throw new HttpError(404, `Not found: ${method} ${request.url.split('?')[0]}`)
        const { name, rest } = split
        if (method === 'GET' || method === 'HEAD') {
          if (rest.length === 0) return sendPackument(request, reply, repo, name)
          if (rest.length === 2 && rest[0] === '-' && rest[1]) {
            await authorize(fctx, request, 'read', repo.key)
            const file = await registry.tarball(repo, name, rest[1])
            if (!file) throw new HttpError(404, `tarball ${rest[1]} of ${name} not found`)
            if ('body' in file) return fctx.artifacts.sendFetched(request, reply, file)
            return fctx.artifacts.sendFile(request, reply, file)
          }
          if (rest.length === 1 && rest[0]) return sendPackument(request, reply, repo, name, rest[0])
        }
        if (method === 'PUT' && (rest.length === 0 || (rest.length === 2 && rest[0] === '-rev'))) {
          const body = request.body as Manifest | undefined
          if (!body || typeof body !== 'object') throw new HttpError(400, 'Invalid request: a JSON body is required')
          if (body._attachments && Object.keys(body._attachments).length > 0) {
            const target = await registry.deployTarget(repo)
            const principal = await authorize(fctx, request, 'deploy', target.key)
            await registry.publish(target, name, body, principal?.name ?? null)
            request.log.info({ repo: target.key, pkg: name, user: principal?.name }, 'npm package published')
            return reply.code(201).send({ ok: true, id: name, success: true })
          }
          return update(request, reply, repo, name, body)
        }
        if (method === 'DELETE') {
          const target = await registry.deployTarget(repo)
          await authorize(fctx, request, 'delete', target.key)
          if (rest[0] === '-rev' || rest.length === 0) {
            // The whole package.
            const current = await registry.localPackument(target, name)
            if (!current) throw new HttpError(404, `package ${name} not found`)
            const db = registry.writesAbout(name)
            for (const v of Object.keys(current.versions)) await fctx.artifacts.deleteVersion(target.key, 'npm', name, v, db)
            registry.invalidate(name)
            request.log.info({ repo: target.key, pkg: name }, 'npm package unpublished')
            return reply.send({ ok: true })
          }
          if (rest[0] === '-' && rest[1]) {
            // A tarball whose version the preceding update already removed, or a stray one.
            await fctx.artifacts.deleteFile(target.key, `${name}/-/${rest[1]}`, registry.writesAbout(name))
            return reply.send({ ok: true })
          }
        }
        throw new HttpError(404, `Not found: ${method} ${request.url.split('?')[0]}`)
      },
    })
  }
