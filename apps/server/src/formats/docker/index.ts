import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Principal } from '../../core/access.js'
import type { BlobInfo } from '../../core/blobStore.js'
import { type HttpError, serverFaultAsHttp } from '../../core/errors.js'
import type { RepoAction } from '../../core/permissions.js'
import { startsWith } from '../../core/sqlLike.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { bodyLength, deployTarget } from '../kit/files.js'
import { rawBodies, readBody } from '../kit/http.js'
import type { Format, FormatContext } from '../kit/types.js'
import { fetchOnce } from '../kit/upstreamFetch.js'
import { BucketUploads } from './bucketUploads.js'
import { OciError, sendOciError } from './errors.js'
import { dockerLayers } from './layers.js'
import { blobPath, manifestPath, tagPath } from './layout.js'
import { configSummary, type Descriptor, DIGEST, IMAGE_NAME, MANIFEST_TYPES, parseManifest, TAG } from './manifest.js'
import { ARTIFACT_TYPE_PROPERTY, referrersOf, SUBJECT_PROPERTY } from './referrers.js'
import { REGISTRY_TOKEN_TTL_S, RegistryTokens } from './tokens.js'
import { type HeldUpload, type UploadStore, Uploads } from './uploads.js'
import { fetchBlob, fetchManifest } from './upstream.js'
import { imageVersionFiles } from './versionFiles.js'

const TYPE = 'docker'
const MEDIA_INDEX = 'application/vnd.oci.image.index.v1+json'
const MEDIA_INDEX_TYPES = [MEDIA_INDEX, 'application/vnd.docker.distribution.manifest.list.v2+json']
const MANIFEST_LIMIT = 4 * 1024 * 1024
const SERVICE = 'trove'

/** What a tag's version row keeps in `metadata`: the manifest it points at and the layers view's data. */
export interface TagMetadata {
  digest: string
  mediaType: string
  totalSize: number
  config?: ReturnType<typeof configSummary> & { digest: string; size: number }
  manifests?: { digest: string; mediaType: string; size: number; platform?: unknown }[]
}

const hexOf = (digest: string) => {
  const m = DIGEST.exec(digest)
  if (!m?.[1]) throw new OciError(400, 'DIGEST_INVALID', `${digest} is not a sha256 digest`)
  return m[1]
}

