import type { Readable } from 'node:stream'
import Busboy from 'busboy'
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { BlobInfo } from '../../core/blobStore.js'
import { HttpError, reasonPhrase, serverFaultAsHttp } from '../../core/errors.js'
import type { Repository } from '../../storage/service.js'
import { IndexAnswers } from '../kit/answers.js'
import { deployTarget } from '../kit/files.js'
import { authorize, rawBodies, repositoryOf } from '../kit/http.js'
import type { FormatContext } from '../kit/types.js'
import { normalizeName, parseFilename, validProjectName, validVersion } from './metadata.js'
import { coreMetadataHash, filePath, PypiRepository } from './repository.js'
import {
  type IndexFile,
  negotiate,
  notFoundHtml,
  projectListHtml,
  projectListJson,
  projectPageHtml,
  projectPageJson,
} from './simple.js'

const PREFIXES = ['/api/pypi', '/artifactory/api/pypi']

/** Form fields that may repeat (twine sends one field per value). */
interface UploadForm {
  fields: Record<string, string[]>
  filename?: string
  blob?: BlobInfo
}

/** A version for comparing a file name's with the form's (wheels write `-` as `_`; case is free). */
const looseVersion = (v: string) => v.toLowerCase().replace(/[-_.]/g, '')

/**
 * Reads twine's multipart form: fields into a map, the `content` file streamed into the blob
 * store. Digests sent before the file are verified while it streams (twine sends them first); any
 * sent after are compared once it is stored.
 */
function readUploadForm(fctx: FormatContext, request: FastifyRequest): Promise<UploadForm> {
  return new Promise((resolve, reject) => {
    // Field names are the client's: a form field named __proto__ must not reach Object.prototype.
    const form: UploadForm = { fields: Object.create(null) }
    let bb: Busboy.Busboy
    try {
      bb = Busboy({ headers: request.headers, limits: { fields: 500, fieldSize: 8 * 1024 * 1024, files: 1 } })
    } catch {
      reject(new HttpError(400, 'content: a multipart/form-data upload is expected'))
      return
    }
    let stored: Promise<BlobInfo | undefined> = Promise.resolve(undefined)
    let failed = false
    const fail = (error: unknown) => {
      if (failed) return
      failed = true
      reject(error)
    }
    bb.on('field', (name, value) => {
      const list = form.fields[name] ?? []
      list.push(value)
      form.fields[name] = list
    })
    bb.on('file', (name, stream, info) => {
      if (name !== 'content') {
        stream.resume()
        return
      }
      form.filename = info.filename
      const expected: { sha256?: string; md5?: string } = {}
      const sha256 = form.fields.sha256_digest?.[0]?.trim().toLowerCase()
      const md5 = form.fields.md5_digest?.[0]?.trim().toLowerCase()
      if (sha256) expected.sha256 = sha256
      if (md5) expected.md5 = md5
      stored = fctx.blobs.put(stream as Readable, expected).catch((error) => {
        // The failed write destroyed the file stream, and busboy would wait on it for ever (a full
        // disk hung twine): answer now, and let the rest of the body drain.
        const body = request.body as Readable
        body.unpipe(bb)
        body.resume()
        fail(error)
        throw error
      })
      stored.catch(() => {})
    })
    bb.on('error', (error) => fail(new HttpError(400, `content: the form could not be read (${(error as Error).message})`)))
    bb.on('close', () => {
      stored.then((blob) => {
        form.blob = blob
        if (!failed) resolve(form)
      }, fail)
    })
    ;(request.body as Readable | undefined)?.pipe(bb) ?? fail(new HttpError(400, 'content: the form is empty'))
  })
}

