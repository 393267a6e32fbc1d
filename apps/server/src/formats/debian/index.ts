import type { Readable } from 'node:stream'
import type { FastifyPluginAsync } from 'fastify'
import { HttpError } from '../../core/errors.js'
import { declaredChecksums, deployTarget, matrixParams, sendListingOr404 } from '../kit/files.js'
import { authorize } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import { DebianRepository, isIndexPath } from './repository.js'
import { OpenPgpKeys } from './signing.js'

const TYPE = 'debian'

/** One key store and one repository per context: the paths handler and the routes share them. */
const repositories = new WeakMap<FormatContext, DebianRepository>()
const keyStores = new WeakMap<FormatContext, OpenPgpKeys>()
function keysOf(fctx: FormatContext): OpenPgpKeys {
  let keys = keyStores.get(fctx)
  if (!keys) {
    keys = new OpenPgpKeys(fctx)
    keyStores.set(fctx, keys)
  }
  return keys
}
function debianOf(fctx: FormatContext): DebianRepository {
  let debian = repositories.get(fctx)
  if (!debian) {
    debian = new DebianRepository(fctx, keysOf(fctx))
    repositories.set(fctx, debian)
  }
  return debian
}

/** The instance's public OpenPGP key, which signs every Debian repository's Release files. */
const debianRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    for (const prefix of ['/api/gpg/key/public', '/artifactory/api/gpg/key/public']) {
      app.get(prefix, { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
        const keys = await keysOf(fctx).publicKeys()
        return reply.type('application/pgp-keys; charset=utf-8').send(keys.join('\n'))
      })
    }
  }

/**
 * `/artifactory/<repo>/…` for Debian repositories: `PUT <path>.deb;deb.distribution=…;deb.component=…`
 * uploads, `dists/<dist>/…` serves the signed indexes, everything else the stored files;
 * `DELETE <path>.deb` removes a package file.
 */
const debianPaths = (fctx: FormatContext): PathHandler => {
  const debian = debianOf(fctx)
  return async (request, reply, repo, rawPath) => {
    const { path, properties } = matrixParams(rawPath)
    if (request.method === 'PUT') {
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(fctx, request, 'deploy', target.key)
      const { deb, file } = await debian.upload(
        target,
        path,
        request.body as Readable,
        properties,
        principal?.name ?? null,
        declaredChecksums(request),
      )
      request.log.info(
        { repo: target.key, package: deb.name, version: deb.version, user: principal?.name },
        'debian package uploaded',
      )
      return reply.code(201).send({
        repo: target.key,
        path: `/${file.path}`,
        package: deb.name,
        version: deb.version,
        architecture: deb.architecture,
        checksums: { sha256: file.sha256, sha1: file.sha1, md5: file.md5 },
      })
    }
    if (request.method === 'DELETE') {
      const target = await deployTarget(fctx, repo)
      await authorize(fctx, request, 'delete', target.key)
      if (isIndexPath(path))
        throw new HttpError(400, `${path}: Trove makes the files under dists/ itself; delete the packages instead`)
      if (!(await debian.delete(target, path))) throw new HttpError(404, `${path} not found in ${target.key}`)
      return reply.code(204).send()
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not supported here: upload packages with PUT of <path>.deb`)
    }
    await authorize(fctx, request, 'read', repo.key)
    const found = path && !path.endsWith('/') ? await debian.file(repo, path) : undefined
    if (!found) return sendListingOr404(fctx, reply, repo, path)
    if ('content' in found) return reply.type(found.type).header('cache-control', 'no-cache').send(found.content)
    if (isIndexPath(path)) reply.header('cache-control', path.includes('/by-hash/') ? 'max-age=86400' : 'no-cache')
    return fctx.artifacts.sendFile(request, reply, found)
  }
}

export const debianFormat: Format = {
  ecosystem: 'Debian',
  type: TYPE,
  routes: debianRoutes,
  paths: debianPaths,
  filesChanged: (fctx) => (repo, paths) => debianOf(fctx).filesChanged(repo, paths),
}
