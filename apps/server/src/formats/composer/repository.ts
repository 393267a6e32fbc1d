import type { Readable } from 'node:stream'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { resolveFile } from '../kit/files.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument } from '../kit/upstream.js'
import { type ComposerPackage, distPath, keywordsOf, licensesOf, linksOf, readComposerZip } from './package.js'

export const TYPE = 'composer'

/** A version as a repository serves it: composer.json as kept, its zip's path and sha1, when it came. */
export interface StoredVersion {
  name: string
  version: string
  manifest: Record<string, unknown>
  /** The zip's path in the repository, or, for a remote's version the upstream serves from elsewhere, its URL. */
  path: string
  sha1: string
  createdAt: number
}

const isUrl = (path: string) => /^https?:\/\//.test(path)

/** What a version's `metadata` column keeps. */
interface ComposerVersionMetadata {
  manifest: Record<string, unknown>
}

/** Composer repositories over Trove's repositories: uploads, the versions the metadata lists, files. */
export class ComposerRepository {
  constructor(private readonly fctx: FormatContext) {}

  /**
   * Stores an uploaded package zip and records its version. The same zip again succeeds (a retry);
   * another one under a stored version is refused with 409.
   */
  async upload(repo: Repository, body: Readable | Buffer, user: string | null, queryVersion?: string): Promise<ComposerPackage> {
    const blob = await this.fctx.blobs.put(body)
    const pkg = await readComposerZip(
      await this.fctx.blobs.localFile(blob.sha256),
      this.fctx.config.repositories.archiveMaxExpandedBytes,
      queryVersion,
    )
    const path = distPath(pkg.name, pkg.version)
    const same = async () => {
      const stored = await this.fctx.artifacts.findFile(repo.key, path)
      if (stored?.sha256 !== blob.sha256) {
        throw new HttpError(409, `Package ${pkg.name} version ${pkg.version} already exists in ${repo.key}`)
      }
    }
    if (await this.fctx.artifacts.findVersion(repo.key, TYPE, pkg.name, pkg.version)) {
      await same()
      return pkg
    }
    try {
      await this.record(repo.key, pkg, blob, user, path)
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) await same()
      else throw error
    }
    return pkg
  }

  private async record(
    repoKey: string,
    pkg: ComposerPackage,
    blob: Awaited<ReturnType<FormatContext['blobs']['put']>>,
    user: string | null,
    path: string,
    createdAt?: number,
  ): Promise<void> {
    const m = pkg.manifest
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: TYPE,
      name: pkg.name,
      version: pkg.version,
      description: typeof m.description === 'string' ? m.description : '',
      readme: pkg.readme,
      licenses: licensesOf(m),
      tags: keywordsOf(m),
      dependencies: [
        ...linksOf(m, 'require').map(([name, range]) => ({ name, range, scope: 'runtime' })),
        ...linksOf(m, 'require-dev').map(([name, range]) => ({ name, range, scope: 'dev' })),
      ],
      metadata: { manifest: m } satisfies ComposerVersionMetadata,
      createdBy: user,
      createdAt,
      files: [{ path, blob, mimeType: 'application/zip', lead: true }],
    })
  }

  /**
   * The package names a repository holds, for packages.json's `available-packages`: undefined when
   * a remote's upstream does not say (then Composer must ask for every name).
   */
  async names(repo: Repository, seen = new Set<string>()): Promise<string[] | undefined> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass === 'remote') {
      const root = await this.remoteRoot(repo)
      const listed = root?.['available-packages']
      return Array.isArray(listed) ? listed.filter((n): n is string => typeof n === 'string') : undefined
    }
    if (repo.rclass === 'virtual') {
      const all = new Set<string>()
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        if (member?.packageType !== TYPE) continue
        const names = await this.names(member, seen)
        if (names === undefined) return undefined
        for (const n of names) all.add(n)
      }
      return [...all].sort()
    }
    const rows = await this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select('p.name')
      .distinct()
      .where('v.repo_key', '=', repo.key)
      .where('p.package_type', '=', TYPE)
      .execute()
    return rows.map((r) => r.name).sort()
  }

  /** The versions a repository serves, of one package or all: a local's own, a virtual's members' (first member wins). */
  async versions(repo: Repository, name?: string, seen = new Set<string>()): Promise<StoredVersion[]> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass === 'virtual') {
      const all: StoredVersion[] = []
      const have = new Set<string>()
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        if (member?.packageType !== TYPE) continue
        for (const v of await this.versions(member, name, seen)) {
          const id = `${v.name}\0${v.version}`
          if (have.has(id)) continue
          have.add(id)
          all.push(v)
        }
      }
      return all
    }
    if (repo.rclass === 'remote') return name === undefined ? [] : this.remoteVersions(repo, name)
    let query = this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .innerJoin('files as f', 'f.version_id', 'v.id')
      .select(['p.name', 'v.version', 'v.metadata', 'v.created_at', 'f.path', 'f.sha1'])
      .where('v.repo_key', '=', repo.key)
      .where('p.package_type', '=', TYPE)
      .where('f.lead', '=', 1)
    if (name !== undefined) query = query.where('p.name', '=', name)
    const rows = await query.orderBy('v.created_at').orderBy('v.id').execute()
    return rows.map((r) => ({
      name: r.name,
      version: r.version,
      manifest: (JSON.parse(r.metadata) as ComposerVersionMetadata).manifest,
      path: r.path,
      sha1: r.sha1,
      createdAt: Number(r.created_at),
    }))
  }

  /** A stored zip by its path: a local's own, a virtual's first member's. */
  async file(repo: Repository, path: string): Promise<FileRow | undefined> {
    if (repo.rclass === 'virtual') {
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        const found = member?.packageType === TYPE ? await this.file(member, path) : undefined
        if (found) return found
      }
      return undefined
    }
    if (repo.rclass === 'local') return this.fctx.artifacts.findFile(repo.key, path)
    const cached = await this.fctx.artifacts.findFile(repo.key, path)
    const file = await resolveFile(this.fctx, repo, path)
    if (file && !cached && file.version_id === null && path.endsWith('.zip')) {
      // A zip the remote just fetched: record its version, as an upload would. The version is the
      // one the upstream's metadata gives for this path (the zip's composer.json may name none).
      const name = path.split('/').slice(0, 2).join('/')
      const listed = (await this.remoteVersions(repo, name)).find((v) => v.path === path)
      if (listed) {
        try {
          const pkg = await readComposerZip(
            await this.fctx.blobs.localFile(file.sha256),
            this.fctx.config.repositories.archiveMaxExpandedBytes,
            listed.version,
          )
          const blob = { sha256: file.sha256, sha1: file.sha1, md5: file.md5, size: file.size }
          await this.record(repo.key, pkg, blob, null, path, listed.createdAt)
        } catch (error) {
          // Another request recorded it first, or the upstream's zip is not one Trove reads.
          if (!(error instanceof HttpError)) throw error
        }
        return this.fctx.artifacts.findFile(repo.key, path)
      }
    }
    return file
  }

  async delete(repo: Repository, name: string, version: string): Promise<void> {
    if (!(await this.fctx.artifacts.deleteVersion(repo.key, TYPE, name, version))) {
      throw new HttpError(404, `Package ${name} version ${version} is not in ${repo.key}`)
    }
  }

  /** A remote's upstream packages.json, kept for the metadata cache lifetime. */
  private async remoteRoot(repo: Repository): Promise<Record<string, unknown> | undefined> {
    const base = (repo.url ?? '').replace(/\/+$/, '')
    const doc = await upstreamDocument(this.fctx, repo, {
      path: 'packages.json',
      url: `${base}/packages.json`,
      accept: 'application/json',
      convert: (text) => {
        try {
          const parsed = JSON.parse(text) as unknown
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return text
        } catch {}
        throw new HttpError(502, `The upstream of ${repo.key} answered a packages.json that is not a JSON object`)
      },
    })
    return doc === undefined ? undefined : (JSON.parse(doc) as Record<string, unknown>)
  }

  /**
   * A remote's versions of one package: the upstream's `metadata-url` files (stable and dev), kept
   * for the metadata cache lifetime. Zips under the upstream's own URL become paths in the remote
   * (served and cached by it); others stay absolute URLs.
   */
  private async remoteVersions(repo: Repository, name: string): Promise<StoredVersion[]> {
    const base = (repo.url ?? '').replace(/\/+$/, '')
    const root = await this.remoteRoot(repo)
    const template = typeof root?.['metadata-url'] === 'string' ? root['metadata-url'] : '/p2/%package%.json'
    const metadataUrl = template.startsWith('/')
      ? // Composer reads a metadata-url with a leading slash against the repository's origin; a
        // missing one means the upstream's own p2/ folder.
        `${typeof root?.['metadata-url'] === 'string' ? new URL(base).origin : base}${template}`
      : template
    const all: StoredVersion[] = []
    for (const file of [name, `${name}~dev`]) {
      const doc = await upstreamDocument(this.fctx, repo, {
        path: `p2/${file}.json`,
        url: metadataUrl.replace('%package%', file),
        accept: 'application/json',
        convert: (text) => JSON.stringify(upstreamVersions(text, name, `${base}/`, repo.key)),
      })
      if (doc !== undefined) all.push(...(JSON.parse(doc) as StoredVersion[]))
    }
    return all
  }
}

