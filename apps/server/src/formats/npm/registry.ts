import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { BlobInfo } from '../../core/blobStore.js'
import { changedFor } from '../../core/dbWrites.js'
import { HttpError } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import { servesStale } from '../../core/staleWhileDown.js'
import type { FetchedFile, FileRow } from '../../storage/artifacts.js'
import type { Tx } from '../../storage/repo.js'
import type { Repository } from '../../storage/service.js'
import { readTarGz } from '../kit/archive.js'
import { beingKept, keepLater, smallBody, sumsOf } from '../kit/keepLater.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument, upstreamHeaders } from '../kit/upstream.js'
import { fetchOnce, upstreamFetch } from '../kit/upstreamFetch.js'
import {
  declaredLicenses,
  dependenciesOf,
  keywordsOf,
  type Manifest,
  readPublishBody,
  tarballName,
  tarballPath,
} from './metadata.js'

const iso = (ms: number) => new Date(ms).toISOString()

/** What a packument answer needs besides its JSON: where its tarball links point. */
export interface PackumentSource {
  packument: Manifest
  /** The repository whose files these are (for a virtual: the member that answered). */
  repoKey: string
}

/**
 * How long a node serves a packument it built without building it again. A change made on this
 * node drops it at once; one made on another node of a cluster shows within this time.
 */
const PACKUMENT_CACHE_MS = 2000
/** What a packument is read from. */
const PACKUMENT_TABLES = [
  'packages',
  'package_versions',
  'package_tags',
  'dist_tags',
  'files',
  'repositories',
  'repository_members',
  'remote_cache',
]

/** What the writes of one npm package are told to other nodes as concerning (WriteWatch.about). */
const subjectOf = (name: string) => `npm:${encodeURIComponent(name)}`

interface CachedPackument {
  at: number
  /** The package's name. */
  name: string
  /** The repository's key; undefined for a virtual repository (made of its members' records). */
  repoKey?: string
  packument: Promise<Manifest | undefined>
  /** Serialized answers by base URL, form (full or abbreviated) and content encoding (compressed ones as they are made). */
  bodies: Map<string, Buffer | Promise<Buffer>>
}

/** The npm registry logic over Trove's repositories: packuments, publish, tarballs, remote caching. */
export class NpmRegistry {
  private readonly cache = new Map<string, CachedPackument>()

  constructor(private readonly fctx: FormatContext) {
    // This process drops a package's packuments when it changes one (invalidate); a change made by
    // another process (a sibling worker, another node) drops those of the packages it was made
    // about (writesAbout), those of the repositories it names and of every virtual repository, or all.
    fctx.db.writes.on((tables, fromSibling) => {
      if (!fromSibling) return
      const changed = changedFor(tables, PACKUMENT_TABLES)
      if (changed === 'all') this.cache.clear()
      else if (changed) {
        const anyRepository = changed.repositories.size > 0
        for (const [key, entry] of this.cache) {
          const ofRepository = anyRepository && (entry.repoKey === undefined || changed.repositories.has(entry.repoKey))
          if (ofRepository || changed.subjects.has(subjectOf(entry.name))) this.cache.delete(key)
        }
      }
    })
  }

