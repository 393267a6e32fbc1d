import type { Readable } from 'node:stream'
import Busboy from 'busboy'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../../core/errors.js'
import type { Repository } from '../../storage/service.js'
import { deployTarget, sendListingOr404 } from '../kit/files.js'
import { authorize, challenge, rawBodies, repositoryOf } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { HelmRepository, indexYaml } from './repository.js'

const TYPE = 'helm'
const PREFIXES = ['/api/helm', '/artifactory/api/helm']

/** The chart archive of a ChartMuseum-style upload: the body itself, or a multipart form's `chart` field. */
function chartBody(request: FastifyRequest): Promise<Readable> {
  const body = request.body as Readable
  const type = request.headers['content-type'] ?? ''
  if (!type.startsWith('multipart/form-data')) return Promise.resolve(body)
  return new Promise((resolve, reject) => {
    let found = false
    const bb = Busboy({ headers: request.headers, limits: { files: 2, fields: 20 } })
    bb.on('file', (name, stream) => {
      if (name === 'chart' && !found) {
        found = true
        resolve(stream as Readable)
      } else stream.resume()
    })
    bb.on('error', () => reject(new HttpError(400, 'chart: the form could not be read')))
    bb.on('close', () => {
      if (!found) reject(new HttpError(400, 'chart: the form has no chart file'))
    })
    body.pipe(bb)
  })
}

/**
 * Helm chart repositories at /api/helm/<repo>/ (and /artifactory/api/helm/<repo>/): `index.yaml`,
 * the chart archives it lists, uploads by PUT of `<name>-<version>.tgz` or ChartMuseum's
 * `POST api/charts`, and ChartMuseum's `DELETE api/charts/<name>/<version>`.
 */
const helmRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const helm = new HelmRepository(fctx)
    app.setErrorHandler((error, _request, reply) => {
      challenge(reply, error)
      throw error
    })

    const upload = async (request: FastifyRequest, reply: FastifyReply, key: string, fileName?: string) => {
      const repo = await repositoryOf(fctx, key, TYPE)
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const body = await chartBody(request)
      const entry = await helm.upload(target, body, principal?.name ?? null, fileName)
      request.log.info(
        { repo: target.key, chart: entry.name, version: entry.version, user: principal?.name },
        'helm chart uploaded',
      )
      return reply.code(201).send({ saved: true, name: entry.name, version: entry.version, digest: entry.digest })
    }

    for (const prefix of PREFIXES) {
      app.get(`${prefix}/:repo/index.yaml`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const { repo: key } = request.params as { repo: string }
        const repo = await repositoryOf(fctx, key, TYPE)
        await authorize(fctx, request, 'read', repo.key)
        return reply.type('application/x-yaml; charset=utf-8').send(indexYaml(await helm.entries(repo)))
      })

      app.post(`${prefix}/:repo/api/charts`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const { repo } = request.params as { repo: string }
        return upload(request, reply, repo)
      })

      app.delete(
        `${prefix}/:repo/api/charts/:name/:version`,
        { config: { access: 'public' }, schema: { hide: true } },
        async (request, reply) => {
          const { repo: key, name, version } = request.params as { repo: string; name: string; version: string }
          const repo = await repositoryOf(fctx, key, TYPE)
          const target = await deployTarget(fctx, repo)
          await authorize(fctx, request, 'delete', target.key)
          if (!(await fctx.artifacts.deleteVersion(target.key, TYPE, name, version))) {
            throw new HttpError(404, `Chart ${name} version ${version} is not in ${target.key}`)
          }
          return reply.send({ deleted: true })
        },
      )

      app.get(`${prefix}/:repo/*`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const { repo: key, '*': path } = request.params as { repo: string; '*': string }
        const repo = await repositoryOf(fctx, key, TYPE)
        await authorize(fctx, request, 'read', repo.key)
        const file = await helm.file(repo, path)
        if (!file) throw new HttpError(404, `${path} not found in ${repo.key}`)
        return fctx.artifacts.sendFile(request, reply, file)
      })

      app.put(`${prefix}/:repo/*`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const { repo, '*': path } = request.params as { repo: string; '*': string }
        if (!/^[^/]+\.tgz$/.test(path)) throw new HttpError(400, `Upload a chart archive as <name>-<version>.tgz, not ${path}`)
        return upload(request, reply, repo, path)
      })
    }
  }

/** `/artifactory/<repo>/<path>`: the chart files and index by path; a PUT of a `.tgz` uploads a chart. */
const helmPaths = (fctx: FormatContext): PathHandler => {
  const helm = new HelmRepository(fctx)
  return async (request, reply, repo: Repository, path) => {
    if (request.method === 'PUT') {
      if (!/^[^/]+\.tgz$/.test(path)) throw new HttpError(400, `Upload a chart archive as <name>-<version>.tgz, not ${path}`)
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const entry = await helm.upload(target, request.body as Readable, principal?.name ?? null, path)
      return reply.code(201).send({ repo: target.key, path: `/${path}`, sha256: entry.digest })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported here: upload charts with PUT of <name>-<version>.tgz`)
    }
    await authorize(fctx, request, 'read', repo.key)
    if (path === 'index.yaml') return reply.type('application/x-yaml; charset=utf-8').send(indexYaml(await helm.entries(repo)))
    const file = path ? await helm.file(repo, path) : undefined
    if (!file) return sendListingOr404(fctx, reply, repo, path)
    return fctx.artifacts.sendFile(request, reply, file)
  }
}

export const helmFormat: Format = {
  type: TYPE,
  routes: helmRoutes,
  paths: helmPaths,
  // OSV has no Helm ecosystem, and a chart's own advisories (none are published as such) would not
  // say what runs; what runs are the images its values name, scanned as images.
  notScanned: 'Helm charts are not scanned for vulnerabilities: no advisory database covers charts; scan the images they run',
}
