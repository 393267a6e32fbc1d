import type { BlobInfo } from '../../core/blobStore.js'
import { HttpError } from '../../core/errors.js'
import type { Dependency, FileRow, NewFile } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { readZip } from '../kit/archive.js'
import { resolveFile } from '../kit/files.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument } from '../kit/upstream.js'
import {
  compareGoVersions,
  describeReadme,
  detectLicense,
  escapeCase,
  isPseudoVersion,
  latestOf,
  modulePathProblem,
  parseGoMod,
  parseGoVersion,
  unescapeCase,
  versionProblem,
} from './module.js'
import { isSourceTree, moduleZipFromSource } from './sourceZip.js'

export type GoExt = 'info' | 'mod' | 'zip'

/** What `package_versions.metadata` holds for a Go module version. */
export interface GoVersionMetadata {
  module: string
  version: string
  /** The go directive of go.mod, if any. */
  go: string | null
  /** The zip held no go.mod: the .mod served is `module <path>` (legacy and +incompatible modules). */
  synthesizedMod: boolean
  pseudo: boolean
  incompatible: boolean
  /** The .info's Time. */
  time: string
}

/** Where a version's file lives: the GOPROXY layout, `<escaped module>/@v/<escaped version>.<ext>`. */
export const goFilePath = (module: string, version: string, ext: GoExt) =>
  `${escapeCase(module)}/@v/${escapeCase(version)}.${ext}`

/** What Trove reads from a module zip, after checking it as Go's module zips are checked. */
export interface ZipFacts {
  goMod: string | null
  readme: string | null
  license: string | null
}

const README = /^README(?:\.(?:md|markdown|txt|rst))?$/i
const LICENSE = /^(?:LICEN[CS]E|COPYING)(?:\.(?:md|txt))?$/i

/** Checks a module or version named by a client; 400 with Go's reason. */
export function checkModuleVersion(module: string, version: string): void {
  const pathProblem = modulePathProblem(module)
  if (pathProblem) throw new HttpError(400, `module: malformed module path ${JSON.stringify(module)}: ${pathProblem}`)
  const problem = versionProblem(module, version)
  if (problem) throw new HttpError(400, `version: invalid version ${JSON.stringify(version)} for ${module}: ${problem}`)
}

/** Go module repositories over Trove's repositories: the GOPROXY answers, publishing, remote caching. */
export class GoRepository {
  constructor(private readonly fctx: FormatContext) {}

  /**
   * Reads a stored module zip with the archive checks (`..`, absolute paths, links, expansion
   * limit) and Go's own: every entry under `<module>@<version>/`, no two names equal but for case,
   * no folder or link entries outside that root. Returns go.mod, the README and the licence.
   */
  async readModuleZip(sha256: string, module: string, version: string): Promise<ZipFacts> {
    const prefix = `${module}@${version}/`
    const seen = new Set<string>()
    const entries = await readZip(await this.fctx.blobs.localFile(sha256), {
      maxExpandedBytes: this.fctx.config.repositories.archiveMaxExpandedBytes,
      maxEntryBytes: 16 * 1024 * 1024,
      entry: (name) => {
        // The root folder's own entry is allowed, as Go's zip reader allows it; folders above it are not.
        if (!name.startsWith(prefix)) {
          throw new HttpError(400, `Refused module zip: ${JSON.stringify(name)} is not under ${prefix}`)
        }
        const folded = name.toLowerCase()
        if (seen.has(folded))
          throw new HttpError(400, `Refused module zip: ${JSON.stringify(name)} appears twice (case-insensitively)`)
        seen.add(folded)
      },
      want: (name) => {
        const rest = name.slice(prefix.length)
        return rest === 'go.mod' || README.test(rest) || LICENSE.test(rest)
      },
    })
    const at = (test: (rest: string) => boolean) =>
      [...entries.entries()]
        .filter(([n]) => test(n.slice(prefix.length)))
        .sort(([a], [b]) => a.localeCompare(b))[0]?.[1]
        ?.toString('utf8') ?? null
    return {
      goMod: at((r) => r === 'go.mod'),
      // README.md before README before README.txt: sorted, the shortest markdown name comes first.
      readme: at((r) => README.test(r)),
      license: at((r) => LICENSE.test(r)),
    }
  }

