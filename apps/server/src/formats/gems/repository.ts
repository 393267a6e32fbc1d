import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../modules/repositories/artifacts.js'
import type { Repository } from '../../modules/repositories/service.js'
import type { FormatContext } from '../types.js'
import { type GemSpec, gemFileName, readGem, requirementText } from './gem.js'

export const TYPE = 'gems'

/** A gem version as a repository holds it: its spec, the file and the file's sha256. */
export interface StoredGem {
  spec: GemSpec
  file: string
  sha256: string
}

/** The version key a gem version is recorded under: its version, and its platform when not plain Ruby. */
const versionKey = (spec: Pick<GemSpec, 'version' | 'platform'>) =>
  spec.platform === 'ruby' ? spec.version : `${spec.version}-${spec.platform}`

/** RubyGems repositories over Trove's repositories: pushes, the indexes' data, files. */
export class GemsRepository {
  constructor(private readonly fctx: FormatContext) {}

  /**
   * Stores a pushed `.gem` and records its version. The same file again succeeds (a retry);
   * another under a stored version is refused with 409, as rubygems.org refuses a repush.
   */
  async push(repo: Repository, body: Readable | Buffer, user: string | null): Promise<GemSpec> {
    const blob = await this.fctx.blobs.put(body)
    const spec = await readGem(this.fctx.blobs.pathOf(blob.sha256), this.fctx.config.repositories.archiveMaxExpandedBytes)
    const path = `gems/${gemFileName(spec)}`
    const same = async () => {
      const stored = await this.fctx.artifacts.findFile(repo.key, path)
      if (stored?.sha256 !== blob.sha256) {
        throw new HttpError(409, `Repushing of gem versions is not allowed: ${spec.name} ${versionKey(spec)} is in ${repo.key}`)
      }
    }
    if (await this.fctx.artifacts.findVersion(repo.key, TYPE, spec.name, versionKey(spec))) {
      await same()
      return spec
    }
    try {
      await this.fctx.artifacts.recordVersion({
        repoKey: repo.key,
        packageType: TYPE,
        name: spec.name,
        version: versionKey(spec),
        description: spec.summary,
        readme: spec.description || null,
        licenses: spec.licenses,
        dependencies: spec.dependencies.map((d) => ({ name: d.name, range: requirementText(d.requirement), scope: d.type })),
        metadata: { spec },
        createdBy: user,
        files: [{ path, blob, mimeType: 'application/octet-stream', lead: true }],
      })
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) await same()
      else throw error
    }
    return spec
  }

  /** Every gem version a repository serves: a local's own, a virtual's members' (first member wins). */
  async gems(repo: Repository, seen = new Set<string>()): Promise<StoredGem[]> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass === 'virtual') {
      const all: StoredGem[] = []
      const have = new Set<string>()
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        if (member?.packageType !== TYPE) continue
        for (const gem of await this.gems(member, seen)) {
          if (have.has(gem.file)) continue
          have.add(gem.file)
          all.push(gem)
        }
      }
      return all
    }
    const rows = await this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .innerJoin('files as f', 'f.version_id', 'v.id')
      .select(['v.metadata', 'f.path', 'f.sha256'])
      .where('v.repo_key', '=', repo.key)
      .where('p.package_type', '=', TYPE)
      .where('f.lead', '=', 1)
      .orderBy('v.created_at')
      .orderBy('v.id')
      .execute()
    return rows.map((r) => ({ spec: (JSON.parse(r.metadata) as { spec: GemSpec }).spec, file: r.path, sha256: r.sha256 }))
  }

  /** A stored gem file by its path (`gems/<file>.gem`): a local's own, a virtual's first member's. */
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

  /** `gem yank`: the version leaves the indexes and its file goes. */
  async yank(repo: Repository, name: string, version: string, platform = 'ruby'): Promise<void> {
    if (!(await this.fctx.artifacts.deleteVersion(repo.key, TYPE, name, versionKey({ version, platform })))) {
      throw new HttpError(404, `The version ${version} of ${name} is not in ${repo.key}`)
    }
  }
}

/** The compact index's info file of a gem (`/info/<name>`), versions oldest first. */
export function infoFile(gems: StoredGem[]): string {
  const lines = gems.map(({ spec, sha256 }) => {
    const deps = spec.dependencies
      .filter((d) => d.type === 'runtime')
      .map((d) => `${d.name}:${requirementText(d.requirement)}`)
      .join(',')
    const requirements = [`checksum:${sha256}`]
    const ruby = requirementText(spec.requiredRubyVersion)
    if (ruby && ruby !== '>= 0') requirements.push(`ruby:${ruby}`)
    const rubygems = requirementText(spec.requiredRubygemsVersion)
    if (rubygems && rubygems !== '>= 0') requirements.push(`rubygems:${rubygems}`)
    return `${versionKey(spec)} ${deps}|${requirements.join(',')}`
  })
  return `---\n${lines.map((l) => `${l}\n`).join('')}`
}

/** The compact index's versions file: each gem's versions and the md5 of its info file. */
export function versionsFile(gems: StoredGem[], createdAt: Date): string {
  const byName = new Map<string, StoredGem[]>()
  for (const gem of gems) byName.set(gem.spec.name, [...(byName.get(gem.spec.name) ?? []), gem])
  const lines = [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => {
      const md5 = crypto.createHash('md5').update(infoFile(list)).digest('hex')
      return `${name} ${list.map(({ spec }) => versionKey(spec)).join(',')} ${md5}`
    })
  return `created_at: ${createdAt.toISOString()}\n---\n${lines.map((l) => `${l}\n`).join('')}`
}
