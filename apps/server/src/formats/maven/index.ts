import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import { HttpError } from '../../core/errors.js'
import type { FileRow, NewFile } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import {
  authorize,
  authorizeOverwrite,
  bodyLength,
  declaredChecksums,
  deployTarget,
  mimeOf,
  resolveFile,
  sendListingOr404,
} from '../kit/files.js'
import { readBody } from '../kit/http.js'
import type { Format, FormatContext, PathHandler } from '../kit/types.js'
import {
  artifactMetadata,
  checksumOf,
  isMetadataPath,
  isSnapshot,
  type MavenPath,
  parseArtifactPath,
  readPom,
  snapshotMetadata,
  snapshotParts,
} from './metadata.js'

const PACKAGING_EXTENSION: Record<string, string> = { pom: 'pom', war: 'war', ear: 'ear', aar: 'aar', rar: 'rar', zip: 'zip' }

/** Maven repositories: deploy by PUT (checksums verified), resolve, maven-metadata.xml kept by Trove. */
class MavenRepository {
  constructor(private readonly fctx: FormatContext) {}

  private async storeText(repoKey: string, path: string, text: string) {
    const blob = await this.fctx.blobs.put(text)
    await this.fctx.db.kysely
      .transaction()
      .execute((tx) => this.fctx.artifacts.putFile(tx, repoKey, { path, blob, mimeType: 'application/xml' }))
  }

  /** Rewrites the artifact's maven-metadata.xml (and the snapshot version's) from the files stored. */
  async refreshMetadata(repoKey: string, coords: MavenPath): Promise<void> {
    const files = await this.fctx.artifacts.listFiles(repoKey, coords.artifactDir)
    const versions = new Set<string>()
    for (const f of files) {
      const rest = f.path.slice(coords.artifactDir.length + 1).split('/')
      // A version is listed once its POM is stored: Maven deploys the POM after the other files, so
      // until then (or if the deploy died on the way) a client would resolve a version without it.
      if (rest.length === 2 && rest[0] && rest[1]?.endsWith('.pom')) versions.add(rest[0])
    }
    const artifactMeta = `${coords.artifactDir}/maven-metadata.xml`
    if (versions.size === 0) await this.fctx.artifacts.deleteFile(repoKey, artifactMeta)
    else await this.storeText(repoKey, artifactMeta, artifactMetadata(coords.groupId, coords.artifactId, [...versions]))
    if (isSnapshot(coords.version)) {
      const inVersion = files
        .filter((f) => f.path.startsWith(`${coords.versionDir}/`) && !isMetadataPath(f.path))
        .map((f) => f.name)
      const versionMeta = `${coords.versionDir}/maven-metadata.xml`
      if (inVersion.length === 0) await this.fctx.artifacts.deleteFile(repoKey, versionMeta)
      else
        await this.storeText(repoKey, versionMeta, snapshotMetadata(coords.groupId, coords.artifactId, coords.version, inVersion))
    }
  }

  /** After files under these paths were added or removed: each version folder's record and metadata again. */
  async filesChanged(repo: Repository, paths: string[]): Promise<void> {
    const touched = new Map<string, MavenPath>()
    for (const p of paths) {
      const coords = parseArtifactPath(p)
      if (coords) touched.set(coords.versionDir, coords)
    }
    for (const coords of touched.values()) {
      await this.recordVersion(repo.key, coords, null)
      await this.refreshMetadata(repo.key, coords)
    }
  }