  /** The packument of a repository, from the node's short-lived cache when it can. */
  cached(repo: Repository, name: string): CachedPackument {
    const key = `${repo.key}\0${name}`
    const now = Date.now()
    const hit = this.cache.get(key)
    if (hit && now - hit.at < PACKUMENT_CACHE_MS) return hit
    if (this.cache.size > 5_000) this.cache.clear()
    const entry: CachedPackument = {
      at: now,
      name,
      repoKey: repo.rclass === 'virtual' ? undefined : repo.key,
      // While the database is away, the packument last made stands in (core/staleWhileDown.ts).
      packument: this.packument(repo, name).catch((error: unknown) => {
        if (!hit || !servesStale(error, hit.at, now)) throw error
        if (this.cache.get(key) === entry) this.cache.set(key, hit)
        return hit.packument
      }),
      bodies: new Map(),
    }
    entry.packument.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key)
    })
    this.cache.set(key, entry)
    return entry
  }

  /**
   * The database, for writes that change one package alone (its publish, its dist-tags, its
   * versions' removal, a remote's copy of its packument or a tarball): other nodes then drop that
   * package's packuments, not all of a repository's (nor every virtual repository's).
   */
  writesAbout(name: string): Kysely<Database> {
    return this.fctx.db.writes.about(this.fctx.db.kysely, subjectOf(name))
  }

  /** Drops every cached packument of a package (in every repository: virtual ones include it). */
  invalidate(name: string): void {
    const suffix = `\0${name}`
    for (const key of this.cache.keys()) if (key.endsWith(suffix)) this.cache.delete(key)
  }

  private get db() {
    return this.fctx.db.kysely
  }

  /** The packument of a local repository, from the database, or undefined. */
  async localPackument(repo: Repository, name: string): Promise<Manifest | undefined> {
    const pkg = await this.db
      .selectFrom('packages')
      .select(['id', 'description'])
      .where('package_type', '=', 'npm')
      .where('name', '=', name)
      .executeTakeFirst()
    if (!pkg) return undefined
    const rows = await this.db
      .selectFrom('package_versions')
      .select(['version', 'metadata', 'deprecated', 'created_at', 'modified_at', 'readme', 'description'])
      .where('package_id', '=', pkg.id)
      .where('repo_key', '=', repo.key)
      .orderBy('created_at')
      .execute()
    if (rows.length === 0) return undefined
    const tags = await this.db
      .selectFrom('dist_tags')
      .select(['tag', 'version'])
      .where('package_id', '=', pkg.id)
      .where('repo_key', '=', repo.key)
      .execute()
    const versions: Manifest = {}
    const time: Manifest = {}
    let created = Number.POSITIVE_INFINITY
    let modified = 0
    for (const r of rows) {
      const manifest = JSON.parse(r.metadata) as Manifest
      if (r.deprecated) manifest.deprecated = r.deprecated
      else delete manifest.deprecated
      versions[r.version] = manifest
      time[r.version] = iso(r.created_at)
      created = Math.min(created, r.created_at)
      modified = Math.max(modified, r.modified_at)
    }
    const distTags: Record<string, string> = {}
    for (const t of tags) if (versions[t.version]) distTags[t.tag] = t.version
    const latest = distTags.latest ?? rows[rows.length - 1]?.version
    if (latest && !distTags.latest) distTags.latest = latest
    const latestRow = rows.find((r) => r.version === latest)
    return {
      _id: name,
      _rev: `${rows.length}-${crypto.createHash('md5').update(`${modified}:${rows.length}`).digest('hex')}`,
      name,
      description: latestRow?.description ?? pkg.description,
      'dist-tags': distTags,
      versions,
      time: { created: iso(created), modified: iso(modified), ...time },
      readme: latestRow?.readme ?? '',
    }
  }

  private upstreamUrl(repo: Repository, name: string): string {
    return `${repo.url}/${name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name)}`
  }

  /** The upstream packument of a remote repository, cached as upstream documents are (formats/kit/upstream.ts). */
  async remotePackument(repo: Repository, name: string): Promise<Manifest | undefined> {
    let parsed: Manifest | undefined
    const text = await upstreamDocument(this.fctx, repo, {
      path: name,
      db: this.writesAbout(name),
      url: this.upstreamUrl(repo, name),
      accept: 'application/json',
      convert: (fetched) => {
        try {
          parsed = JSON.parse(fetched) as Manifest
        } catch {
          throw new HttpError(502, `The upstream of ${repo.key} sent a packument that is not JSON`)
        }
        return fetched
      },
    })
    return text === undefined ? undefined : (parsed ?? (JSON.parse(text) as Manifest))
  }

  /** The packument a repository answers (virtual: its members merged, the first that has a version wins). */
  async packument(repo: Repository, name: string): Promise<Manifest | undefined> {
    if (repo.rclass === 'local') return this.localPackument(repo, name)
    if (repo.rclass === 'remote') return this.remotePackument(repo, name)
    let merged: Manifest | undefined
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (!member) continue
      const p = await this.packument(member, name)
      if (!p) continue
      if (!merged) {
        merged = { ...p, versions: { ...p.versions }, 'dist-tags': { ...p['dist-tags'] }, time: { ...p.time } }
        continue
      }
      for (const [v, m] of Object.entries(p.versions ?? {})) if (!merged.versions[v]) merged.versions[v] = m
      for (const [t, v] of Object.entries(p['dist-tags'] ?? {})) if (!merged['dist-tags'][t]) merged['dist-tags'][t] = v
      for (const [k, v] of Object.entries(p.time ?? {})) if (!merged.time[k]) merged.time[k] = v
    }
    return merged
  }

  /** Points every tarball link of a packument at this repository. */
  rewriteTarballs(packument: Manifest, repoUrl: string): Manifest {
    const versions: Manifest = {}
    for (const [v, m] of Object.entries(packument.versions ?? {}) as [string, Manifest][]) {
      const file = tarballName(packument.name ?? m.name, v)
      versions[v] = { ...m, dist: { ...m.dist, tarball: `${repoUrl}/${packument.name ?? m.name}/-/${file}` } }
    }
    return { ...packument, versions }
  }

  /**
   * The stored file of a tarball in a repository, fetching it from the upstream of a remote (or a
   * virtual's members): a tarball a remote has just fetched is answered from memory while it is
   * kept (FetchedFile).
   */
  async tarball(repo: Repository, name: string, file: string): Promise<FileRow | FetchedFile | undefined> {
    const path = `${name}/-/${file}`
    if (repo.rclass === 'local') return this.fctx.artifacts.servedFile(repo.key, path)
    if (repo.rclass === 'remote') {
      const key = `npm\0${repo.key}\0${path}`
      const cached = beingKept<FetchedFile>(key) ?? (await this.fctx.artifacts.servedFile(repo.key, path))
      if (cached) return cached
      // Kept while the row was looked up: what was kept is found now.
      return beingKept<FetchedFile>(key) ?? fetchOnce(key, () => this.fetchTarball(repo, name, file, key))
    }
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (!member) continue
      const found = await this.tarball(member, name, file)
      if (found) return found
    }
    return undefined
  }

  /** The readme a stored tarball holds (`package/README.md` and the like), or null; an unreadable tarball has none. */
  private async tarballReadme(sha256: string): Promise<string | null> {
    try {
      const entries = await readTarGz(await this.fctx.blobs.localFile(sha256), {
        want: (n) => /^[^/]+\/readme(\.(md|markdown|txt))?$/i.test(n),
        maxExpandedBytes: this.fctx.config.repositories.archiveMaxExpandedBytes,
        maxEntryBytes: 1024 * 1024,
        enough: (_name, found) => found.size > 0,
      })
      const readme = [...entries.values()][0]
      return readme ? readme.toString('utf8') : null
    } catch {
      return null
    }
  }

  private async fetchTarball(
    repo: Repository,
    name: string,
    file: string,
    key: string,
  ): Promise<FileRow | FetchedFile | undefined> {
    if (repo.offline) return undefined
    const packument = await this.remotePackument(repo, name)
    const entry = Object.entries(packument?.versions ?? {}).find(
      ([v, m]) => tarballName(name, v) === file || String((m as Manifest).dist?.tarball ?? '').endsWith(`/${file}`),
    ) as [string, Manifest] | undefined
    if (!entry) return undefined
    const [version, manifest] = entry
    const upstream = String(manifest.dist?.tarball ?? `${this.upstreamUrl(repo, name)}/-/${file}`)
    // The packument names the tarball's URL: credentials go only to the upstream's own origin.
    const sameOrigin = URL.canParse(upstream) && new URL(upstream).origin === new URL(this.upstreamUrl(repo, name)).origin
    const headers = sameOrigin
      ? upstreamHeaders(this.fctx, repo)
      : { accept: '*/*', 'user-agent': `Trove/${this.fctx.build.version}` }
    const response = await upstreamFetch(repo.key, upstream, { headers, signal: AbortSignal.timeout(300_000) })
    if (!response.ok || !response.body) {
      await response.body?.cancel()
      if (response.status === 404) return undefined
      throw new HttpError(502, `The upstream of ${repo.key} answered ${response.status} for ${file}`)
    }
    const expected = { sha1: typeof manifest.dist?.shasum === 'string' ? manifest.dist.shasum.toLowerCase() : undefined }
    const path = `${name}/-/${file}`
    const body = await smallBody(response)
    if (body) {
      // Answered from memory, kept after (kit/keepLater.ts).
      const blob = sumsOf(body)
      if (expected.sha1 && expected.sha1 !== blob.sha1) {
        throw new HttpError(
          502,
          `The upstream of ${repo.key} sent ${file} with the sha1 ${blob.sha1}; its packument says ${expected.sha1}`,
        )
      }
      return keepLater(
        key,
        (kept): FetchedFile => ({ path, mimeType: 'application/gzip', body, blob, fetchedAt: Date.now(), kept }),
        async () => this.keepTarball(repo, name, file, version, manifest, packument, await this.fctx.blobs.put(body, expected)),
      )
    }
    const blob = await this.fctx.blobs.put(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), expected)
    return this.keepTarball(repo, name, file, version, manifest, packument, blob)
  }

  /** Records a fetched tarball's version in a remote (its readme from the packument or the tarball), and returns its file. */
  private async keepTarball(
    repo: Repository,
    name: string,
    file: string,
    version: string,
    manifest: Manifest,
    packument: Manifest | undefined,
    blob: BlobInfo,
  ): Promise<FileRow | undefined> {
    // The upstream's packument carries only the latest version's readme: any version's is in its tarball.
    const ownReadme =
      packument?.['dist-tags']?.latest === version && typeof packument?.readme === 'string' && packument.readme
        ? packument.readme
        : await this.tarballReadme(blob.sha256)
    await this.fctx.artifacts
      .recordVersion(
        {
          repoKey: repo.key,
          packageType: 'npm',
          name,
          version,
          description: typeof manifest.description === 'string' ? manifest.description : '',
          readme: ownReadme,
          licenses: declaredLicenses(manifest),
          tags: keywordsOf(manifest),
          dependencies: dependenciesOf(manifest),
          metadata: manifest,
          latest: packument?.['dist-tags']?.latest === version,
          createdAt: packument?.time?.[version] ? Date.parse(packument.time[version]) || undefined : undefined,
          files: [{ path: `${name}/-/${file}`, blob, mimeType: 'application/gzip', lead: true }],
        },
        this.writesAbout(name),
      )
      .catch((error) => {
        // Another request cached it first.
        if (!(error instanceof HttpError && error.status === 409)) throw error
      })
    return this.fctx.artifacts.findFile(repo.key, `${name}/-/${file}`)
  }

  /** The local repository a publish lands in: the repository itself, or a virtual's default deployment repository. */
  async deployTarget(repo: Repository): Promise<Repository> {
    if (repo.rclass === 'local') return repo
    if (repo.rclass === 'virtual' && repo.defaultDeploymentRepo) {
      const target = await this.fctx.repos.get(repo.defaultDeploymentRepo)
      if (target) return target
    }
    throw new HttpError(405, `${repo.key} is a ${repo.rclass} repository without a deployment target: publish to a local one`)
  }

  /**
   * `npm publish`: each attachment is checked against the checksums its manifest declares, read
   * safely for its package.json and readme, stored, then recorded with its dist-tags in one go.
   */
  async publish(repo: Repository, name: string, body: Manifest, user: string | null): Promise<void> {
    const { version, manifest, data, distTags } = readPublishBody(name, body)
    const db = this.writesAbout(name)
    // The same tarball again (a client retrying a publish whose answer it lost) succeeds and changes
    // nothing but the dist-tags it names; other content under a published version is refused.
    const republish = async () => {
      const stored = await this.fctx.artifacts.findFile(repo.key, tarballPath(name, version))
      if (stored?.sha256 !== crypto.createHash('sha256').update(data).digest('hex')) {
        throw new HttpError(409, `Cannot publish over the previously published version ${version} of ${name}`)
      }
      const packageId = await this.packageRowId(name)
      if (packageId !== undefined) {
        for (const [tag, v] of Object.entries(distTags)) await this.setDistTag(packageId, repo.key, tag, v, db)
      }
      this.invalidate(name)
    }
    if (await this.fctx.artifacts.findVersion(repo.key, 'npm', name, version)) return republish()
    const entries = await readTarGz(data, {
      want: (n) => /^[^/]+\/package\.json$/.test(n) || /^[^/]+\/readme(\.(md|markdown|txt))?$/i.test(n),
      maxExpandedBytes: this.fctx.config.repositories.archiveMaxExpandedBytes,
    })
    const pkgJsonEntry = [...entries.entries()].find(([n]) => n.endsWith('/package.json'))
    if (!pkgJsonEntry) throw new HttpError(400, 'Refused archive: the tarball has no package.json')
    let inner: Manifest
    try {
      inner = JSON.parse(pkgJsonEntry[1].toString('utf8')) as Manifest
    } catch {
      throw new HttpError(400, 'Refused archive: its package.json is not JSON')
    }
    if (inner.name !== name || inner.version !== version) {
      throw new HttpError(400, `The tarball's package.json is ${inner.name}@${inner.version}, not ${name}@${version}`)
    }
    const readmeEntry = [...entries.entries()].find(([n]) => /\/readme/i.test(n))
    const readme =
      typeof manifest.readme === 'string' && manifest.readme ? manifest.readme : (readmeEntry?.[1].toString('utf8') ?? null)
    const blob = await this.fctx.blobs.put(data, {
      sha1: typeof manifest.dist?.shasum === 'string' ? manifest.dist.shasum : undefined,
    })
    const stored: Manifest = { ...manifest, dist: { ...manifest.dist, shasum: (await this.fctx.blobs.checksums(blob)).sha1 } }
    delete stored.readme
    delete stored.dist.tarball
    stored._id = `${name}@${version}`
    try {
      await this.fctx.artifacts.recordVersion(
        {
          repoKey: repo.key,
          packageType: 'npm',
          name,
          version,
          description: typeof manifest.description === 'string' ? manifest.description : '',
          readme,
          licenses: declaredLicenses(manifest),
          tags: keywordsOf(manifest),
          dependencies: dependenciesOf(manifest),
          metadata: stored,
          createdBy: user,
          latest: distTags.latest === version,
          files: [{ path: tarballPath(name, version), blob, mimeType: 'application/gzip', lead: true }],
          // In the version's transaction: a crash cannot leave the version without the tags it came with.
          alongside: async (tx, { packageId }) => {
            for (const [tag, v] of Object.entries(distTags)) await this.setDistTag(packageId, repo.key, tag, v, tx)
          },
        },
        db,
      )
    } catch (error) {
      // A concurrent publish of this version committed first.
      if (error instanceof HttpError && error.status === 409) return republish()
      throw error
    }
    this.invalidate(name)
  }

  async setDistTag(packageId: number, repoKey: string, tag: string, version: string, db: Tx = this.db): Promise<void> {
    await db
      .insertInto('dist_tags')
      .values({ package_id: packageId, repo_key: repoKey, tag, version })
      .onConflict((oc) => oc.columns(['package_id', 'repo_key', 'tag']).doUpdateSet({ version }))
      .execute()
  }

  async packageRowId(name: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('packages')
      .select('id')
      .where('package_type', '=', 'npm')
      .where('name', '=', name)
      .executeTakeFirst()
    return row?.id
  }
}
