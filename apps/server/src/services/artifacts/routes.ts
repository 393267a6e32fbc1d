import {
  ARTIFACT_SEARCH_LIMIT,
  type ArtifactSearchResponse,
  CopyMoveRequest,
  CopyMoveResponse,
  DeleteNodeResponse,
  DeletePropertyQuery,
  NodeInfo,
  NodeProperties,
  NodeRef,
  PropertyChangeResponse,
  RESULT_DETAIL_HEADER,
  SetPropertyRequest,
  TreeQuery,
  TreeResponse,
} from '@trove/contracts/artifacts'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { canonicalPath } from '../../core/artifactPath.js'
import { badRequest, notFound } from '../../core/errors.js'
import { deployFile, deployTarget, type FormatContext, fileInfo, matrixParams, rawBodies } from '../../formats/index.js'
import type { FileRow } from '../../storage/artifacts.js'
import { childKeys, filesUnder, folderPrefix } from '../../storage/tree.js'
import type { ArtifactTreeService } from '../../storage/treeService.js'

const tags = ['artifacts']

/** A path from a URL's wildcard: decoded, then checked like every repository path (400 otherwise). */
export function pathOf(raw: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    throw badRequest('path: not a valid URL-encoded path')
  }
  return canonicalPath(decoded)
}

/** The console's calls of the tree browser, under /ui/api/v1/ui/artifacts. */
export const artifactConsoleRoutes =
  (fctx: FormatContext, tree: ArtifactTreeService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/tree',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "A folder's children, a page at a time (the repositories without repoKey)",
          querystring: TreeQuery,
          response: { 200: TreeResponse },
        },
      },
      async (request) => tree.children(await fctx.principal(request), request.query),
    )
    app.get(
      '/info',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'The General tab of a repository, folder or file',
          querystring: NodeRef,
          response: { 200: NodeInfo },
        },
      },
      async (request) =>
        tree.info(await fctx.principal(request), request.query.repoKey, request.query.path, fctx.baseUrl(request)),
    )
    app.get(
      '/properties',
      {
        config: { access: 'public' },
        schema: { tags, summary: "A file's properties", querystring: NodeRef, response: { 200: NodeProperties } },
      },
      async (request) => tree.properties(await fctx.principal(request), request.query.repoKey, request.query.path),
    )
    app.put(
      '/properties',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Sets one property on a file, or on every file under a folder (recursive)',
          body: SetPropertyRequest,
          response: { 200: PropertyChangeResponse },
        },
      },
      async (request) => ({
        files: await tree.changeProperty(await fctx.principal(request), { ...request.body, values: request.body.values }),
      }),
    )
    app.delete(
      '/properties',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Deletes one property from a file, or from every file under a folder (recursive)',
          querystring: DeletePropertyQuery,
          response: { 200: PropertyChangeResponse },
        },
      },
      async (request) => ({
        files: await tree.changeProperty(await fctx.principal(request), { ...request.query, values: null }),
      }),
    )
    app.delete(
      '/node',
      {
        config: { access: 'user' },
        schema: {
          tags,
          summary: 'Deletes a file, or a folder with everything under it',
          querystring: NodeRef,
          response: { 200: DeleteNodeResponse },
        },
      },
      async (request) => tree.delete(await fctx.principal(request), request.query.repoKey, request.query.path),
    )
    for (const op of ['copy', 'move'] as const) {
      app.post(
        `/${op}`,
        {
          config: { access: 'user' },
          schema: {
            tags,
            summary: `${op === 'copy' ? 'Copies' : 'Moves'} a file or folder into a local repository (dryRun: only lists what would happen)`,
            body: CopyMoveRequest,
            response: { 200: CopyMoveResponse },
          },
        },
        async (request) => tree.copyOrMove(await fctx.principal(request), op, request.body),
      )
    }
    // Deploy from the browser: the body is the file, streamed to the blob store.
    await app.register(async (upload) => {
      rawBodies(upload)
      upload.put(
        '/deploy/:repoKey/*',
        {
          config: { access: 'user' },
          bodyLimit: fctx.config.repositories.uploadMaxBytes,
          schema: { tags, summary: 'Deploys the request body as a file (query: properties=name=v1,v2;other=v)', hide: true },
        },
        async (request, reply) => {
          const { repoKey, '*': rest } = request.params as { repoKey: string; '*': string }
          const path = pathOf(rest)
          if (!path) throw badRequest('path: a file path is required')
          const repo = await tree.repo(await fctx.principal(request), repoKey)
          const target = await deployTarget(fctx, repo)
          const query = request.query as Record<string, string | undefined>
          const { properties } = matrixParams(`x;${query.properties ?? ''}`)
          const file = await deployFile(fctx, request, target, path, properties)
          return reply.code(201).send(await fileInfo(fctx, fctx.baseUrl(request), target.key, file))
        },
      )
    })
  }