  /** Records (or re-records) the package version a version folder holds, reading its POM. */
  async recordVersion(repoKey: string, coords: MavenPath, createdBy: string | null): Promise<void> {
    const name = `${coords.groupId}:${coords.artifactId}`
    const files = (await this.fctx.artifacts.listFiles(repoKey, coords.versionDir)).filter(
      (f) =>
        !isMetadataPath(f.path) && !checksumOf(f.path) && f.path.split('/').length === coords.versionDir.split('/').length + 1,
    )
    if (files.length === 0) {
      await this.fctx.artifacts.deleteVersion(repoKey, 'maven', name, coords.version)
      return
    }
    // For a snapshot, the newest build's files are the version's face.
    const newestBuild = (f: FileRow) => snapshotParts(coords.artifactId, coords.version, f.name)?.buildNumber ?? 0
    const poms = files.filter((f) => f.name.endsWith('.pom')).sort((a, b) => newestBuild(b) - newestBuild(a))
    const pom = poms[0] ? readPom(await this.fctx.blobs.readText(poms[0].sha256)) : undefined
    const ext = PACKAGING_EXTENSION[pom?.packaging ?? 'jar'] ?? 'jar'
    const plain = (f: FileRow) => {
      if (isSnapshot(coords.version)) {
        const p = snapshotParts(coords.artifactId, coords.version, f.name)
        return p !== undefined && p.classifier === '' && p.extension === ext
      }
      return f.name === `${coords.artifactId}-${coords.version}.${ext}`
    }
    const leadFile = files.filter(plain).sort((a, b) => newestBuild(b) - newestBuild(a))[0] ?? poms[0]
    const newFiles: NewFile[] = files.map((f) => ({
      path: f.path,
      name: f.name,
      blob: { sha256: f.sha256, sha1: f.sha1, md5: f.md5, size: f.size },
      mimeType: f.mime_type,
      lead: f.id === leadFile?.id,
    }))
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: 'maven',
      name,
      version: coords.version,
      description: pom?.description ?? pom?.name ?? '',
      readme: pom?.description ?? null,
      licenses: pom?.licenses ?? [],
      dependencies: pom?.dependencies ?? [],
      metadata: { groupId: coords.groupId, artifactId: coords.artifactId, packaging: pom?.packaging ?? 'jar' },
      createdBy,
      files: newFiles,
      overwrite: true,
    })
  }

  private async checksumText(file: FileRow, algorithm: string): Promise<string> {
    if (algorithm === 'sha1') return (await this.fctx.blobs.checksums(file)).sha1
    if (algorithm === 'md5') return (await this.fctx.blobs.checksums(file)).md5
    if (algorithm === 'sha256') return file.sha256
    const hash = crypto.createHash(algorithm)
    for await (const chunk of this.fctx.blobs.open(file.sha256)) hash.update(chunk as Buffer)
    return hash.digest('hex')
  }

  handler(): PathHandler {
    const fctx = this.fctx
    return async (request, reply, repo, path) => {
      if (request.method === 'GET' || request.method === 'HEAD') {
        await authorize(fctx, request, 'read', repo.key)
        const checksum = checksumOf(path)
        if (checksum) {
          const target = await resolveFile(fctx, repo, checksum.target, { isMetadata: isMetadataPath })
          if (!target) throw new HttpError(404, `${path} not found in ${repo.key}`)
          const text = await this.checksumText(target, checksum.algorithm)
          return reply
            .type('text/plain')
            .header('content-length', text.length)
            .send(request.method === 'HEAD' ? undefined : text)
        }
        const file = await resolveFile(fctx, repo, path, { isMetadata: isMetadataPath })
        if (!file) return sendListingOr404(fctx, reply, repo, path)
        return fctx.artifacts.sendFile(request, reply, file, { count: !isMetadataPath(path) })
      }
      const target = await deployTarget(fctx, repo)
      if (request.method === 'PUT') return this.put(request, reply, target, path)
      if (request.method === 'DELETE') {
        await authorize(fctx, request, 'delete', target.key)
        const exact = await fctx.artifacts.findFile(target.key, path)
        const under = exact ? [exact] : await fctx.artifacts.listFiles(target.key, path.replace(/\/+$/, ''))
        if (under.length === 0) throw new HttpError(404, `${path} not found in ${target.key}`)
        await fctx.db.kysely.transaction().execute(async (tx) => {
          for (const f of under) await fctx.artifacts.deleteFile(target.key, f.path, tx)
        })
        await this.filesChanged(
          target,
          under.map((f) => f.path),
        )
        return reply.code(204).send()
      }
      throw new HttpError(405, `${request.method} is not supported here`)
    }
  }

  private async put(request: Parameters<PathHandler>[0], reply: Parameters<PathHandler>[1], repo: Repository, path: string) {
    const fctx = this.fctx
    const principal = await authorize(fctx, request, 'deploy', repo.key)
    const body = (request.body as Readable | undefined) ?? Buffer.alloc(0)
    if (isMetadataPath(path)) {
      // Trove keeps maven-metadata.xml itself, from what is stored; the client's copy is not needed.
      await readBody(body as NodeJS.ReadableStream, 1024 * 1024)
      return reply.code(201).send()
    }
    const checksum = checksumOf(path)
    if (checksum) {
      const text =
        (await readBody(body as NodeJS.ReadableStream, 4096)).toString('utf8').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
      if (isMetadataPath(checksum.target)) return reply.code(201).send()
      const target = await fctx.artifacts.findFile(repo.key, checksum.target)
      if (!target) throw new HttpError(404, `${checksum.target} not found in ${repo.key}`)
      const actual = await this.checksumText(target, checksum.algorithm)
      if (text !== actual) {
        // The file arrived damaged: take it away again, so nothing wrong stays visible.
        await fctx.artifacts.deleteFile(repo.key, target.path)
        const coords = parseArtifactPath(target.path)
        if (coords) {
          await this.recordVersion(repo.key, coords, null)
          await this.refreshMetadata(repo.key, coords)
        }
        throw new HttpError(
          400,
          `Checksum mismatch: the ${checksum.algorithm} declared for ${checksum.target} is ${text} but the content's is ${actual}`,
        )
      }
      return reply.code(201).send()
    }
    const coords = parseArtifactPath(path)
    // A snapshot's files are replaced by every build; anything else stays unless the caller may delete.
    const replace = coords && isSnapshot(coords.version) ? true : await authorizeOverwrite(fctx, request, repo, path)
    const blob = await fctx.blobs.put(body, declaredChecksums(request), { length: bodyLength(request) })
    if (!coords) {
      await fctx.db.kysely
        .transaction()
        .execute((tx) =>
          fctx.artifacts.putFile(tx, repo.key, { path, blob, mimeType: mimeOf(path) }, { createdBy: principal?.name, replace }),
        )
      return reply.code(201).send()
    }
    await fctx.db.kysely
      .transaction()
      .execute((tx) =>
        fctx.artifacts.putFile(
          tx,
          repo.key,
          { path, blob, mimeType: path.endsWith('.pom') ? 'application/xml' : mimeOf(path) },
          { createdBy: principal?.name, replace },
        ),
      )
    await this.recordVersion(repo.key, coords, principal?.name ?? null)
    await this.refreshMetadata(repo.key, coords)
    return reply.code(201).send()
  }
}

export const mavenFormat: Format = {
  ecosystem: 'Maven',
  type: 'maven',
  paths: (fctx) => new MavenRepository(fctx).handler(),
  filesChanged: (fctx) => {
    const maven = new MavenRepository(fctx)
    return (repo, paths) => maven.filesChanged(repo, paths)
  },
}