/** A version as `p2/<name>.json` lists it: composer.json plus where to download it and its sha1. */
export function p2Entry(v: StoredVersion, repoUrl: string): Record<string, unknown> {
  return {
    ...v.manifest,
    name: v.name,
    version: v.version,
    dist: { type: 'zip', url: isUrl(v.path) ? v.path : `${repoUrl}/${v.path}`, shasum: v.sha1 },
    time: new Date(v.createdAt).toISOString(),
  }
}

/** Composer 2's minified metadata: each version lists only what changed from the one before ('__unset' drops a key). */
function expandMinified(versions: Record<string, unknown>[]): Record<string, unknown>[] {
  let previous: Record<string, unknown> = {}
  return versions.map((v) => {
    const expanded = { ...previous }
    for (const [key, value] of Object.entries(v)) {
      if (value === '__unset') delete expanded[key]
      else expanded[key] = value
    }
    previous = expanded
    return expanded
  })
}

/** An upstream's `p2/<name>.json` as the versions a remote serves. */
function upstreamVersions(text: string, name: string, base: string, repoKey: string): StoredVersion[] {
  let doc: { packages?: Record<string, unknown>; minified?: unknown }
  try {
    doc = JSON.parse(text)
  } catch {
    throw new HttpError(502, `The upstream of ${repoKey} answered metadata of ${name} that is not JSON`)
  }
  const listed = doc?.packages?.[name]
  if (!Array.isArray(listed)) return []
  const entries = listed.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v))
  const versions = doc.minified === 'composer/2.0' ? expandMinified(entries) : entries
  return versions.flatMap((v) => {
    const dist = v.dist as { url?: unknown; shasum?: unknown } | undefined
    if (typeof v.version !== 'string' || typeof dist?.url !== 'string') return []
    const { dist: _dist, time, ...manifest } = v
    const url = dist.url
    const created = typeof time === 'string' ? Date.parse(time) : Number.NaN
    return [
      {
        name,
        version: v.version,
        manifest,
        path: url.startsWith(base) ? url.slice(base.length) : url,
        sha1: typeof dist.shasum === 'string' ? dist.shasum : '',
        createdAt: Number.isNaN(created) ? Date.now() : created,
      },
    ]
  })
}