  /** Publishes a module zip already in the blob store: checks it, then records the version with its .mod, .info and .zip. */
  async publish(
    target: Repository,
    module: string,
    version: string,
    blob: BlobInfo,
    createdBy: string | null,
  ): Promise<'created' | 'same'> {
    checkModuleVersion(module, version)
    const zip = await this.fromSourceTree(blob, module, version)
    const zipPath = goFilePath(module, version, 'zip')
    const existing = await this.fctx.artifacts.findFile(target.key, zipPath)
    if (existing) {
      // The same zip again: a client retrying an upload whose answer it lost.
      if (existing.sha256 === zip.sha256) return 'same'
      throw new HttpError(409, `${module}@${version} already exists in ${target.key}`)
    }
    const facts = await this.readModuleZip(zip.sha256, module, version)
    const time = new Date().toISOString()
    await this.record(target.key, module, version, facts, { zip, time, createdBy })
    return 'created'
  }

  /**
   * A source tree uploaded in place of a module zip (`git archive --format=zip <tag>`) becomes the
   * module zip Go would make of it; a module zip stays as it is.
   */
  private async fromSourceTree(blob: BlobInfo, module: string, version: string): Promise<BlobInfo> {
    const names: string[] = []
    await readZip(await this.fctx.blobs.localFile(blob.sha256), {
      maxExpandedBytes: this.fctx.config.repositories.archiveMaxExpandedBytes,
      want: () => false,
      entry: (name) => {
        if (!name.endsWith('/')) names.push(name)
      },
    })
    if (!isSourceTree(names)) return blob
    return this.fctx.blobs.put(await moduleZipFromSource(await this.fctx.blobs.localFile(blob.sha256), module, version))
  }