/** Reads a comma-separated repository list (`repos=a,b`). */
const reposOf = (q: Record<string, string | undefined>) =>
  q.repos
    ? q.repos
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean)
    : undefined

const SEARCH_LIMIT = ARTIFACT_SEARCH_LIMIT

/** The REST calls tools know, under /api and /artifactory/api: storage, copy/move, search. */
export const artifactRestRoutes =
  (fctx: FormatContext, tree: ArtifactTreeService): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const parse = (request: FastifyRequest) => {
      const { repo, '*': rest } = request.params as { repo: string; '*': string }
      return { key: repo, path: pathOf(rest ?? ''), query: request.query as Record<string, string | undefined> }
    }
    const base = (request: FastifyRequest) => fctx.baseUrl(request)
    const storageUri = (request: FastifyRequest, key: string, path: string) =>
      `${base(request)}/api/storage/${key}${path ? `/${path}` : ''}`
    // `X-Result-Detail: info` asks for each file's details beside its URI, as Artifactory answers.
    const searchResults = (request: FastifyRequest, rows: FileRow[]): ArtifactSearchResponse => {
      const detail = String(request.headers[RESULT_DETAIL_HEADER] ?? '').toLowerCase()
      const info = detail.split(',').some((d) => d.trim() === 'info')
      return {
        results: rows.map((f) => {
          const uri = storageUri(request, f.repo_key, f.path)
          if (!info) return { uri }
          return {
            uri,
            repo: f.repo_key,
            path: `/${f.path}`,
            name: f.name,
            size: Number(f.size),
            created: new Date(Number(f.created_at)).toISOString(),
            lastModified: new Date(Number(f.modified_at)).toISOString(),
            createdBy: f.created_by,
            mimeType: f.mime_type,
            downloadUri: `${base(request)}/artifactory/${f.repo_key}/${f.path}`,
          }
        }),
      }
    }

    app.get('/storage/:repo', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) =>
      storageGet(request, reply),
    )
    app.get('/storage/:repo/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) =>
      storageGet(request, reply),
    )

    async function storageGet(request: FastifyRequest, reply: FastifyReply) {
      const { key, path, query } = parse(request)
      const principal = await fctx.principal(request)
      const target = await tree.resolve(principal, key, path)
      if (query.properties !== undefined) {
        if (target.kind === 'folder') throw notFound(`No properties on ${path || key}`)
        const all = await fctx.artifacts.properties(target.file.id)
        const names = query.properties ? query.properties.split(',') : Object.keys(all)
        const selected = Object.fromEntries(names.filter((n) => all[n]).map((n) => [n, all[n]]))
        if (Object.keys(selected).length === 0) throw notFound(`No properties on ${path}`)
        return reply.send({ properties: selected, uri: storageUri(request, key, path) })
      }
      if (target.kind === 'file') {
        if (query.list !== undefined) throw badRequest(`${path} is a file: list a folder`)
        return reply.send(await fileInfo(fctx, base(request), target.repo.key, target.file))
      }
      if (query.list !== undefined) return streamList(request, reply, target.repo.key, key, path, query)
      // A folder's info with its direct children, read a page at a time.
      const children: { uri: string; folder: boolean }[] = []
      let after: string | undefined
      for (;;) {
        const page = await childKeys(fctx.db, target.repo.key, path, { after, limit: 1000 })
        for (const c of page) children.push({ uri: `/${c.name}`, folder: c.folder })
        if (page.length < 1000) break
        after = page[page.length - 1]?.key
      }
      return reply.send({ repo: key, path: `/${path}`, children, uri: storageUri(request, key, path) })
    }

    /**
     * `?list[&deep=1][&depth=N][&listFolders=1]`: every file under a folder, streamed as it is read,
     * so memory stays flat however large the folder.
     */
    async function streamList(
      request: FastifyRequest,
      reply: FastifyReply,
      sourceKey: string,
      key: string,
      path: string,
      query: Record<string, string | undefined>,
    ) {
      const deep = query.deep === '1' || query.deep === 'true'
      const depth = deep ? (query.depth ? Math.max(1, Number(query.depth) || 1) : Number.POSITIVE_INFINITY) : 1
      const listFolders = query.listFolders === '1' || query.listFolders === 'true'
      const prefix = folderPrefix(path)
      const uri = storageUri(request, key, path)
      const db = fctx.db.kysely
      async function* body() {
        yield `{"uri":${JSON.stringify(uri)},"created":${JSON.stringify(new Date().toISOString())},"files":[`
        let first = true
        const folders = new Set<string>()
        const entry = (e: object) => {
          const out = (first ? '' : ',') + JSON.stringify(e)
          first = false
          return out
        }
        for await (const page of filesUnder(db, sourceKey, path, 1000)) {
          let chunk = ''
          for (const f of page) {
            const rest = f.path.slice(prefix.length)
            const segments = rest.split('/')
            if (listFolders) {
              for (let i = 1; i < segments.length && i <= depth; i++) {
                const folder = segments.slice(0, i).join('/')
                if (folders.has(folder)) continue
                folders.add(folder)
                chunk += entry({
                  uri: `/${folder}`,
                  size: -1,
                  lastModified: new Date(Number(f.modified_at)).toISOString(),
                  folder: true,
                })
              }
            }
            if (segments.length > depth) continue
            chunk += entry({
              uri: `/${rest}`,
              size: Number(f.size),
              lastModified: new Date(Number(f.modified_at)).toISOString(),
              folder: false,
              sha1: f.sha1 || undefined,
              sha2: f.sha256,
            })
          }
          if (chunk) yield chunk
        }
        yield ']}'
      }
      const { Readable } = await import('node:stream')
      return reply.type('application/json; charset=utf-8').send(Readable.from(body()))
    }

    for (const method of ['put', 'delete'] as const) {
      app[method]('/storage/:repo/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const { key, path, query } = parse(request)
        if (!query.properties) {
          throw badRequest(
            method === 'put' ? 'properties: required, as name=value;name=v1,v2' : 'properties: required, as name1,name2',
          )
        }
        const principal = await fctx.principal(request)
        const recursive = query.recursive !== '0' && query.recursive !== 'false'
        if (method === 'put') {
          const { properties } = matrixParams(`x;${query.properties}`)
          for (const [name, values] of Object.entries(properties)) {
            await tree.changeProperty(principal, { repoKey: key, path, name, values, recursive })
          }
        } else {
          for (const name of query.properties.split(',').filter(Boolean)) {
            await tree.changeProperty(principal, { repoKey: key, path, name, values: null, recursive })
          }
        }
        return reply.code(204).send()
      })
    }

    for (const op of ['copy', 'move'] as const) {
      app.post(`/${op}/:repo/*`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const { key, path, query } = parse(request)
        if (!query.to) throw badRequest('to: required, as /<repository>/<path>')
        const [targetRepoKey = '', ...rest] = query.to.replace(/^\/+/, '').split('/')
        if (!targetRepoKey) throw badRequest('to: required, as /<repository>/<path>')
        const dryRun = query.dry === '1' || query.dry === 'true'
        const result = await tree.copyOrMove(await fctx.principal(request), op, {
          repoKey: key,
          path,
          targetRepoKey,
          targetPath: pathOf(rest.join('/')),
          dryRun,
        })
        const verb = op === 'copy' ? 'copying' : 'moving'
        return reply.send({
          messages: [
            ...result.messages.map((message) => ({ level: 'WARNING', message })),
            ...result.conflicts.map((p) => ({ level: 'WARNING', message: `${targetRepoKey}/${p} exists` })),
            {
              level: 'INFO',
              message: `${dryRun ? 'Dry run for ' : ''}${verb} ${key}/${path} to ${query.to} ${dryRun ? 'would complete' : 'completed'}: ${result.files} file(s)`,
            },
          ],
        })
      })
    }

    app.get('/search/artifact', { config: { access: 'public' }, schema: { hide: true } }, async (request) => {
      const q = request.query as Record<string, string | undefined>
      if (!q.name) throw badRequest('name: required')
      const rows = await tree.searchByName(await fctx.principal(request), q.name, reposOf(q), SEARCH_LIMIT)
      return searchResults(request, rows)
    })
    app.get('/search/checksum', { config: { access: 'public' }, schema: { hide: true } }, async (request) => {
      const q = request.query as Record<string, string | undefined>
      const sums = { sha256: q.sha256, sha1: q.sha1, md5: q.md5 }
      const checks = { sha256: /^[0-9a-f]{64}$/i, sha1: /^[0-9a-f]{40}$/i, md5: /^[0-9a-f]{32}$/i }
      if (!sums.sha256 && !sums.sha1 && !sums.md5) throw badRequest('give sha256, sha1 or md5')
      for (const [name, value] of Object.entries(sums)) {
        if (value && !checks[name as keyof typeof checks].test(value)) throw badRequest(`${name}: not a ${name} checksum`)
      }
      const rows = await tree.searchByChecksum(await fctx.principal(request), sums, reposOf(q), SEARCH_LIMIT)
      return searchResults(request, rows)
    })
    app.get('/search/prop', { config: { access: 'public' }, schema: { hide: true } }, async (request) => {
      const q = request.query as Record<string, string | undefined>
      const props: Record<string, string[]> = {}
      for (const [name, value] of Object.entries(q)) {
        if (name === 'repos' || value === undefined) continue
        props[name] = value.split(',')
      }
      if (Object.keys(props).length === 0) throw badRequest('give at least one property as name=value')
      const rows = await tree.searchByProperties(await fctx.principal(request), props, reposOf(q), SEARCH_LIMIT)
      return searchResults(request, rows)
    })
  }

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)

