import { type Readable, Transform } from 'node:stream'
import Busboy from 'busboy'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/errors.js'
import { TOKEN_PATTERN } from '../../identity/index.js'
import type { Repository } from '../../storage/service.js'
import { deployTarget, sendListingOr404 } from '../kit/files.js'
import { authorize, challenge, rawBodies, repositoryOf } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { compareParsed, compareVersions, parseVersion } from './nupkg.js'
import { type NuGetEntry, NuGetRepository, TYPE } from './repository.js'
import { ATOM_TYPE, ENTRY_TYPE, entryDocument, feed, latestFlags, metadataDocument, serviceDocument, XML_TYPE } from './v2.js'
import { isPrerelease, registrationIndex, registrationLeaf, searchResults, serviceIndex, versionList } from './v3.js'

const PREFIXES = ['/api/nuget', '/artifactory/api/nuget']

/**
 * Mends the end of a multipart body as NuGet 2.x on mono sends it: its closing delimiter follows a
 * bare LF instead of CRLF, so a strict parser never finds it. The last bytes are held back until
 * the body ends, and a CR is put before that LF.
 */
export function mendClosingDelimiter(boundary: string): Transform {
  const closing = Buffer.from(`\n--${boundary}--`)
  const keep = closing.length + 4
  let tail = Buffer.alloc(0)
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const all = Buffer.concat([tail, chunk])
      tail = all.subarray(Math.max(0, all.length - keep))
      done(null, all.subarray(0, all.length - tail.length))
    },
    flush(done) {
      const at = tail.lastIndexOf(closing)
      if (at >= 0 && !(at > 0 && tail[at - 1] === 0x0d)) {
        tail = Buffer.concat([tail.subarray(0, at), Buffer.from('\r'), tail.subarray(at)])
      }
      done(null, tail)
    },
  })
}

/** The .nupkg of a push: a multipart form's file (`package`, as nuget and dotnet send it), or the body itself. */
function packageBody(request: FastifyRequest): Promise<Readable> {
  const body = request.body as Readable
  const type = request.headers['content-type'] ?? ''
  if (!type.startsWith('multipart/form-data')) return Promise.resolve(body)
  return new Promise((resolve, reject) => {
    let found = false
    const bb = Busboy({ headers: request.headers, limits: { files: 2, fields: 20 } })
    bb.on('file', (_name, stream) => {
      if (!found) {
        found = true
        resolve(stream as Readable)
      } else stream.resume()
    })
    bb.on('error', () => reject(new HttpError(400, 'package: the form could not be read')))
    bb.on('close', () => {
      if (!found) reject(new HttpError(400, 'package: the form has no package file'))
    })
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type)
    const mended = boundary ? body.pipe(mendClosingDelimiter((boundary[1] ?? boundary[2]) as string)) : body
    body.on('error', (error) => mended.destroy(error))
    mended.pipe(bb)
  })
}

/** An OData string literal (`'Acme.Lib'`, quotes doubled inside) as its value. */
const literal = (value: unknown) => {
  if (typeof value !== 'string') return ''
  const m = /^'(.*)'$/s.exec(value.trim())
  return m ? (m[1] as string).replaceAll("''", "'") : value.trim()
}

/** The few `$filter` forms NuGet 2.x clients send: `IsLatestVersion`, `IsAbsoluteLatestVersion`, `tolower(Id) eq '…'`. */
function applyFilter(entries: NuGetEntry[], filter: string): NuGetEntry[] {
  const flags = latestFlags(entries)
  let kept = entries
  if (/\bIsAbsoluteLatestVersion\b/.test(filter)) kept = kept.filter((e) => flags.get(e)?.absolute)
  else if (/\bIsLatestVersion\b/.test(filter)) kept = kept.filter((e) => flags.get(e)?.release)
  const id = /(?:tolower\(Id\)|\bId)\s+eq\s+'((?:[^']|'')*)'/i.exec(filter)
  if (id) kept = kept.filter((e) => e.nuspec.id.toLowerCase() === (id[1] as string).replaceAll("''", "'").toLowerCase())
  if (/IsPrerelease\s+eq\s+false/i.test(filter)) kept = kept.filter((e) => !isPrerelease(e.nuspec.version))
  return kept
}

/**
 * NuGet repositories: the v3 protocol at /api/nuget/v3/<repo>/ (service index `index.json`, the
 * flat container, registrations, search, push and delete) and the v2 OData feed at
 * /api/nuget/<repo>/ that NuGet 2.x clients read (Debian's mono `nuget`), both also under
 * /artifactory/api/nuget/. Pushes carry the credentials in `X-NuGet-ApiKey` (a Trove token, or
 * `user:password`), or as Basic credentials.
 */
const nugetRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const nuget = new NuGetRepository(fctx)

    // The API key nuget sends on push and delete (and only there): a Trove token, or user:password.
    app.addHook('onRequest', (request, _reply, done) => {
      const key = request.headers['x-nuget-apikey']
      if (typeof key === 'string' && key.trim() && !request.headers.authorization) {
        const value = key.trim()
        if (TOKEN_PATTERN.test(value)) request.headers.authorization = `Bearer ${value}`
        else if (value.includes(':')) request.headers.authorization = `Basic ${Buffer.from(value).toString('base64')}`
      }
      done()
    })
    app.setErrorHandler((error, _request, reply) => {
      challenge(reply, error, 'Trove NuGet')
      throw error
    })

    const readable = async (request: FastifyRequest) => {
      const { repo: key } = request.params as { repo: string }
      const repo = await repositoryOf(fctx, key, TYPE)
      await authorize(fctx, request, 'read', repo.key)
      return repo
    }
    const push = async (request: FastifyRequest, reply: FastifyReply) => {
      const { repo: key } = request.params as { repo: string }
      const target = await deployTarget(fctx, await repositoryOf(fctx, key, TYPE))
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const nuspec = await nuget.push(target, await packageBody(request), principal?.name ?? null)
      request.log.info(
        { repo: target.key, package: nuspec.id, version: nuspec.version, user: principal?.name },
        'nuget package pushed',
      )
      return reply.code(201).send({ saved: true, id: nuspec.id, version: nuspec.version })
    }
    const remove = async (request: FastifyRequest, reply: FastifyReply, id: string, version: string) => {
      const { repo: key } = request.params as { repo: string }
      const target = await deployTarget(fctx, await repositoryOf(fctx, key, TYPE))
      await authorize(fctx, request, 'delete', target.key)
      await nuget.delete(target, id, version)
      return reply.code(204).send()
    }
    const sendNupkg = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, id: string, version: string) => {
      const file = await nuget.nupkg(repo, id, version)
      if (!file) throw new HttpError(404, `Package ${id} ${version} is not in ${repo.key}`)
      return fctx.artifacts.sendFile(request, reply, file)
    }
    const route = { config: { access: 'public' as const }, schema: { hide: true } }

    for (const prefix of PREFIXES) {
      // ---- v3 ----
      const v3Base = (request: FastifyRequest, repo: Repository) => `${fctx.baseUrl(request)}${prefix}/v3/${repo.key}`

      app.get(`${prefix}/v3/:repo/index.json`, route, async (request, reply) => {
        const repo = await readable(request)
        return reply.send(serviceIndex(v3Base(request, repo)))
      })
      app.get(`${prefix}/v3/:repo/flatcontainer/:id/index.json`, route, async (request, reply) => {
        const { id } = request.params as { id: string }
        const repo = await readable(request)
        const entries = await nuget.entries(repo, id)
        if (entries.length === 0) throw new HttpError(404, `Package ${id} is not in ${repo.key}`)
        return reply.send(versionList(entries))
      })
      app.get(`${prefix}/v3/:repo/flatcontainer/:id/:version/:file`, route, async (request, reply) => {
        const { id, version, file } = request.params as { id: string; version: string; file: string }
        const repo = await readable(request)
        const lower = `${id}.${version}`.toLowerCase()
        if (file.toLowerCase() === `${lower}.nupkg`) return sendNupkg(request, reply, repo, id, version)
        if (file.toLowerCase() === `${id.toLowerCase()}.nuspec`) {
          const found = await nuget.nuspec(repo, id, version)
          if (found) return fctx.artifacts.sendFile(request, reply, found, { count: false })
        }
        throw new HttpError(404, `${file} is not in ${repo.key}`)
      })
      app.get(`${prefix}/v3/:repo/registration/:id/:leaf`, route, async (request, reply) => {
        const { id, leaf } = request.params as { id: string; leaf: string }
        const repo = await readable(request)
        const entries = await nuget.entries(repo, id)
        if (entries.length === 0) throw new HttpError(404, `Package ${id} is not in ${repo.key}`)
        const base = v3Base(request, repo)
        if (leaf === 'index.json') return reply.send(registrationIndex(base, id, entries))
        const version = leaf.replace(/\.json$/, '').toLowerCase()
        const entry = entries.find((e) => e.nuspec.version.toLowerCase() === version)
        if (!entry || !leaf.endsWith('.json')) throw new HttpError(404, `Package ${id} ${version} is not in ${repo.key}`)
        return reply.send(registrationLeaf(base, entry))
      })
      app.get(`${prefix}/v3/:repo/query`, route, async (request, reply) => {
        const query = request.query as Record<string, string | undefined>
        const repo = await readable(request)
        const skip = Math.max(0, Number.parseInt(query.skip ?? '0', 10) || 0)
        const take = Math.min(1000, Math.max(0, Number.parseInt(query.take ?? '20', 10) || 20))
        const found = await nuget.search(repo, { q: query.q ?? '', prerelease: query.prerelease === 'true' })
        const all = [...found.values()].sort((a, b) =>
          (a[0] as NuGetEntry).nuspec.id.localeCompare((b[0] as NuGetEntry).nuspec.id),
        )
        return reply.send(searchResults(v3Base(request, repo), all.slice(skip, skip + take), all.length))
      })
      app.put(`${prefix}/v3/:repo/package`, route, push)
      app.delete(`${prefix}/v3/:repo/package/:id/:version`, route, async (request, reply) => {
        const { id, version } = request.params as { id: string; version: string }
        return remove(request, reply, id, version)
      })

      // ---- v2 (OData) ----
      const v2Base = (request: FastifyRequest, repo: Repository) => `${fctx.baseUrl(request)}${prefix}/${repo.key}`
      const v2 = async (request: FastifyRequest, reply: FastifyReply) => {
        const { '*': rest = '' } = request.params as { '*'?: string }
        const query = request.query as Record<string, string | undefined>
        const repo = await readable(request)
        const base = v2Base(request, repo)
        const path = rest.replace(/\/+$/, '')
        if (path === '') return reply.type(XML_TYPE).send(serviceDocument(base))
        if (path === '$metadata') return reply.type(XML_TYPE).send(metadataDocument())
        const download = /^package\/([^/]+)\/([^/]+)$/.exec(path)
        if (download) return sendNupkg(request, reply, repo, download[1] as string, download[2] as string)
        const one = /^Packages\(Id='((?:[^']|'')*)',Version='((?:[^']|'')*)'\)$/.exec(path)
        if (one) {
          const id = (one[1] as string).replaceAll("''", "'")
          const version = parseVersion((one[2] as string).replaceAll("''", "'"))?.normalized.toLowerCase()
          const all = await nuget.entries(repo, id)
          const entry = all.find((e) => e.nuspec.version.toLowerCase() === version)
          if (!entry) throw new HttpError(404, `Package ${id} ${one[2]} is not in ${repo.key}`)
          const flags = latestFlags(all).get(entry) ?? { release: false, absolute: false }
          return reply.type(ENTRY_TYPE).send(entryDocument(base, entry, flags))
        }
        const collection = /^(Packages|FindPackagesById|Search|GetUpdates)(?:\(\))?(\/\$count)?$/.exec(path)
        if (!collection) throw new HttpError(404, `${path} is not a resource of the NuGet feed`)
        const [, name, count] = collection
        let entries: NuGetEntry[]
        if (name === 'FindPackagesById') entries = await nuget.entries(repo, literal(query.id))
        else if (name === 'Search') {
          const prerelease = query.includePrerelease === 'true'
          const found = await nuget.search(repo, { q: literal(query.searchTerm), prerelease })
          entries = [...found.values()].flat()
        } else if (name === 'GetUpdates') entries = []
        else entries = await nuget.entries(repo)
        const flags = latestFlags(entries)
        if (query.$filter) entries = applyFilter(entries, query.$filter)
        entries.sort(
          (a, b) =>
            a.nuspec.id.toLowerCase().localeCompare(b.nuspec.id.toLowerCase()) ||
            compareVersions(a.nuspec.version, b.nuspec.version),
        )
        const total = entries.length
        if (count) return reply.type('text/plain; charset=utf-8').send(String(total))
        const skip = Math.max(0, Number.parseInt(query.$skip ?? '0', 10) || 0)
        const top = query.$top === undefined ? undefined : Math.max(0, Number.parseInt(query.$top, 10) || 0)
        const page = entries.slice(skip, top === undefined ? undefined : skip + top)
        const withCount = query.$inlinecount === 'allpages' ? { count: total } : {}
        return reply.type(ATOM_TYPE).send(feed(base, name ?? 'Packages', page, flags, withCount))
      }
      app.get(`${prefix}/:repo`, route, v2)
      app.get(`${prefix}/:repo/*`, route, v2)
      for (const url of [`${prefix}/:repo`, `${prefix}/:repo/`, `${prefix}/:repo/api/v2/package`, `${prefix}/:repo/package`]) {
        app.put(url, route, push)
      }
      app.delete(`${prefix}/:repo/*`, route, async (request, reply) => {
        const { '*': rest } = request.params as { '*': string }
        const m = /^(?:api\/v2\/package\/|package\/)?([^/]+)\/([^/]+)\/?$/.exec(rest)
        if (!m) throw new HttpError(404, `${rest} is not a package version: DELETE <id>/<version>`)
        return remove(request, reply, m[1] as string, m[2] as string)
      })
    }
  }

/** `/artifactory/<repo>/<path>`: the stored .nupkg and .nuspec files by path (read only; pushes are nuget's). */
const nugetPaths = (fctx: FormatContext): PathHandler => {
  return async (request, reply, repo, path) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(
        405,
        `${request.method} is not supported here: push with nuget push -Source <url>/api/nuget/${repo.key}`,
      )
    }
    await authorize(fctx, request, 'read', repo.key)
    const file = path ? await fctx.artifacts.findFile(repo.key, path) : undefined
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file)
  }
}

export const nugetFormat: Format = {
  ecosystem: 'NuGet',
  type: TYPE,
  routes: nugetRoutes,
  paths: nugetPaths,
  filesChanged: (fctx) => {
    const nuget = new NuGetRepository(fctx)
    return (repo, paths) => nuget.filesChanged(repo, paths)
  },
  // NuGet's order: 1 to 4 numbers, SemVer 2 labels compared without case.
  versions: { parse: parseVersion, compare: compareParsed, normalize: (v) => parseVersion(v)?.normalized },
}