  /**
   * Records a version: the zip as the lead file, its go.mod (or the one Go synthesizes) as .mod,
   * and the .info; dependencies from go.mod's require lines, readme and licence from the zip.
   */
  async record(
    repoKey: string,
    module: string,
    version: string,
    facts: ZipFacts,
    file: { zip: BlobInfo; time: string; createdBy: string | null; mod?: BlobInfo; info?: BlobInfo },
  ): Promise<void> {
    const parsed = facts.goMod === null ? null : parseGoMod(facts.goMod)
    if (parsed && parsed.module !== module) {
      throw new HttpError(
        400,
        `Refused module zip: its go.mod declares the module ${JSON.stringify(parsed.module ?? '')}, not ${module}`,
      )
    }
    const incompatible = parseGoVersion(version)?.build === 'incompatible'
    if (incompatible && facts.goMod !== null) {
      throw new HttpError(400, `Refused module zip: ${version} is +incompatible but the module has a go.mod`)
    }
    const mod = file.mod ?? (await this.fctx.blobs.put(facts.goMod ?? `module ${module}\n`))
    const info = file.info ?? (await this.fctx.blobs.put(JSON.stringify({ Version: version, Time: file.time })))
    const license = facts.license ? detectLicense(facts.license) : null
    const dependencies: Dependency[] = (parsed?.requires ?? []).map((r) => ({
      name: r.path,
      range: r.version,
      scope: r.indirect ? 'indirect' : 'runtime',
    }))
    const metadata: GoVersionMetadata = {
      module,
      version,
      go: parsed?.go ?? null,
      synthesizedMod: facts.goMod === null,
      pseudo: isPseudoVersion(version),
      incompatible,
      time: file.time,
    }
    const sums = (b: BlobInfo) => ({ sha256: b.sha256, sha1: b.sha1, md5: b.md5, size: b.size })
    const files: NewFile[] = [
      { path: goFilePath(module, version, 'zip'), blob: sums(file.zip), mimeType: 'application/zip', lead: true },
      { path: goFilePath(module, version, 'mod'), blob: sums(mod), mimeType: 'text/plain' },
      { path: goFilePath(module, version, 'info'), blob: sums(info), mimeType: 'application/json' },
    ]
    const created = Date.parse(file.time)
    // Go's @latest: the highest release, a pre-release only while there is none (semver alone would pick v1.3.0-rc.1 over v1.2.0).
    const known = await this.fctx.artifacts.listVersions('go', module)
    const latest = latestOf([...known.map((v) => v.version), version]) === version
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: 'go',
      name: module,
      version,
      description: facts.readme ? describeReadme(facts.readme) : '',
      readme: facts.readme,
      licenses: license ? [license] : [],
      dependencies,
      metadata,
      latest,
      createdBy: file.createdBy,
      // A remote's cached files already have rows (without a version); a local's are new (checked above).
      overwrite: true,
      ...(Number.isFinite(created) ? { createdAt: created } : {}),
      files,
    })
  }

  /** The versions a repository lists for a module (`@v/list`); a virtual's members merged. */
  async versions(repo: Repository, module: string, seen = new Set<string>()): Promise<string[]> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass === 'local') {
      const rows = await this.fctx.artifacts.listVersions('go', module, [repo.key])
      return rows.map((r) => r.version)
    }
    if (repo.rclass === 'remote') {
      const path = `${escapeCase(module)}/@v/list`
      const text = await upstreamDocument(this.fctx, repo, {
        path,
        url: `${this.root(repo)}/${path}`,
        accept: 'text/plain',
        convert: (body) =>
          body
            .split('\n')
            .map((l) => l.trim().split(/\s+/)[0] ?? '')
            .filter((v) => parseGoVersion(v))
            .join('\n'),
      }).catch((error) => {
        if (error instanceof HttpError && error.status < 500) throw error
        return undefined
      })
      return text ? text.split('\n').filter(Boolean) : []
    }
    const all = new Set<string>()
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== 'go') continue
      for (const v of await this.versions(member, module, seen)) all.add(v)
    }
    return [...all]
  }

  /** The .info of the version `@latest` names; a virtual answers its members' highest. */
  async latest(repo: Repository, module: string, seen = new Set<string>()): Promise<string | undefined> {
    if (seen.has(repo.key)) return undefined
    seen.add(repo.key)
    if (repo.rclass === 'local') {
      const version = latestOf(await this.versions(repo, module))
      const file = version ? await this.fctx.artifacts.findFile(repo.key, goFilePath(module, version, 'info')) : undefined
      return file ? this.fctx.blobs.readText(file.sha256) : undefined
    }
    if (repo.rclass === 'remote') {
      const path = `${escapeCase(module)}/@latest`
      return upstreamDocument(this.fctx, repo, {
        path,
        url: `${this.root(repo)}/${path}`,
        accept: 'application/json',
        convert: (body) => {
          const info = JSON.parse(body) as { Version?: unknown }
          if (typeof info.Version !== 'string' || !parseGoVersion(info.Version)) {
            throw new HttpError(502, `The upstream of ${repo.key} sent an @latest Trove cannot read for ${module}`)
          }
          return body
        },
      }).catch(() => undefined)
    }
    let best: { version: string; info: string } | undefined
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== 'go') continue
      const info = await this.latest(member, module, seen)
      const version = info ? (JSON.parse(info) as { Version: string }).Version : undefined
      if (info && version && (!best || compareGoVersions(version, best.version) > 0)) best = { version, info }
    }
    return best?.info
  }

  /**
   * A version's file: a local's own, a remote's cached copy (fetched on a miss; a zip fetched is
   * checked and recorded as a version with its .mod and .info), a virtual's first member's.
   */
  async file(
    repo: Repository,
    module: string,
    version: string,
    ext: GoExt,
    seen = new Set<string>(),
  ): Promise<FileRow | undefined> {
    if (seen.has(repo.key)) return undefined
    seen.add(repo.key)
    const path = goFilePath(module, version, ext)
    if (repo.rclass === 'local') return this.fctx.artifacts.servedFile(repo.key, path)
    if (repo.rclass === 'remote') {
      const found = await resolveFile(this.fctx, repo, path)
      if (found && ext === 'zip' && found.version_id === null) return this.recordCached(repo, module, version, found)
      return found
    }
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== 'go') continue
      const found = await this.file(member, module, version, ext, seen)
      if (found) return found
    }
    return undefined
  }

  /**
   * Files of a repository changed outside the GOPROXY calls (the tree's delete, copy and move):
   * each touched version is derived again from what is stored. Without its zip the version goes;
   * with it, the version is recorded from the zip and the .mod and .info beside it (made anew
   * when missing). A zip Go would refuse records nothing.
   */
  async filesChanged(repo: Repository, paths: string[]): Promise<void> {
    const touched = new Map<string, { module: string; version: string }>()
    for (const p of paths) {
      const m = /^(.+)\/@v\/([^/]+)\.(?:zip|mod|info)$/.exec(p)
      const module = m ? unescapeCase(m[1] ?? '') : null
      const version = m ? unescapeCase(m[2] ?? '') : null
      if (module && version && !modulePathProblem(module) && parseGoVersion(version))
        touched.set(`${module}@${version}`, { module, version })
    }
    for (const { module, version } of touched.values()) {
      const zip = await this.fctx.artifacts.findFile(repo.key, goFilePath(module, version, 'zip'))
      if (!zip) {
        await this.fctx.artifacts.deleteVersion(repo.key, 'go', module, version)
        continue
      }
      let facts: ZipFacts
      try {
        checkModuleVersion(module, version)
        facts = await this.readModuleZip(zip.sha256, module, version)
      } catch {
        continue
      }
      const mod = await this.fctx.artifacts.findFile(repo.key, goFilePath(module, version, 'mod'))
      const info = await this.fctx.artifacts.findFile(repo.key, goFilePath(module, version, 'info'))
      const blobOf = (f: FileRow): BlobInfo => ({ sha256: f.sha256, sha1: f.sha1, md5: f.md5, size: f.size })
      await this.record(repo.key, module, version, facts, {
        zip: blobOf(zip),
        time: info ? await this.infoTime(info) : new Date(zip.created_at).toISOString(),
        createdBy: zip.created_by,
        ...(mod ? { mod: blobOf(mod) } : {}),
        ...(info ? { info: blobOf(info) } : {}),
      }).catch(() => {})
    }
  }

  /** The Time of a stored .info; the time of now when it cannot be read. */
  private async infoTime(info: FileRow): Promise<string> {
    try {
      const parsed = JSON.parse(await this.fctx.blobs.readText(info.sha256)) as { Time?: unknown }
      if (typeof parsed.Time === 'string' && Number.isFinite(Date.parse(parsed.Time))) return parsed.Time
    } catch {
      // An unreadable .info keeps the time of now.
    }
    return new Date().toISOString()
  }

  /** A remote's upstream root: its URL without a trailing slash. */
  private root(repo: Repository): string {
    return (repo.url ?? '').replace(/\/+$/, '')
  }

  /** Records a zip a remote fetched as a version, with the upstream's .mod and .info; a zip Go would refuse is dropped (502). */
  private async recordCached(repo: Repository, module: string, version: string, zip: FileRow): Promise<FileRow | undefined> {
    let facts: ZipFacts
    try {
      checkModuleVersion(module, version)
      facts = await this.readModuleZip(zip.sha256, module, version)
    } catch (error) {
      await this.fctx.artifacts.deleteFile(repo.key, zip.path)
      throw new HttpError(
        502,
        `The upstream of ${repo.key} sent a module zip Trove refuses for ${module}@${version}: ${(error as Error).message}`,
      )
    }
    const mod = await resolveFile(this.fctx, repo, goFilePath(module, version, 'mod'))
    const info = await resolveFile(this.fctx, repo, goFilePath(module, version, 'info'))
    const time = info ? await this.infoTime(info) : new Date().toISOString()
    const blobOf = (f: FileRow): BlobInfo => ({ sha256: f.sha256, sha1: f.sha1, md5: f.md5, size: f.size })
    // The upstream's .mod is what Go hashes into go.sum: it is served as sent, not re-read from the zip.
    const goMod = mod ? await this.fctx.blobs.readText(mod.sha256) : facts.goMod
    await this.record(
      repo.key,
      module,
      version,
      { ...facts, goMod: facts.goMod === null ? null : goMod },
      {
        zip: blobOf(zip),
        time,
        createdBy: null,
        ...(mod ? { mod: blobOf(mod) } : {}),
        ...(info ? { info: blobOf(info) } : {}),
      },
    )
    return this.fctx.artifacts.findFile(repo.key, zip.path)
  }
}
