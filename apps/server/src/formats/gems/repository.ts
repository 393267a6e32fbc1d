import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { resolveFile } from '../kit/files.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument } from '../kit/upstream.js'
import { type GemSpec, gemFileName, quickGemspec, readGem, requirementText } from './gem.js'

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
    const spec = await readGem(
      await this.fctx.blobs.localFile(blob.sha256),
      this.fctx.config.repositories.archiveMaxExpandedBytes,
    )
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
      await this.record(repo.key, spec, path, blob, user)
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) await same()
      else throw error
    }
    return spec
  }

  /** Records a gem version with its file (stored already): summary, description, licences, dependencies, the spec. */
  private async record(
    repoKey: string,
    spec: GemSpec,
    path: string,
    blob: { sha256: string; sha1: string; md5: string; size: number },
    user: string | null,
  ) {
    await this.fctx.artifacts.recordVersion({
      repoKey,
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
  }

  /** The local and remote repositories a repository serves from, in order (a virtual's members, nested ones flattened). */
  private async sources(repo: Repository, seen = new Set<string>()): Promise<Repository[]> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass !== 'virtual') return [repo]
    const out: Repository[] = []
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType === TYPE) out.push(...(await this.sources(member, seen)))
    }
    return out
  }

  /**
   * The compact index of a repository by gem name: each name's versions (`1.0.0`,
   * `1.0.0-x86_64-linux`) and the md5 of its info file. A local's from its gems, a remote's its
   * upstream's `versions` file, a virtual's merged (a version is the first member's; a name more
   * than one member holds gets an info file merged from theirs, and that file's md5).
   */
  async compactIndex(repo: Repository): Promise<Map<string, { versions: string[]; md5: string }>> {
    const perSource: { source: Repository; index: Map<string, { versions: string[]; md5: string }> }[] = []
    for (const source of await this.sources(repo)) perSource.push({ source, index: await this.sourceIndex(source) })
    if (perSource.length === 1) return perSource[0]?.index ?? new Map()
    const merged = new Map<string, { versions: string[]; md5: string; holders: number }>()
    for (const { index } of perSource) {
      for (const [name, entry] of index) {
        const known = merged.get(name)
        if (!known) merged.set(name, { ...entry, holders: 1 })
        else {
          for (const v of entry.versions) if (!known.versions.includes(v)) known.versions.push(v)
          known.holders++
        }
      }
    }
    const out = new Map<string, { versions: string[]; md5: string }>()
    for (const [name, entry] of merged) {
      let md5 = entry.md5
      if (entry.holders > 1)
        md5 = crypto
          .createHash('md5')
          .update((await this.info(repo, name)) ?? '')
          .digest('hex')
      out.set(name, { versions: entry.versions, md5 })
    }
    return out
  }

  private async sourceIndex(source: Repository): Promise<Map<string, { versions: string[]; md5: string }>> {
    if (source.rclass === 'remote') {
      const text = await this.upstreamText(source, 'versions')
      return text === undefined ? new Map() : parseVersionsFile(text)
    }
    const byName = new Map<string, StoredGem[]>()
    for (const gem of await this.gems(source)) byName.set(gem.spec.name, [...(byName.get(gem.spec.name) ?? []), gem])
    const out = new Map<string, { versions: string[]; md5: string }>()
    for (const [name, list] of byName) {
      const md5 = crypto.createHash('md5').update(infoFile(list)).digest('hex')
      out.set(name, { versions: list.map(({ spec }) => versionKey(spec)), md5 })
    }
    return out
  }

  /**
   * The compact index's info file of one gem, or undefined when no source has it: a local's made
   * from its gems, a remote's its upstream's as sent; in a virtual, one source's file as it is,
   * several sources' lines merged (first source wins per version).
   */
  async info(repo: Repository, name: string): Promise<string | undefined> {
    const texts: string[] = []
    for (const source of await this.sources(repo)) {
      if (source.rclass === 'remote') {
        const text = await this.upstreamText(source, `info/${name}`)
        if (text !== undefined) texts.push(text)
        continue
      }
      const list = (await this.gems(source)).filter((g) => g.spec.name === name)
      if (list.length > 0) texts.push(infoFile(list))
    }
    if (texts.length <= 1) return texts[0]
    const lines = new Map<string, string>()
    for (const text of texts) {
      for (const line of text.split('\n')) {
        if (line === '' || line === '---') continue
        const version = line.split(' ')[0] ?? ''
        if (!lines.has(version)) lines.set(version, line)
      }
    }
    return `---\n${[...lines.values()].map((l) => `${l}\n`).join('')}`
  }

  /**
   * What the Marshal specs indexes list: name, version and platform of every version served (the
   * compact index's versions, split as Bundler splits them: `<version>-<platform>`).
   */
  async specTuples(repo: Repository): Promise<{ name: string; version: string; platform: string }[]> {
    const out: { name: string; version: string; platform: string }[] = []
    for (const [name, { versions }] of await this.compactIndex(repo)) {
      for (const key of versions) {
        const dash = key.indexOf('-')
        out.push(
          dash === -1
            ? { name, version: key, platform: 'ruby' }
            : { name, version: key.slice(0, dash), platform: key.slice(dash + 1) },
        )
      }
    }
    return out
  }

  /**
   * A quick gemspec (`<name>-<version>[-<platform>].gemspec.rz`): a local's made from the stored
   * spec, a remote's its upstream's, cached as a file (a spec never changes under its version).
   */
  async quickSpec(repo: Repository, file: string): Promise<Buffer | FileRow | undefined> {
    for (const source of await this.sources(repo)) {
      if (source.rclass === 'remote') {
        const found = await resolveFile(this.fctx, source, `quick/Marshal.4.8/${file}`)
        if (found) return found
        continue
      }
      const gem = (await this.gems(source)).find((g) => g.file === `gems/${file.replace(/\.gemspec\.rz$/, '')}.gem`)
      if (gem) return quickGemspec(gem.spec)
    }
    return undefined
  }

  /** A document of a remote's upstream (`versions`, `info/<name>`, `names`), kept for the metadata cache lifetime. */
  private async upstreamText(repo: Repository, path: string): Promise<string | undefined> {
    const base = (repo.url ?? '').replace(/\/+$/, '')
    return upstreamDocument(this.fctx, repo, {
      path,
      url: `${base}/${path.split('/').map(encodeURIComponent).join('/')}`,
      accept: 'text/plain',
      convert: (text) => {
        if (text.startsWith('<'))
          throw new HttpError(502, `The upstream of ${repo.key} answered ${path} with a page, not a compact index`)
        return text
      },
    })
  }

  /** Every gem version a local repository holds, oldest first. */
  async gems(repo: Repository): Promise<StoredGem[]> {
    if (repo.rclass !== 'local') return []
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

  /**
   * A gem file by its path (`gems/<file>.gem`): a local's own; a remote's cached copy, fetched
   * from its upstream on first download and recorded as a version (summary, description,
   * licences, dependencies from its gemspec); a virtual's first member's.
   */
  async file(repo: Repository, path: string): Promise<FileRow | undefined> {
    for (const source of await this.sources(repo)) {
      if (source.rclass === 'local') {
        const found = await this.fctx.artifacts.findFile(source.key, path)
        if (found) return found
        continue
      }
      const found = await resolveFile(this.fctx, source, path)
      if (!found) continue
      if (found.version_id === null) return this.recordCached(source, found)
      return found
    }
    return undefined
  }

  /** Records a gem a remote just cached; one that is not a gem Trove reads is dropped (502). */
  private async recordCached(repo: Repository, file: FileRow): Promise<FileRow | undefined> {
    let spec: GemSpec
    try {
      spec = await readGem(await this.fctx.blobs.localFile(file.sha256), this.fctx.config.repositories.archiveMaxExpandedBytes)
    } catch (error) {
      await this.fctx.artifacts.deleteFile(repo.key, file.path)
      throw new HttpError(
        502,
        `The upstream of ${repo.key} sent ${file.path}, which is not a gem Trove reads: ${(error as Error).message}`,
      )
    }
    if (`gems/${gemFileName(spec)}` !== file.path) {
      await this.fctx.artifacts.deleteFile(repo.key, file.path)
      throw new HttpError(502, `The upstream of ${repo.key} sent ${gemFileName(spec)} for ${file.path}`)
    }
    try {
      const blob = { sha256: file.sha256, sha1: file.sha1, md5: file.md5, size: Number(file.size) }
      await this.record(repo.key, spec, file.path, blob, null)
    } catch (error) {
      // Another download recorded it first.
      if (!(error instanceof HttpError && error.status === 409)) throw error
    }
    return this.fctx.artifacts.findFile(repo.key, file.path)
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
export function versionsFile(index: Map<string, { versions: string[]; md5: string }>, createdAt: Date): string {
  const lines = [...index.entries()]
    .filter(([, { versions }]) => versions.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, { versions, md5 }]) => `${name} ${versions.join(',')} ${md5}`)
  return `created_at: ${createdAt.toISOString()}\n---\n${lines.map((l) => `${l}\n`).join('')}`
}

/**
 * Reads a compact index `versions` file as its server appends it: a line per name, and later
 * lines for the same name adding versions (`-1.0.0` removes a yanked one) and giving the info
 * file's new md5.
 */
export function parseVersionsFile(text: string): Map<string, { versions: string[]; md5: string }> {
  const out = new Map<string, { versions: string[]; md5: string }>()
  const body = text.indexOf('\n---\n')
  for (const line of (body === -1 ? text : text.slice(body + 5)).split('\n')) {
    const [name, list, md5] = line.trim().split(' ')
    if (!name || list === undefined || md5 === undefined) continue
    const entry = out.get(name) ?? { versions: [], md5 }
    for (const v of list.split(',')) {
      if (v.startsWith('-')) entry.versions = entry.versions.filter((x) => x !== v.slice(1))
      else if (v && !entry.versions.includes(v)) entry.versions.push(v)
    }
    entry.md5 = md5
    out.set(name, entry)
  }
  return out
}