const dockerRoutes =
  (fctx: FormatContext): FastifyPluginAsync =>
  async (app) => {
    rawBodies(app)
    const tokens = new RegistryTokens(fctx.secrets.derive('registry tokens'))
    // With the blobs in a bucket, an upload's state is in the database and its bytes in the bucket,
    // so each of its requests may reach another node; on the local disk, files of the temp dir.
    const uploads: UploadStore = fctx.blobs.s3
      ? new BucketUploads(fctx.blobs, fctx.db.kysely, fctx.config.node.id, (err, message) => app.log.warn({ err }, message))
      : new Uploads(fctx.blobs)
    const recovered = await uploads.recover()
    if (recovered > 0) app.log.info({ uploads: recovered }, 'removed uploads that dead requests left')
    app.addHook('onClose', async () => uploads.close())

    app.setErrorHandler((raw, request, reply) => {
      const error = serverFaultAsHttp(raw, reply)
      if (error !== raw) request.log.error({ err: raw }, (error as HttpError).message)
      if ((error as { status?: number }).status === 401 || (error as { statusCode?: number }).statusCode === 401) {
        if (!reply.hasHeader('www-authenticate')) reply.header('www-authenticate', challengeOf(request))
      }
      if (!(error instanceof OciError) && !('status' in (error as object))) request.log.error({ err: error }, 'registry error')
      return sendOciError(reply, error)
    })

    function challengeOf(request: FastifyRequest, scope?: string): string {
      const realm = `${fctx.baseUrl(request)}/v2/token`
      return `Bearer realm="${realm}",service="${SERVICE}"${scope ? `,scope="${scope}"` : ''}`
    }

    /** The caller: a registry token from our token endpoint, else whatever Trove accepts (Basic, tokens). */
    async function caller(request: FastifyRequest): Promise<{ principal: Principal | null; authenticated: boolean }> {
      const header = request.headers.authorization
      if (header?.toLowerCase().startsWith('bearer ')) {
        const token = header.slice(7).trim()
        if (RegistryTokens.looksLike(token)) {
          const found = tokens.verify(token)
          if (!found || (found.principal && !(await tokens.stillLive(fctx.db.kysely, found.principal))))
            throw new OciError(401, 'UNAUTHORIZED', 'The token is invalid or has expired')
          return { principal: found.principal, authenticated: true }
        }
      }
      const principal = await fctx.principal(request)
      if (header && !principal) throw new OciError(401, 'UNAUTHORIZED', 'The credentials are not valid')
      return { principal, authenticated: principal !== null }
    }

    async function authorize(request: FastifyRequest, reply: FastifyReply, action: RepoAction, repo: Repository, image: string) {
      const { principal } = await caller(request)
      if (await fctx.authz.canOnRepo(principal, action, repo.key)) return principal
      if (!principal) {
        reply.header(
          'www-authenticate',
          challengeOf(request, `repository:${repo.key}/${image}:${action === 'read' ? 'pull' : 'pull,push'}`),
        )
        throw new OciError(401, 'UNAUTHORIZED', 'Authentication is required')
      }
      throw new OciError(403, 'DENIED', `${principal.name} may not ${action} in ${repo.key}`)
    }

    async function repositoryOf(key: string): Promise<Repository> {
      const repo = await fctx.repos.get(key)
      if (!repo || repo.packageType !== TYPE) throw new OciError(404, 'NAME_UNKNOWN', `Repository ${key} does not exist`)
      return repo
    }

    /** The repositories a read looks in, in order: the repository, or a virtual's members. */
    async function readOrder(repo: Repository, seen = new Set<string>()): Promise<Repository[]> {
      if (seen.has(repo.key)) return []
      seen.add(repo.key)
      if (repo.rclass !== 'virtual') return [repo]
      const out: Repository[] = []
      for (const key of repo.members) {
        const member = await fctx.repos.get(key)
        if (member && member.packageType === TYPE) out.push(...(await readOrder(member, seen)))
      }
      return out
    }

    // ---- version check and token endpoint ----

    for (const url of ['/v2', '/v2/']) {
      app.get(url, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
        reply.header('docker-distribution-api-version', 'registry/2.0')
        const { authenticated } = await caller(request)
        if (!authenticated) {
          reply.header('www-authenticate', challengeOf(request))
          throw new OciError(401, 'UNAUTHORIZED', 'Authentication is required')
        }
        return reply.send({})
      })
    }

    app.get('/v2/token', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      // Basic credentials (a password or a Trove token as the password) or a Trove access token as
      // Bearer; none gives an anonymous token, which reads what the authorizer lets anonymous read.
      const principal = await fctx.principal(request)
      if (request.headers.authorization && !principal) throw new OciError(401, 'UNAUTHORIZED', 'The credentials are not valid')
      const token = tokens.issue(principal)
      return reply.send({
        token,
        access_token: token,
        expires_in: REGISTRY_TOKEN_TTL_S,
        issued_at: new Date().toISOString(),
      })
    })

    app.get('/v2/_catalog', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const { principal } = await caller(request)
      const repos = await fctx.db.kysely
        .selectFrom('repositories')
        .select('key')
        .where('package_type', '=', TYPE)
        .where('rclass', '!=', 'virtual')
        .orderBy('key')
        .execute()
      const names: string[] = []
      for (const repo of repos) {
        if (!(await fctx.authz.canOnRepo(principal, 'read', repo.key))) continue
        const rows = await fctx.db.kysely
          .selectFrom('package_versions as v')
          .innerJoin('packages as p', 'p.id', 'v.package_id')
          .select('p.name')
          .distinct()
          .where('p.package_type', '=', TYPE)
          .where('v.repo_key', '=', repo.key)
          .execute()
        for (const r of rows) names.push(`${repo.key}/${r.name}`)
      }
      return sendPage(request, reply, '/v2/_catalog', 'repositories', names.sort(), {})
    })

    function sendPage(
      request: FastifyRequest,
      reply: FastifyReply,
      path: string,
      field: string,
      all: string[],
      extra: Record<string, unknown>,
    ) {
      const query = request.query as { n?: string; last?: string }
      let items = query.last ? all.filter((x) => x > (query.last as string)) : all
      if (query.n !== undefined) {
        if (!/^\d+$/.test(query.n)) throw new OciError(400, 'UNSUPPORTED', 'n: must be a whole number')
        const n = Number(query.n)
        if (items.length > n && n > 0) {
          reply.header('link', `<${path}?n=${n}&last=${encodeURIComponent(items[n - 1] as string)}>; rel="next"`)
        }
        items = items.slice(0, n)
      }
      return reply.send({ ...extra, [field]: items })
    }

    // ---- everything under /v2/<repo>/<image>/… ----

    app.route({
      method: ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE'],
      url: '/v2/:repo/*',
      // Blobs and manifests go out byte for byte: clients check their digests, and layers are compressed already.
      compress: false,
      config: { access: 'public' },
      schema: { hide: true },
      handler: async (request, reply) => {
        reply.header('docker-distribution-api-version', 'registry/2.0')
        const { repo: key, '*': rest } = request.params as { repo: string; '*': string }
        const route =
          /^(.+)\/(manifests)\/([^/]+)$/.exec(rest) ??
          /^(.+)\/blobs\/(uploads)\/?([^/]*)$/.exec(rest) ??
          /^(.+)\/(blobs)\/([^/]+)$/.exec(rest) ??
          /^(.+)\/(tags)\/(list)$/.exec(rest) ??
          /^(.+)\/(referrers)\/([^/]+)$/.exec(rest)
        if (!route) throw new OciError(404, 'NAME_UNKNOWN', `Not a registry path: ${request.url.split('?')[0]}`)
        const [, image = '', kind, arg = ''] = route
        if (!IMAGE_NAME.test(image)) throw new OciError(400, 'NAME_INVALID', `${image} is not a valid image name`)
        const repo = await repositoryOf(key)
        const m = request.method
        if (kind === 'manifests') {
          if (!TAG.test(arg) && !DIGEST.test(arg)) {
            // No manifest can have such a name: to a reader it is unknown (what registries answer and
            // the distribution spec's conformance suite expects), once the caller's access is checked.
            if (m === 'GET' || m === 'HEAD' || m === 'DELETE') {
              await authorize(request, reply, m === 'DELETE' ? 'delete' : 'read', repo, image)
              throw new OciError(404, 'MANIFEST_UNKNOWN', `${arg} is neither a tag nor a digest`)
            }
            throw new OciError(400, 'MANIFEST_INVALID', `${arg} is neither a tag nor a digest`)
          }
          if (m === 'GET' || m === 'HEAD') return getManifest(request, reply, repo, image, arg)
          if (m === 'PUT') return putManifest(request, reply, repo, image, arg)
          if (m === 'DELETE') return deleteManifest(request, reply, repo, image, arg)
        } else if (kind === 'uploads') {
          if (m === 'POST' && !arg) return startUpload(request, reply, repo, image)
          if (arg && m === 'PATCH') return patchUpload(request, reply, repo, image, arg)
          if (arg && m === 'PUT') return finishUpload(request, reply, repo, image, arg)
          if (arg && m === 'GET') return uploadStatus(request, reply, repo, image, arg)
          if (arg && m === 'DELETE') return cancelUpload(request, reply, repo, image, arg)
        } else if (kind === 'blobs') {
          if (m === 'GET' || m === 'HEAD') return getBlob(request, reply, repo, image, arg)
          if (m === 'DELETE') return deleteBlob(request, reply, repo, image, arg)
        } else if (kind === 'tags' && m === 'GET') {
          return listTags(request, reply, repo, image)
        } else if (kind === 'referrers' && m === 'GET') {
          return listReferrers(request, reply, repo, image, arg)
        }
        throw new OciError(405, 'UNSUPPORTED', `${m} is not supported on ${request.url.split('?')[0]}`)
      },
    })

    // ---- lookups ----

    /**
     * The blob's file in a repository: under the image, or any file of the image with that content.
     * `served`: for a download, whose row may come from the node's short-lived cache of served
     * files (ArtifactService.servedFile); an answer that decides a write reads the database.
     */
    async function localBlob(repoKey: string, image: string, hex: string, served = false): Promise<FileRow | undefined> {
      const path = blobPath(image, hex)
      const own = await (served ? fctx.artifacts.servedFile(repoKey, path) : fctx.artifacts.findFile(repoKey, path))
      if (own) return own
      return fctx.db.kysely
        .selectFrom('files')
        .selectAll()
        .where('repo_key', '=', repoKey)
        .where('sha256', '=', hex)
        .where(startsWith('path', `${image}/`))
        .limit(1)
        .executeTakeFirst()
    }

    async function findBlob(repo: Repository, image: string, hex: string, served = false): Promise<FileRow | undefined> {
      for (const r of await readOrder(repo)) {
        const found = await localBlob(r.key, image, hex, served)
        if (found) return found
        if (r.rclass === 'remote' && !r.offline) {
          const fetched = await fetchOnce(`docker\0${r.key}\0${image}\0${hex}`, () => cacheBlob(r, image, hex))
          if (fetched) return fctx.artifacts.findFile(r.key, blobPath(image, hex))
        }
      }
      return undefined
    }

    /**
     * Fetches a blob from a remote's upstream and keeps it under @blobs. The remote's tags whose
     * image has it get it as a file, as a pushed tag has its config and layers.
     */
    async function cacheBlob(remote: Repository, image: string, hex: string): Promise<BlobInfo | undefined> {
      const fetched = await fetchBlob(fctx, remote, image, hex)
      if (!fetched) return undefined
      const digest = `sha256:${hex}`
      const tags: { id: number; tag: string; mediaType: string }[] = []
      for (const v of await fctx.artifacts.listVersions(TYPE, image, [remote.key])) {
        const config = (JSON.parse(v.metadata) as TagMetadata).config
        const mediaType = config?.layers.find((l) => l.digest === digest)?.mediaType
        if (mediaType) tags.push({ id: v.id, tag: v.version, mediaType })
      }
      await fctx.db.kysely.transaction().execute(async (tx) => {
        await fctx.artifacts.putFile(tx, remote.key, {
          path: blobPath(image, hex),
          blob: fetched,
          mimeType: 'application/octet-stream',
        })
        for (const t of tags) {
          await fctx.artifacts.addVersionFile(tx, remote.key, t.id, {
            path: tagPath(image, t.tag, `sha256__${hex}`),
            blob: fetched,
            mimeType: t.mediaType,
          })
        }
      })
      return fetched
    }

    async function tagDigest(
      repoKey: string,
      image: string,
      tag: string,
    ): Promise<{ digest: string; modifiedAt: number } | undefined> {
      const v = await fctx.artifacts.findVersion(repoKey, TYPE, image, tag)
      if (!v) return undefined
      const meta = JSON.parse(v.metadata) as TagMetadata
      return { digest: meta.digest, modifiedAt: v.modified_at }
    }

    /** A manifest by tag or digest: its file row (under @manifests) and, for tags, the tag's file row. */
    async function findManifest(
      repo: Repository,
      image: string,
      ref: string,
    ): Promise<{ file: FileRow; tagFile?: FileRow | undefined } | undefined> {
      const byDigest = DIGEST.test(ref)
      for (const r of await readOrder(repo)) {
        let hex: string | undefined
        if (byDigest) hex = hexOf(ref)
        else {
          const tagged = await tagDigest(r.key, image, ref)
          const fresh =
            tagged && (r.rclass !== 'remote' || r.offline || Date.now() - tagged.modifiedAt < r.metadataCacheSecs * 1000)
          if (tagged && fresh) hex = hexOf(tagged.digest)
          else if (r.rclass === 'remote' && !r.offline) {
            const got = await fetchManifest(fctx, r, image, ref).catch((error) => {
              if (tagged) return undefined
              throw error
            })
            if (got) hex = (await storeManifest(r, image, ref, got.body, got.mediaType, null)).hex
            else if (tagged) hex = hexOf(tagged.digest)
          }
        }
        if (!hex) continue
        let file = await fctx.artifacts.findFile(r.key, manifestPath(image, hex))
        if (!file && byDigest && r.rclass === 'remote' && !r.offline) {
          const got = await fetchManifest(fctx, r, image, ref)
          if (got) {
            await storeManifest(r, image, ref, got.body, got.mediaType, null)
            file = await fctx.artifacts.findFile(r.key, manifestPath(image, hex))
          }
        }
        if (file) {
          const tagFile = byDigest ? undefined : await fctx.artifacts.findFile(r.key, tagPath(image, ref, 'manifest.json'))
          return { file, tagFile }
        }
      }
      return undefined
    }

    // ---- manifests ----

    async function getManifest(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, ref: string) {
      await authorize(request, reply, 'read', repo, image)
      const found = await findManifest(repo, image, ref)
      if (!found) throw new OciError(404, 'MANIFEST_UNKNOWN', `${image}:${ref} is not in ${repo.key}`, { Tag: ref })
      const { file } = found
      if (request.method !== 'HEAD') await fctx.artifacts.checkDownload(found.tagFile ?? file)
      reply
        .header('content-type', file.mime_type)
        .header('docker-content-digest', `sha256:${file.sha256}`)
        .header('etag', `"sha256:${file.sha256}"`)
        .header('content-length', file.size)
      if (request.method === 'HEAD') return reply.send()
      fctx.artifacts.countDownload(found.tagFile ?? file)
      return reply.send(fctx.blobs.open(file.sha256))
    }

    /**
     * Stores a manifest in a repository: the blob, its row under @manifests, and for a tag the
     * version row (tag = version) with the manifest, config and layers as files and the layers
     * view's data in its metadata.
     */
    async function storeManifest(
      repo: Repository,
      image: string,
      ref: string,
      body: Buffer,
      contentType: string | undefined,
      principal: Principal | null,
    ): Promise<{ hex: string }> {
      const parsed = parseManifest(body, contentType)
      const blob = await fctx.blobs.put(body)
      const hex = blob.sha256
      if (DIGEST.test(ref) && hexOf(ref) !== hex) {
        throw new OciError(400, 'DIGEST_INVALID', `The manifest's digest is sha256:${hex}, not ${ref}`)
      }
      const mimeType = parsed.mediaType
      await fctx.db.kysely.transaction().execute(async (tx) => {
        const id = await fctx.artifacts.putFile(
          tx,
          repo.key,
          { path: manifestPath(image, hex), blob, mimeType },
          { createdBy: principal?.name },
        )
        // OCI 1.1: a manifest naming a subject is one of that subject's referrers (found by these).
        if (parsed.subject) {
          await fctx.artifacts.setProperties(tx, id, {
            [SUBJECT_PROPERTY]: [parsed.subject.digest],
            ...(parsed.artifactType ? { [ARTIFACT_TYPE_PROPERTY]: [parsed.artifactType] } : {}),
          })
        }
      })
      if (DIGEST.test(ref)) return { hex }
      const files = [{ path: tagPath(image, ref, 'manifest.json'), blob, mimeType, lead: true }]
      const meta: TagMetadata = { digest: `sha256:${hex}`, mediaType: mimeType, totalSize: body.length }
      if (parsed.isIndex) {
        meta.manifests = parsed.manifests.map((d) => ({
          digest: d.digest,
          mediaType: d.mediaType,
          size: d.size,
          platform: d.platform,
        }))
      } else if (parsed.config) {
        let config: Record<string, unknown> | undefined
        const configHex = hexOf(parsed.config.digest)
        // A remote records a tag before its client asks for the config: the config, small, is
        // fetched now, so the tag has the platform and build steps a pushed tag has.
        if (repo.rclass === 'remote' && !(await fctx.blobs.info(configHex))) {
          await cacheBlob(repo, image, configHex).catch((error) => {
            app.log.warn({ err: error, repo: repo.key, image }, 'the image config could not be fetched from the upstream')
          })
        }
        const configInfo = await fctx.blobs.info(configHex)
        if (configInfo && configInfo.size < MANIFEST_LIMIT) {
          try {
            config = JSON.parse(await fctx.blobs.readText(configHex))
          } catch {
            config = undefined
          }
        }
        meta.config = { digest: parsed.config.digest, size: parsed.config.size, ...configSummary(config, parsed.layers) }
        meta.totalSize += parsed.config.size + parsed.layers.reduce((s, l) => s + l.size, 0)
        for (const d of parsed.blobs) {
          const info = await fctx.blobs.info(hexOf(d.digest))
          if (info)
            files.push({ path: tagPath(image, ref, `sha256__${info.sha256}`), blob: info, mimeType: d.mediaType, lead: false })
        }
      }
      await fctx.artifacts.recordVersion({
        repoKey: repo.key,
        packageType: TYPE,
        name: image,
        version: ref,
        metadata: meta,
        createdBy: principal?.name ?? null,
        files,
        // What the manifest declares: a remote's tag has it before its layers are fetched.
        size: meta.totalSize,
        overwrite: true,
      })
      return { hex }
    }

    async function putManifest(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, ref: string) {
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(request, reply, 'deploy', target, image)
      const body = await readBody((request.body as Readable | undefined) ?? Readable.from([]), MANIFEST_LIMIT)
      const parsed = parseManifest(body, request.headers['content-type'])
      for (const d of parsed.blobs) {
        if (!(await localBlob(target.key, image, hexOf(d.digest)))) {
          throw new OciError(400, 'MANIFEST_BLOB_UNKNOWN', `Blob ${d.digest} is not in ${target.key}/${image}`, {
            digest: d.digest,
          })
        }
      }
      for (const d of parsed.manifests) {
        if (!(await fctx.artifacts.findFile(target.key, manifestPath(image, hexOf(d.digest))))) {
          throw new OciError(400, 'MANIFEST_BLOB_UNKNOWN', `Manifest ${d.digest} is not in ${target.key}/${image}`, {
            digest: d.digest,
          })
        }
      }
      if (!DIGEST.test(ref)) {
        // Moving an existing tag to other content replaces it: that needs the delete permission.
        const current = await tagDigest(target.key, image, ref)
        const digest = `sha256:${crypto.createHash('sha256').update(body).digest('hex')}`
        if (current && current.digest !== digest && !(await fctx.authz.canOnRepo(principal, 'delete', target.key))) {
          throw new OciError(
            409,
            'DENIED',
            `${image}:${ref} already exists in ${target.key}; replacing it needs the delete permission`,
          )
        }
      }
      const { hex } = await storeManifest(target, image, ref, body, request.headers['content-type'], principal)
      // OCI 1.1: the registry tells the client it keeps referrers, so it needs no fallback tag.
      if (parsed.subject) reply.header('oci-subject', parsed.subject.digest)
      return reply
        .code(201)
        .header('location', `/v2/${target.key}/${image}/manifests/sha256:${hex}`)
        .header('docker-content-digest', `sha256:${hex}`)
        .send()
    }

    async function deleteManifest(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, ref: string) {
      const target = await deployTarget(fctx, repo)
      await authorize(request, reply, 'delete', target, image)
      if (!DIGEST.test(ref)) {
        if (!(await fctx.artifacts.deleteVersion(target.key, TYPE, image, ref))) {
          throw new OciError(404, 'MANIFEST_UNKNOWN', `${image}:${ref} is not in ${target.key}`)
        }
        return reply.code(202).send()
      }
      const hex = hexOf(ref)
      if (!(await fctx.artifacts.findFile(target.key, manifestPath(image, hex)))) {
        throw new OciError(404, 'MANIFEST_UNKNOWN', `${image}@${ref} is not in ${target.key}`)
      }
      // Deleting by digest removes the manifest and every tag that points at it.
      for (const v of await fctx.artifacts.listVersions(TYPE, image, [target.key])) {
        if ((JSON.parse(v.metadata) as TagMetadata).digest === ref)
          await fctx.artifacts.deleteVersion(target.key, TYPE, image, v.version)
      }
      await fctx.artifacts.deleteFile(target.key, manifestPath(image, hex))
      return reply.code(202).send()
    }

    async function listTags(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string) {
      await authorize(request, reply, 'read', repo, image)
      const keys = (await readOrder(repo)).map((r) => r.key)
      const versions = await fctx.artifacts.listVersions(TYPE, image, keys)
      if (versions.length === 0) throw new OciError(404, 'NAME_UNKNOWN', `${image} is not in ${repo.key}`)
      const tags = [...new Set(versions.map((v) => v.version))].sort()
      return sendPage(request, reply, `/v2/${repo.key}/${image}/tags/list`, 'tags', tags, { name: `${repo.key}/${image}` })
    }

    /**
     * OCI 1.1's referrers of a manifest: an index of the manifests whose subject it is (signatures,
     * SBOMs, attestations), in the repository and, for a virtual, its members; `artifactType`
     * filters them. Referrers pushed by a client that used the fallback tag (`sha256-<hex>`, an
     * index of them) are listed too. A manifest nobody refers to has an empty index, not a 404.
     */
    async function listReferrers(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, digest: string) {
      await authorize(request, reply, 'read', repo, image)
      if (!DIGEST.test(digest)) throw new OciError(400, 'DIGEST_INVALID', `${digest} is not a sha256 digest`)
      const keys = (await readOrder(repo)).map((r) => r.key)
      const manifests = new Map<string, Descriptor>(
        (await referrersOf(fctx, keys, image, digest)).map((d) => [hexOf(d.digest), d]),
      )
      const fallback = await findManifest(repo, image, `sha256-${hexOf(digest)}`).catch(() => undefined)
      if (fallback && MEDIA_INDEX_TYPES.includes(fallback.file.mime_type)) {
        const index = parseManifest(Buffer.from(await fctx.blobs.readText(fallback.file.sha256)), fallback.file.mime_type)
        for (const d of index.manifests) if (!manifests.has(hexOf(d.digest))) manifests.set(hexOf(d.digest), d)
      }
      const wanted = (request.query as { artifactType?: string }).artifactType
      const listed = [...manifests.values()].filter((d) => wanted === undefined || d.artifactType === wanted)
      if (wanted !== undefined) reply.header('oci-filters-applied', 'artifactType')
      return reply
        .header('content-type', MEDIA_INDEX)
        .send(Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: MEDIA_INDEX, manifests: listed })))
    }

    // ---- blobs ----

    async function getBlob(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, digest: string) {
      await authorize(request, reply, 'read', repo, image)
      const hex = hexOf(digest)
      // A HEAD asks whether to upload the blob: it reads the database, never the cache of served files.
      const file = await findBlob(repo, image, hex, request.method === 'GET')
      if (!file) throw new OciError(404, 'BLOB_UNKNOWN', `Blob ${digest} is not in ${repo.key}/${image}`, { digest })
      reply.header('docker-content-digest', `sha256:${hex}`).header('etag', `"sha256:${hex}"`)
      if (request.headers.range) return fctx.artifacts.sendFile(request, reply, file, { count: false })
      if (request.method !== 'HEAD') await fctx.artifacts.checkDownload(file)
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', file.size)
        .header('accept-ranges', 'bytes')
      if (request.method === 'HEAD') return reply.send()
      fctx.artifacts.countDownload(file)
      // A large blob in a bucket, with TROVE_S3_PRESIGN_ABOVE set: the client reads it from the
      // bucket (307 to a presigned URL, as registries on S3 answer), unless the bucket is on the host
      // the client reached Trove at, where it would send its token along (see directUrl).
      const direct = await fctx.blobs.directUrl(hex, Number(file.size), request.hostname)
      if (direct) return reply.code(307).removeHeader('content-length').header('location', direct).send()
      // A small blob (a config, a small layer) from memory as tarballs are, checked when it was read.
      const small = await fctx.blobs.content(hex, Number(file.size))
      if (small) return reply.send(small)
      // The content is hashed on its way out: a blob that changed breaks the connection rather than
      // reaching the client as if it were the digest asked for. 1 MB reads: a layer of a gigabyte
      // streams in far fewer, larger writes than the default 64 KB.
      return reply.send(fctx.blobs.openVerified(hex, { size: file.size, highWaterMark: 1 << 20 }))
    }

    async function deleteBlob(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, digest: string) {
      const target = await deployTarget(fctx, repo)
      await authorize(request, reply, 'delete', target, image)
      if (!(await fctx.artifacts.deleteFile(target.key, blobPath(image, hexOf(digest))))) {
        throw new OciError(404, 'BLOB_UNKNOWN', `Blob ${digest} is not in ${target.key}/${image}`, { digest })
      }
      return reply.code(202).send()
    }

    async function recordBlob(repoKey: string, image: string, blob: BlobInfo, principal: Principal | null) {
      await fctx.db.kysely.transaction().execute(async (tx) => {
        await fctx.artifacts.putFile(
          tx,
          repoKey,
          { path: blobPath(image, blob.sha256), blob, mimeType: 'application/octet-stream' },
          { createdBy: principal?.name },
        )
      })
    }

    function blobCreated(reply: FastifyReply, repoKey: string, image: string, hex: string) {
      return reply
        .code(201)
        .header('location', `/v2/${repoKey}/${image}/blobs/sha256:${hex}`)
        .header('docker-content-digest', `sha256:${hex}`)
        .header('content-length', 0)
        .send()
    }

    function uploadAccepted(reply: FastifyReply, code: number, repoKey: string, image: string, id: string, size: number) {
      return reply
        .code(code)
        .header('location', `/v2/${repoKey}/${image}/blobs/uploads/${id}`)
        .header('docker-upload-uuid', id)
        .header('range', `0-${Math.max(0, size - 1)}`)
        .header('content-length', 0)
        .send()
    }

    async function startUpload(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string) {
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(request, reply, 'deploy', target, image)
      const query = request.query as { digest?: string; mount?: string; from?: string }
      if (query.mount) {
        // Cross-repository mount: `from` is `<repository>/<image>` as clients name it.
        const hex = hexOf(query.mount)
        const [fromKey, ...fromImage] = (query.from ?? '').split('/')
        const from = fromKey ? await fctx.repos.get(fromKey) : undefined
        if (
          from &&
          from.packageType === TYPE &&
          fromImage.length > 0 &&
          (await fctx.authz.canOnRepo(principal, 'read', from.key))
        ) {
          const source = await findBlob(from, fromImage.join('/'), hex)
          const info = source ? await fctx.blobs.info(hex) : undefined
          if (info) {
            await recordBlob(target.key, image, info, principal)
            return blobCreated(reply, target.key, image, hex)
          }
        }
        // Not mountable: an ordinary upload session, as the spec says.
      } else if (query.digest) {
        const hex = hexOf(query.digest)
        const body = (request.body as Readable | undefined) ?? Readable.from([])
        const blob = await fctx.blobs.put(body, { sha256: hex }, { length: bodyLength(request) }).catch((error) => {
          if ((error as { code?: string }).code === 'CHECKSUM_MISMATCH') {
            throw new OciError(400, 'DIGEST_INVALID', (error as Error).message, { digest: query.digest })
          }
          throw error
        })
        await recordBlob(target.key, image, blob, principal)
        return blobCreated(reply, target.key, image, hex)
      }
      const id = await uploads.create(target.key, image)
      return uploadAccepted(reply, 202, target.key, image, id, 0)
    }

    /** The upload a request writes to, held for it alone (see uploads.ts); release it before answering. */
    async function heldUpload(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, id: string) {
      const target = await deployTarget(fctx, repo)
      const principal = await authorize(request, reply, 'deploy', target, image)
      return { upload: await uploads.hold(id, target.key, image), principal }
    }

    function checkRange(request: FastifyRequest, reply: FastifyReply, upload: HeldUpload) {
      const range = request.headers['content-range']
      if (typeof range === 'string' && range.trim()) {
        const m = /^(?:bytes[ =])?(\d+)-(\d+)(?:\/\d+|\/\*)?$/.exec(range.trim())
        if (!m || Number(m[1]) !== upload.size) {
          reply.header('location', `/v2/${upload.repoKey}/${upload.image}/blobs/uploads/${upload.id}`)
          reply.header('range', `0-${Math.max(0, upload.size - 1)}`)
          reply.header('docker-upload-uuid', upload.id)
          throw new OciError(416, 'BLOB_UPLOAD_INVALID', `The chunk must start at byte ${upload.size}, not ${range}`)
        }
      }
    }

    async function patchUpload(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, id: string) {
      const { upload } = await heldUpload(request, reply, repo, image, id)
      try {
        checkRange(request, reply, upload)
        if (request.body) await upload.append(request.body as Readable, fctx.blobs.maxBytes, bodyLength(request))
      } finally {
        // Released before the answer: the client's next chunk may come at once, to another process.
        await upload.release()
      }
      return uploadAccepted(reply, 202, upload.repoKey, image, id, upload.size)
    }

    async function finishUpload(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, id: string) {
      const { upload, principal } = await heldUpload(request, reply, repo, image, id)
      let blob: BlobInfo
      try {
        const digest = (request.query as { digest?: string }).digest
        if (!digest) throw new OciError(400, 'DIGEST_INVALID', 'digest: required to finish an upload')
        const hex = hexOf(digest)
        checkRange(request, reply, upload)
        if (request.body) await upload.append(request.body as Readable, fctx.blobs.maxBytes, bodyLength(request))
        blob = await upload.finish(hex)
      } finally {
        await upload.release()
      }
      await recordBlob(upload.repoKey, image, blob, principal)
      return blobCreated(reply, upload.repoKey, image, blob.sha256)
    }

    async function uploadStatus(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, id: string) {
      const target = await deployTarget(fctx, repo)
      await authorize(request, reply, 'deploy', target, image)
      return uploadAccepted(reply, 204, target.key, image, id, await uploads.received(id, target.key, image))
    }

    async function cancelUpload(request: FastifyRequest, reply: FastifyReply, repo: Repository, image: string, id: string) {
      const { upload } = await heldUpload(request, reply, repo, image, id)
      try {
        await upload.cancel()
      } finally {
        await upload.release()
      }
      return reply.code(204).send()
    }
  }

export const dockerFormat: Format = { type: TYPE, routes: dockerRoutes, versionFiles: imageVersionFiles, layers: dockerLayers }
export { MANIFEST_TYPES }