/** The PyPI protocol at /api/pypi/<repo>/ (and /artifactory/api/pypi/<repo>/): twine uploads, the simple index, files. */
export const pypiRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const pypi = new PypiRepository(fctx)
    // The simple index is what pip asks most (answers.ts).
    const answers = new IndexAnswers(fctx.repos)

    // twine shows the reason phrase of a failed upload: it carries the message, as PyPI's does.
    app.setErrorHandler((raw: FastifyError, request, reply) => {
      const error = serverFaultAsHttp(raw, reply)
      if (error !== raw) request.log.error({ err: raw }, error.message)
      const status = error instanceof HttpError ? error.status : error.validation ? 400 : (error.statusCode ?? 500)
      if (status >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'pypi request failed')
      const message = status >= 500 && !(error instanceof HttpError) ? 'Internal server error' : error.message
      if (status === 401) reply.header('www-authenticate', 'Basic realm="Trove"')
      const reason = reasonPhrase(message)
      if (reason) reply.raw.statusMessage = reason
      return reply.code(status).send({ errors: [{ status, message }] })
    })

    const upload = async (request: FastifyRequest, reply: FastifyReply, repo: Repository) => {
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const form = await readUploadForm(fctx, request)
      const field = (name: string) => form.fields[name]?.[0]?.trim() || undefined
      const action = field(':action')
      if (action && action !== 'file_upload') throw new HttpError(400, `:action: ${action} is not supported (file_upload is)`)
      if (!form.blob || !form.filename) throw new HttpError(400, 'content: the distribution file is missing')
      const blob = form.blob
      for (const [which, value] of [
        ['sha256', field('sha256_digest')],
        ['md5', field('md5_digest')],
      ] as const) {
        if (value && value.toLowerCase() !== blob[which]) {
          throw new HttpError(
            400,
            `Checksum mismatch: the ${which}_digest declared is ${value} but the content's is ${blob[which]}`,
          )
        }
      }
      const filename = form.filename
      const inner = await pypi.archiveMetadata(blob.sha256, filename)
      // The form's fields win; what it lacks comes from the distribution's own metadata.
      const fields: Record<string, string[]> = { ...(inner?.fields ?? {}) }
      for (const [k, v] of Object.entries(form.fields)) if (v.some((x) => x.trim() !== '')) fields[k] = v
      const name = fields.name?.[0]?.trim()
      const version = fields.version?.[0]?.trim()
      if (!name || !validProjectName(name))
        throw new HttpError(400, `name: ${JSON.stringify(name ?? '')} is not a valid project name`)
      if (!version || !validVersion(version))
        throw new HttpError(400, `version: ${JSON.stringify(version ?? '')} is not a valid version`)
      const parsed = parseFilename(filename, name)
      if (
        !parsed ||
        normalizeName(parsed.name) !== normalizeName(name) ||
        looseVersion(parsed.version) !== looseVersion(version)
      ) {
        throw new HttpError(400, `content: the file name ${filename} is not a distribution of ${name} ${version}`)
      }
      const existing = await fctx.artifacts.findFile(target.key, filePath(name, version, filename))
      if (existing) {
        if (existing.sha256 !== blob.sha256) throw new HttpError(409, `File already exists: ${filename} in ${target.key}`)
        // The same file again: a client retrying an upload whose answer it lost. Nothing changes.
        return reply.code(200).type('text/plain').send('OK')
      }
      const description = form.fields.description?.[0] ?? inner?.body
      await pypi.record(target.key, { ...fields, name: [name], version: [version] }, description, {
        filename,
        blob,
        pyversion: field('pyversion') ?? '',
        createdBy: principal?.name ?? null,
        coreMetadata: coreMetadataHash(filename, inner),
      })
      request.log.info(
        { repo: target.key, pkg: normalizeName(name), version, file: filename, user: principal?.name },
        'pypi file uploaded',
      )
      return reply.code(200).type('text/plain').send('OK')
    }

    const repoUrl = (request: FastifyRequest, prefix: string, key: string) =>
      `${fctx.baseUrl(request)}${prefix}/${encodeURIComponent(key)}`

    const indexFiles = (base: string, files: Awaited<ReturnType<typeof pypi.projectFiles>>): IndexFile[] =>
      (files ?? []).map((f) => ({
        ...f,
        url: `${base}/packages/${f.path.split('/').map(encodeURIComponent).join('/')}`,
      }))

    const simple = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, prefix: string, project?: string) => {
      await authorize(fctx, request, 'read', repo.key)
      const query = request.query as Record<string, string | undefined>
      const form = negotiate(request.headers.accept, query.format)
      reply.header('vary', 'Accept')
      const base = repoUrl(request, prefix, repo.key)
      if (project === undefined) {
        const names = await answers.get(repo, 'list', () => pypi.projects(repo))
        if (form.form === 'json') return reply.type(form.contentType).send(JSON.stringify(projectListJson(names)))
        return reply.type(form.contentType).send(projectListHtml(names, `${base}/simple/`))
      }
      const normalized = normalizeName(project)
      if (normalized !== project) return reply.redirect(`${base}/simple/${encodeURIComponent(normalized)}/`, 301)
      const files = await answers.get(repo, `page\0${normalized}`, () => pypi.projectFiles(repo, normalized))
      if (!files) {
        const message = `Project ${normalized} not found in ${repo.key}`
        if (form.form === 'json')
          return reply
            .code(404)
            .type('application/json')
            .send({ errors: [{ status: 404, message }] })
        return reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml(message))
      }
      const entries = indexFiles(base, files)
      if (form.form === 'json') return reply.type(form.contentType).send(JSON.stringify(projectPageJson(normalized, entries)))
      return reply.type(form.contentType).send(projectPageHtml(normalized, entries))
    }

    /** PEP 658: a wheel's METADATA, read from the stored wheel with the archive checks. */
    const coreMetadata = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, wheelPath: string) => {
      const file = await pypi.file(repo, wheelPath)
      const inner = file ? await pypi.archiveMetadata(file.sha256, file.name) : undefined
      if (!inner) throw new HttpError(404, `${wheelPath.split('/').pop()}.metadata not found in ${repo.key}`)
      reply.header('content-length', inner.raw.length)
      return reply.type('text/plain; charset=utf-8').send(request.method === 'HEAD' ? undefined : inner.raw)
    }

    const remove = async (request: FastifyRequest, reply: FastifyReply, repo: Repository, path: string) => {
      const target = await deployTarget(fctx, repo)
      await authorize(fctx, request, 'delete', target.key)
      const file = await fctx.artifacts.findFile(target.key, path)
      if (!file) throw new HttpError(404, `${path} not found in ${target.key}`)
      await fctx.artifacts.deleteFile(target.key, path)
      if (file.version_id !== null) {
        const left = await fctx.db.kysely
          .selectFrom('files')
          .select('id')
          .where('version_id', '=', file.version_id)
          .executeTakeFirst()
        if (!left) {
          const v = await fctx.db.kysely
            .selectFrom('package_versions')
            .select('version')
            .where('id', '=', file.version_id)
            .executeTakeFirst()
          if (v) await fctx.artifacts.deleteVersion(target.key, 'pypi', path.split('/')[0] ?? '', v.version)
        }
      }
      return reply.code(204).send()
    }

    for (const prefix of PREFIXES) {
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        const { repo: key } = request.params as { repo: string }
        const repo = await repositoryOf(fctx, key, 'pypi')
        // From the raw URL: a file name's encoded characters stay one segment.
        const segments = (request.url.split('?')[0] ?? '')
          .split('/')
          .slice(prefix.split('/').length + 1)
          .filter((s) => s !== '')
          .map((s) => decodeURIComponent(s))
        if (segments.some((s) => s === '..' || s === '.' || s.includes('/')))
          throw new HttpError(400, 'path: must not contain . or .. segments')
        const method = request.method
        if (method === 'POST' && (segments.length === 0 || (segments.length === 1 && segments[0] === 'legacy'))) {
          return upload(request, reply, repo)
        }
        if (segments[0] === 'simple' && segments.length <= 2 && (method === 'GET' || method === 'HEAD')) {
          return simple(request, reply, repo, prefix, segments[1])
        }
        if (segments[0] === 'packages' && segments.length === 4) {
          const path = segments.slice(1).join('/')
          if (method === 'GET' || method === 'HEAD') {
            await authorize(fctx, request, 'read', repo.key)
            if (path.endsWith('.whl.metadata')) return coreMetadata(request, reply, repo, path.slice(0, -'.metadata'.length))
            const file = await pypi.file(repo, path)
            if (!file) throw new HttpError(404, `${segments[3]} not found in ${repo.key}`)
            return fctx.artifacts.sendFile(request, reply, file)
          }
          if (method === 'DELETE') return remove(request, reply, repo, path)
        }
        throw new HttpError(404, `Not found: ${method} ${request.url.split('?')[0]}`)
      }
      for (const url of [`${prefix}/:repo`, `${prefix}/:repo/*`]) {
        app.route({
          method: ['GET', 'HEAD', 'POST', 'DELETE'],
          url,
          config: { access: 'public' },
          schema: { hide: true },
          bodyLimit: fctx.config.repositories.uploadMaxBytes + 64 * 1024 * 1024,
          handler,
        })
      }
    }
  }
