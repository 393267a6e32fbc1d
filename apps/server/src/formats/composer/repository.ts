import type { Readable } from 'node:stream'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../modules/repositories/artifacts.js'
import type { Repository } from '../../modules/repositories/service.js'
import type { FormatContext } from '../types.js'
import { type ComposerPackage, distPath, keywordsOf, licensesOf, linksOf, readComposerZip } from './package.js'

export const TYPE = 'composer'

/** A version as a repository serves it: composer.json as kept, its zip's path and sha1, when it came. */
export interface StoredVersion {
  name: string
  version: string
  manifest: Record<string, unknown>
  path: string
  sha1: string
  createdAt: number
}

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
      this.fctx.blobs.pathOf(blob.sha256),
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
    const m = pkg.manifest
    try {
      await this.fctx.artifacts.recordVersion({
        repoKey: repo.key,
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
        files: [{ path, blob, mimeType: 'application/zip', lead: true }],
      })
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) await same()
      else throw error
    }
    return pkg
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
    if (repo.rclass !== 'local') return []
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
    return this.fctx.artifacts.findFile(repo.key, path)
  }

  async delete(repo: Repository, name: string, version: string): Promise<void> {
    if (!(await this.fctx.artifacts.deleteVersion(repo.key, TYPE, name, version))) {
      throw new HttpError(404, `Package ${name} version ${version} is not in ${repo.key}`)
    }
  }
}

/** A version as `p2/<name>.json` lists it: composer.json plus where to download it and its sha1. */
export function p2Entry(v: StoredVersion, repoUrl: string): Record<string, unknown> {
  return {
    ...v.manifest,
    name: v.name,
    version: v.version,
    dist: { type: 'zip', url: `${repoUrl}/${v.path}`, shasum: v.sha1 },
    time: new Date(v.createdAt).toISOString(),
  }
}