/** `/artifactory/list/<repo>/<folder>/`: a plain HTML listing any browser or `wget -r` can follow. */
export const nativeListingRoutes =
  (fctx: FormatContext, tree: ArtifactTreeService): FastifyPluginAsync =>
  async (app) => {
    const page = (title: string, rows: string[]) =>
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Index of ${escapeHtml(title)}</title></head><body>\n<h1>Index of ${escapeHtml(title)}</h1>\n<pre>${rows.join('\n')}</pre>\n<hr/></body></html>\n`
    app.get('/artifactory/list/', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const rows: string[] = []
      let after: string | undefined
      for (;;) {
        const res = await tree.children(await fctx.principal(request), { path: '', after, limit: 1000 })
        for (const n of res.nodes) rows.push(`<a href="${encodeURIComponent(n.repoKey)}/">${escapeHtml(n.repoKey)}/</a>`)
        if (!res.next) break
        after = res.next
      }
      return reply.type('text/html; charset=utf-8').send(page('/', rows))
    })
    app.get('/artifactory/list/:repo/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const { repo, '*': rest } = request.params as { repo: string; '*': string }
      const path = pathOf(rest ?? '')
      const principal = await fctx.principal(request)
      const target = await tree.resolve(principal, repo, path)
      if (target.kind === 'file') {
        // A file's listing URL: the file itself, from the repository path.
        return reply.redirect(`/artifactory/${encodeURIComponent(repo)}/${path.split('/').map(encodeURIComponent).join('/')}`)
      }
      if (rest && !rest.endsWith('/')) return reply.redirect(`${request.url.split('?')[0]}/`)
      const rows: string[] = path ? ['<a href="../">../</a>'] : []
      let after: string | undefined
      for (;;) {
        const res = await tree.children(principal, { repoKey: repo, path, after, limit: 1000 })
        for (const n of res.nodes) {
          const name = n.type === 'folder' ? `${n.name}/` : n.name
          const href = encodeURIComponent(n.name) + (n.type === 'folder' ? '/' : '')
          const when = n.lastModified ? n.lastModified.slice(0, 16).replace('T', ' ') : '-'
          const size = n.size === undefined ? '-' : String(n.size)
          rows.push(
            `<a href="${href}">${escapeHtml(name)}</a>${' '.repeat(Math.max(1, 50 - name.length))}${when}  ${size.padStart(12)}`,
          )
        }
        if (!res.next) break
        after = res.next
      }
      return reply.type('text/html; charset=utf-8').send(page(`${repo}/${path}`, rows))
    })
    app.get('/artifactory/list/:repo', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) =>
      reply.redirect(`/artifactory/list/${encodeURIComponent((request.params as { repo: string }).repo)}/`),
    )
  }
