import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Kysely, type Selectable, sql } from 'kysely'
import semver from 'semver'
import { isCanonicalPath } from '../core/artifactPath.js'
import type { BlobInfo, BlobStore } from '../core/blobStore.js'
import { changedScope, type WriteWatch } from '../core/dbWrites.js'
import { conflict, DOWNLOAD_BLOCKED, HttpError, isDatabaseUnavailable } from '../core/errors.js'
import { Generations } from '../core/generations.js'
import { spdxLicenses } from '../core/licenses.js'
import type { Database, FilesTable } from '../core/schema.js'
import { DOWNLOAD_ORIGIN_CSP, dispositionOf } from '../core/servedContent.js'
import { startsWith } from '../core/sqlLike.js'
import { servesStale } from '../core/staleWhileDown.js'
import { packagesChanged } from './answerCache.js'
import type { Tx } from './repo.js'
import { isSemverRelease, semverKey } from './semverKey.js'

export type FileRow = Selectable<FilesTable>

export interface NewFile {
  path: string
  /** The file name shown in the console; defaults to the last path segment. */
  name?: string
  blob: BlobInfo
  mimeType: string
  lead?: boolean
}

export interface Dependency {
  name: string
  range: string
  /** runtime, dev, peer, optional, test, provided … as the format names them */
  scope: string
}

/** A version a client published (or a remote repository cached), with what the console shows of it. */
export interface NewVersion {
  repoKey: string
  packageType: string
  /** The package's name as its clients write it (`@scope/name`, `group:artifact`, …). */
  name: string
  version: string
  description?: string
  readme?: string | null
  licenses?: string[]
  /** Keywords: the package's tags in the console. */
  tags?: string[]
  dependencies?: Dependency[]
  /** What the format needs to answer its clients about this version (JSON-serialisable). */
  metadata?: unknown
  createdBy?: string | null
  files: NewFile[]
  /**
   * The version's size when the format knows it better than the sum of its files: an image's
   * manifest declares its config's and layers' sizes before a remote has fetched them.
   */
  size?: number
  /** Set it when the format knows (npm's latest dist-tag); otherwise the highest version wins. */
  latest?: boolean
  /** Replace an existing version in this repository instead of answering 409. */
  overwrite?: boolean
  /** When the version was made (remote caches keep the upstream's time). */
  createdAt?: number
  /** The format's own rows that go with the version (npm's dist-tags), written in its transaction. */
  alongside?: (tx: Tx, ids: { packageId: number; versionId: number }) => Promise<void>
}

/** How long a node serves a file row it read without reading it again (see ArtifactService.servedFile). */
export const SERVED_FILE_CACHE_MS = 2000
const SERVED_FILE_CACHE_LIMIT = 50_000
/** Rows one statement of a download-count flush updates, at most (two parameters each, and the id again). */
const COUNT_ROWS_PER_STATEMENT = 500
/** How soon download counts the database could not take are written again (ms). */
const DOWNLOADS_RETRY_MS = 1000

/** `case id when … then … end`: a number per row id, for one UPDATE of many rows (as a bigint on both databases). */
function byId(values: [number, number][]) {
  return sql<number>`(case id ${sql.join(
    values.map(([id, value]) => sql`when ${id} then cast(${value} as bigint)`),
    sql` `,
  )} end)`
}

const idsOf = (rows: [number, unknown][]) => rows.map(([id]) => id)

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** The package id the console uses: `<type>://<name>`. */
export const packageId = (type: string, name: string) => `${type}://${name}`

function newer(candidate: string, current: string | null): boolean {
  if (!current) return true
  const a = semver.valid(candidate) ?? semver.valid(semver.coerce(candidate))
  const b = semver.valid(current) ?? semver.valid(semver.coerce(current))
  if (a && b && a !== b) return semver.gt(a, b)
  return candidate > current
}

/**
 * The shared services every format uses: files by repository path, packages / versions / files
 * recorded in one transaction after their blobs are in place, download counts.
 */
export class ArtifactService {
  /** Files served to clients, by repository and path: see servedFile. */
  private readonly served = new Map<string, Map<string, { at: number; file: FileRow }>>()
  private servedCount = 0
  /** Moved by every drop of the cache, whole or of a repository's files. */
  private readonly servedDrops = new Generations()

  constructor(
    readonly db: Kysely<Database>,
    readonly blobs: BlobStore,
    writes?: WriteWatch,
  ) {
    writes?.on((tables) => {
      const files = changedScope(tables, 'files')
      if (files === 'all') this.dropServed()
      else if (files) for (const repoKey of files) this.dropServed(repoKey)
    })
  }

  /** Drops the served files of one repository, or of all. */
  private dropServed(repoKey?: string): void {
    if (repoKey === undefined) {
      this.servedDrops.changed()
      this.served.clear()
      this.servedCount = 0
      return
    }
    this.servedDrops.changed([repoKey])
    const rows = this.served.get(repoKey)
    if (!rows) return
    this.servedCount -= rows.size
    this.served.delete(repoKey)
  }

  async findFile(repoKey: string, path: string, db: Tx = this.db): Promise<FileRow | undefined> {
    return db.selectFrom('files').selectAll().where('repo_key', '=', repoKey).where('path', '=', path).executeTakeFirst()
  }

  /**
   * The file a client downloads, kept briefly per node (SERVED_FILE_CACHE_MS) so that serving the
   * same tarball again does not query the database. A committed change to a repository's files, on
   * this node or another (core/clusterWrites.ts), drops its entries at once; a notification missed
   * is made up for by that time.
   * Only found files are kept, so a file just published is never hidden. Use findFile wherever the
   * answer decides a write.
   */
  async servedFile(repoKey: string, path: string): Promise<FileRow | undefined> {
    const now = Date.now()
    const hit = this.served.get(repoKey)?.get(path)
    if (hit && now - hit.at < SERVED_FILE_CACHE_MS) return hit.file
    const stamp = this.servedDrops.stamp([repoKey])
    let file: FileRow | undefined
    try {
      file = await this.findFile(repoKey, path)
    } catch (error) {
      // While the database is away, the row last read stands in (core/staleWhileDown.ts).
      if (hit && servesStale(error, hit.at, now)) return hit.file
      throw error
    }
    if (file && this.servedDrops.same(stamp, [repoKey])) {
      if (this.servedCount >= SERVED_FILE_CACHE_LIMIT) this.dropServed()
      const rows = this.served.get(repoKey) ?? new Map<string, { at: number; file: FileRow }>()
      this.served.set(repoKey, rows)
      if (!rows.has(path)) this.servedCount++
      rows.set(path, { at: now, file })
    }
    return file
  }

  /** Files under a folder of a repository (prefix without the trailing slash; '' for all). */
  async listFiles(repoKey: string, prefix: string): Promise<FileRow[]> {
    let q = this.db.selectFrom('files').selectAll().where('repo_key', '=', repoKey)
    if (prefix) q = q.where(startsWith('path', `${prefix}/`))
    return q.orderBy('path').execute()
  }

  /**
   * Writes (or replaces) the row of one file; the blob must already be stored. With `replace: false`
   * a file already at the path is a 409. The row is inserted only if the path is free, and replaced
   * otherwise, so concurrent writers of one path never collide on the unique key (PostgreSQL's
   * conflicting insert waits for the other transaction and then sees its row).
   */
  async putFile(
    tx: Tx,
    repoKey: string,
    file: NewFile,
    extra: { versionId?: number | null; createdBy?: string | null; replace?: boolean } = {},
  ): Promise<number> {
    // Every way in makes its path canonical first; the store takes nothing else.
    if (!isCanonicalPath(file.path))
      throw new HttpError(400, `path: ${JSON.stringify(file.path)} is not a canonical repository path`)
    packagesChanged([repoKey])
    const now = Date.now()
    // Sums left for later may have been recorded since the caller read them.
    const sums =
      file.blob.sha1 && file.blob.md5
        ? file.blob
        : ((await tx.selectFrom('blobs').select(['sha1', 'md5']).where('sha256', '=', file.blob.sha256).executeTakeFirst()) ??
          file.blob)
    const values = {
      name: file.name ?? file.path.split('/').pop() ?? file.path,
      version_id: extra.versionId ?? null,
      lead: file.lead ? 1 : 0,
      size: file.blob.size,
      md5: sums.md5,
      sha1: sums.sha1,
      sha256: file.blob.sha256,
      mime_type: file.mimeType,
      modified_at: now,
    }
    const inserted = await tx
      .insertInto('files')
      .values({ ...values, repo_key: repoKey, path: file.path, created_by: extra.createdBy ?? null, created_at: now })
      .onConflict((oc) => oc.columns(['repo_key', 'path']).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (inserted) return inserted.id
    if (extra.replace === false)
      throw conflict(`${file.path} already exists in ${repoKey}; replacing it needs the delete permission`)
    const before = await tx
      .selectFrom('files')
      .select('sha256')
      .where('repo_key', '=', repoKey)
      .where('path', '=', file.path)
      .executeTakeFirst()
    if (before && before.sha256 !== file.blob.sha256) await this.assertNotHeld(tx, repoKey, { paths: [file.path] })
    const existing = await tx
      .updateTable('files')
      .set(values)
      .where('repo_key', '=', repoKey)
      .where('path', '=', file.path)
      .returning('id')
      .executeTakeFirstOrThrow()
    await tx.deleteFrom('file_properties').where('file_id', '=', existing.id).execute()
    return existing.id
  }

  async setProperties(tx: Tx, fileId: number, properties: Record<string, string[]>): Promise<void> {
    await tx.deleteFrom('file_properties').where('file_id', '=', fileId).execute()
    const rows = Object.entries(properties).flatMap(([name, values]) => values.map((value) => ({ file_id: fileId, name, value })))
    if (rows.length > 0) await tx.insertInto('file_properties').values(rows).execute()
  }

  async properties(fileId: number, db: Tx = this.db): Promise<Record<string, string[]>> {
    const rows = await db.selectFrom('file_properties').select(['name', 'value']).where('file_id', '=', fileId).execute()
    const out: Record<string, string[]> = {}
    for (const r of rows) out[r.name] = [...(out[r.name] ?? []), r.value]
    return out
  }

  /**
   * Refuses (409, naming the bundle) to delete or overwrite files a signed release bundle names:
   * by paths, everything under a folder (`prefix`, ending in `/`), a version's files, or the whole
   * repository. Call it in the transaction that deletes, before the deletion.
   */
  async assertNotHeld(
    db: Tx,
    repoKey: string,
    scope: { paths?: string[]; prefix?: string; versionId?: number; repository?: true },
  ): Promise<void> {
    if (scope.paths?.length === 0) return
    const held = await db
      .selectFrom('release_bundle_files as f')
      .innerJoin('release_bundles as b', 'b.id', 'f.bundle_id')
      .select(['f.path', 'b.name', 'b.version'])
      .where('b.state', '=', 'signed')
      .where('f.repo_key', '=', repoKey)
      .$if(scope.paths !== undefined, (q) => q.where('f.path', 'in', scope.paths as string[]))
      .$if(scope.prefix !== undefined, (q) => q.where(startsWith('f.path', scope.prefix as string)))
      .$if(scope.versionId !== undefined, (q) =>
        q.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('files as x')
              .select('x.id')
              .whereRef('x.repo_key', '=', 'f.repo_key')
              .whereRef('x.path', '=', 'f.path')
              .where('x.version_id', '=', scope.versionId as number),
          ),
        ),
      )
      .limit(1)
      .executeTakeFirst()
    if (held) {
      throw conflict(
        `${repoKey}/${held.path} belongs to release bundle ${held.name} ${held.version}: it cannot be deleted or overwritten while the bundle exists`,
      )
    }
  }

  /** Deletes one file's row; the blob goes with the GC once nothing else names it. */
  async deleteFile(repoKey: string, path: string, db: Tx = this.db): Promise<boolean> {
    await this.assertNotHeld(db, repoKey, { paths: [path] })
    const res = await db.deleteFrom('files').where('repo_key', '=', repoKey).where('path', '=', path).executeTakeFirst()
    packagesChanged([repoKey])
    return Number(res.numDeletedRows) > 0
  }

  /**
   * The package row of (type, name), made if missing. Two first publishes of a package at once both
   * find none: the insert gives way to the other's row instead of failing on the unique key.
   */
  async ensurePackage(tx: Tx, type: string, name: string, now = Date.now()): Promise<number> {
    const find = tx.selectFrom('packages').select('id').where('package_type', '=', type).where('name', '=', name)
    const found = await find.executeTakeFirst()
    if (found) return found.id
    const row = await tx
      .insertInto('packages')
      .values({ package_type: type, name, lowercase_name: name.toLowerCase(), created_at: now, modified_at: now })
      .onConflict((oc) => oc.columns(['package_type', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst()
    // Made meanwhile by a transaction that has committed since (the insert waited for it).
    return row ? row.id : (await find.executeTakeFirstOrThrow()).id
  }

  async findVersion(repoKey: string, type: string, name: string, version: string, db: Tx = this.db) {
    return db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .selectAll('v')
      .where('p.package_type', '=', type)
      .where('p.name', '=', name)
      .where('v.repo_key', '=', repoKey)
      .where('v.version', '=', version)
      .executeTakeFirst()
  }

  /** Versions of a package in some repositories (all of them when `repoKeys` is undefined). */
  async listVersions(type: string, name: string, repoKeys?: string[]) {
    let q = this.db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .selectAll('v')
      .where('p.package_type', '=', type)
      .where('p.name', '=', name)
    if (repoKeys) q = q.where('v.repo_key', 'in', repoKeys.length > 0 ? repoKeys : [''])
    return q.orderBy('v.created_at').execute()
  }

  /**
   * Records a version with its files, dependencies and tags in one transaction. Call it only after
   * every file's blob is stored. An existing version in the repository is a 409 unless `overwrite`.
   */
  async recordVersion(v: NewVersion, db: Kysely<Database> = this.db): Promise<{ packageId: number; versionId: number }> {
    const result = await db.transaction().execute((tx) => this.recordVersionIn(tx, v))
    packagesChanged([v.repoKey])
    return result
  }

  /** recordVersion within the caller's transaction (a received release bundle records all its versions in one). */
  async recordVersionIn(tx: Tx, v: NewVersion): Promise<{ packageId: number; versionId: number }> {
    {
      const now = Date.now()
      const pkgId = await this.ensurePackage(tx, v.packageType, v.name, now)
      const row = {
        description: v.description ?? '',
        readme: v.readme ?? null,
        // Declared licences are kept as SPDX ids where one fits ("MIT License" → MIT), else as declared.
        licenses: JSON.stringify(spdxLicenses(v.licenses ?? [])),
        size: v.size ?? v.files.reduce((sum, f) => sum + f.blob.size, 0),
        metadata: JSON.stringify(v.metadata ?? {}),
        modified_at: now,
      }
      // Inserted only if the version is new: of concurrent publishes of one version, one inserts and
      // the others find its row (PostgreSQL's insert waits for the first transaction to commit).
      const inserted = await tx
        .insertInto('package_versions')
        .values({
          ...row,
          package_id: pkgId,
          repo_key: v.repoKey,
          version: v.version,
          semver_key: semverKey(v.version),
          release: isSemverRelease(v.version) ? 1 : 0,
          created_by: v.createdBy ?? null,
          created_at: v.createdAt ?? now,
        })
        .onConflict((oc) => oc.columns(['package_id', 'repo_key', 'version']).doNothing())
        .returning('id')
        .executeTakeFirst()
      let versionId: number
      if (inserted) versionId = inserted.id
      else {
        if (!v.overwrite) throw conflict(`${v.name}@${v.version} already exists in ${v.repoKey}`)
        const existing = await tx
          .updateTable('package_versions')
          .set(row)
          .where('package_id', '=', pkgId)
          .where('repo_key', '=', v.repoKey)
          .where('version', '=', v.version)
          .returning('id')
          .executeTakeFirstOrThrow()
        versionId = existing.id
        // Its content changed: the security scanner looks at it again (a version without a status waits for a scan).
        await tx.deleteFrom('scan_status').where('version_id', '=', versionId).execute()
        await tx.deleteFrom('package_dependencies').where('version_id', '=', versionId).execute()
        await tx.updateTable('files').set({ version_id: null }).where('version_id', '=', versionId).execute()
      }
      for (const file of v.files) await this.putFile(tx, v.repoKey, file, { versionId, createdBy: v.createdBy })
      const deps = v.dependencies ?? []
      if (deps.length > 0) {
        await tx
          .insertInto('package_dependencies')
          .values(deps.map((d) => ({ version_id: versionId, name: d.name, range: d.range, scope: d.scope })))
          .execute()
      }
      const pkg = await tx.selectFrom('packages').select(['latest_version']).where('id', '=', pkgId).executeTakeFirstOrThrow()
      const becomesLatest = v.latest ?? (pkg.latest_version === v.version || newer(v.version, pkg.latest_version))
      await tx
        .updateTable('packages')
        .set({
          modified_at: now,
          ...(becomesLatest ? { latest_version: v.version, description: v.description ?? '' } : {}),
        })
        .where('id', '=', pkgId)
        .execute()
      if (becomesLatest && v.tags) await this.setTags(tx, pkgId, v.tags)
      await v.alongside?.(tx, { packageId: pkgId, versionId })
      packagesChanged([v.repoKey])
      return { packageId: pkgId, versionId }
    }
  }

  /**
   * Adds a file to a recorded version (a layer a remote fetched after it recorded the image's tag).
   * The version's content changed: the security scanner looks at it again.
   */
  async addVersionFile(tx: Tx, repoKey: string, versionId: number, file: NewFile): Promise<void> {
    await this.putFile(tx, repoKey, file, { versionId })
    await tx.deleteFrom('scan_status').where('version_id', '=', versionId).execute()
  }

  async setTags(tx: Tx, pkgId: number, tags: string[]): Promise<void> {
    await tx.deleteFrom('package_tags').where('package_id', '=', pkgId).execute()
    const unique = [...new Set(tags.map((t) => t.trim()).filter((t) => t.length > 0 && t.length <= 255))]
    if (unique.length > 0)
      await tx
        .insertInto('package_tags')
        .values(unique.map((tag) => ({ package_id: pkgId, tag })))
        .execute()
  }

  /**
   * Deletes a version of a repository with its files. The package goes when no version is left
   * anywhere; otherwise its latest version is recomputed. Returns false when there was none.
   */
  async deleteVersion(
    repoKey: string,
    type: string,
    name: string,
    version: string,
    db: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const deleted = await db.transaction().execute(async (tx) => {
      const row = await this.findVersion(repoKey, type, name, version, tx)
      if (!row) return false
      await this.assertNotHeld(tx, repoKey, { versionId: row.id })
      // The repository named too: the deletions tell the caches of that repository alone (core/dbWrites.ts).
      await tx.deleteFrom('files').where('repo_key', '=', repoKey).where('version_id', '=', row.id).execute()
      await tx.deleteFrom('package_versions').where('repo_key', '=', repoKey).where('id', '=', row.id).execute()
      await this.refreshPackage(tx, row.package_id)
      return true
    })
    packagesChanged([repoKey])
    return deleted
  }

  /**
   * After files were deleted: each of these versions left without a file goes, with its
   * dependencies and the dist-tags naming it (its package too when it was the last version).
   */
  async dropEmptyVersions(tx: Tx, versionIds: Iterable<number>): Promise<void> {
    for (const id of versionIds) {
      const left = await tx.selectFrom('files').select('id').where('version_id', '=', id).limit(1).executeTakeFirst()
      if (left) continue
      const v = await tx
        .selectFrom('package_versions')
        .select(['package_id', 'repo_key', 'version'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!v) continue
      await tx.deleteFrom('package_dependencies').where('version_id', '=', id).execute()
      await tx
        .deleteFrom('dist_tags')
        .where('package_id', '=', v.package_id)
        .where('repo_key', '=', v.repo_key)
        .where('version', '=', v.version)
        .execute()
      await tx.deleteFrom('package_versions').where('id', '=', id).execute()
      await this.refreshPackage(tx, v.package_id)
    }
  }

  /** Recomputes a package's latest version after a deletion; removes it when no version is left. */
  async refreshPackage(tx: Tx, pkgId: number): Promise<void> {
    packagesChanged()
    const versions = await tx
      .selectFrom('package_versions')
      .select(['version', 'description'])
      .where('package_id', '=', pkgId)
      .execute()
    if (versions.length === 0) {
      await tx.deleteFrom('packages').where('id', '=', pkgId).execute()
      return
    }
    let latest = versions[0]
    for (const v of versions) if (latest && newer(v.version, latest.version)) latest = v
    await tx
      .updateTable('packages')
      .set({ latest_version: latest?.version ?? null, modified_at: Date.now() })
      .where('id', '=', pkgId)
      .execute()
  }

  /**
   * Drops what remote repositories cached and nobody downloaded within their artifact cache
   * lifetime (`unusedArtifactsCleanupPeriodHours`; 0 keeps everything). Versions left without files
   * go too; the blobs follow with the next GC. Returns the number of files dropped.
   */
  async expireRemoteCaches(now = Date.now()): Promise<number> {
    const remotes = await this.db
      .selectFrom('repositories')
      .select(['key', 'artifact_cache_secs'])
      .where('rclass', '=', 'remote')
      .where('artifact_cache_secs', '>', 0)
      .execute()
    let dropped = 0
    for (const remote of remotes) {
      const cutoff = now - remote.artifact_cache_secs * 1000
      dropped += await this.db.transaction().execute(async (tx) => {
        const res = await tx
          .deleteFrom('files')
          .where('repo_key', '=', remote.key)
          .where((eb) => eb(eb.fn.coalesce('last_downloaded_at', 'created_at'), '<', cutoff))
          // Files a signed release bundle names stay.
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('release_bundle_files as rb')
                  .select('rb.bundle_id')
                  .whereRef('rb.repo_key', '=', 'files.repo_key')
                  .whereRef('rb.path', '=', 'files.path'),
              ),
            ),
          )
          .executeTakeFirst()
        const empty = await tx
          .selectFrom('package_versions as v')
          .select(['v.id', 'v.package_id'])
          .where('v.repo_key', '=', remote.key)
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('files').select('files.id').whereRef('files.version_id', '=', 'v.id'))),
          )
          .execute()
        for (const v of empty) {
          await tx.deleteFrom('package_versions').where('id', '=', v.id).execute()
          await this.refreshPackage(tx, v.package_id)
        }
        return Number(res.numDeletedRows)
      })
    }
    if (dropped > 0) packagesChanged()
    return dropped
  }

  private pending = new Map<number, { count: number; versionId: number | null; at: number }>()
  private flushing: Promise<void> | undefined
  private flushTimer: NodeJS.Timeout | undefined

  /**
   * Counts one real download of a file: the file, its version and its package. Counts are gathered
   * in memory and written together every half second (and on shutdown), so serving a tarball does
   * not wait for a write transaction; a crash loses at most that half second of counts.
   */
  countDownload(file: Pick<FileRow, 'id' | 'version_id'>): void {
    const entry = this.pending.get(file.id)
    if (entry) {
      entry.count++
      entry.at = Date.now()
    } else this.pending.set(file.id, { count: 1, versionId: file.version_id, at: Date.now() })
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined
      void this.flushDownloads()
    }, 500).unref()
  }

  /** Writes the gathered download counts in one transaction. */
  async flushDownloads(): Promise<void> {
    if (this.flushing) await this.flushing
    if (this.pending.size === 0) return
    const batch = this.pending
    this.pending = new Map()
    this.flushing = this.db
      .transaction()
      .execute(async (tx) => {
        // One statement per table and chunk of rows, whatever the number of files: a node's flush
        // costs it about the same at any request rate.
        const perVersion = new Map<number, number>()
        for (const [, { count, versionId }] of batch) {
          if (versionId !== null) perVersion.set(versionId, (perVersion.get(versionId) ?? 0) + count)
        }
        for (const part of chunks([...batch], COUNT_ROWS_PER_STATEMENT)) {
          await tx
            .updateTable('files')
            .set({
              download_count: sql<number>`download_count + ${byId(part.map(([id, e]) => [id, e.count]))}`,
              last_downloaded_at: byId(part.map(([id, e]) => [id, e.at])),
            })
            .where('id', 'in', idsOf(part))
            .execute()
        }
        const perPackage = new Map<number, number>()
        for (const part of chunks([...perVersion], COUNT_ROWS_PER_STATEMENT)) {
          const versions = await tx
            .updateTable('package_versions')
            .set({ download_count: sql<number>`download_count + ${byId(part)}` })
            .where('id', 'in', idsOf(part))
            .returning(['id', 'package_id'])
            .execute()
          for (const v of versions) {
            perPackage.set(v.package_id, (perPackage.get(v.package_id) ?? 0) + (perVersion.get(v.id) ?? 0))
          }
        }
        for (const part of chunks([...perPackage], COUNT_ROWS_PER_STATEMENT)) {
          await tx
            .updateTable('packages')
            .set({ downloads: sql<number>`downloads + ${byId(part)}` })
            .where('id', 'in', idsOf(part))
            .execute()
        }
      })
      .catch((error: unknown) => {
        // The database is away: the counts wait for it, added to those gathered meanwhile.
        if (isDatabaseUnavailable(error)) return this.keepCounts(batch)
        // Otherwise the rows went away meanwhile (a deletion): their counts go with them.
      })
      .finally(() => {
        this.flushing = undefined
      })
    await this.flushing
  }

  /** Puts back counts that could not be written, to be written with the next batch. */
  private keepCounts(batch: Map<number, { count: number; versionId: number | null; at: number }>): void {
    for (const [fileId, kept] of batch) {
      const entry = this.pending.get(fileId)
      if (entry) entry.count += kept.count
      else this.pending.set(fileId, kept)
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined
      void this.flushDownloads()
    }, DOWNLOADS_RETRY_MS).unref()
  }

  /**
   * Sends a stored file: checksum headers, ETag, conditional GET and byte ranges. Counts a download
   * when the whole file is sent to a GET. Small files go from memory (BlobStore.content), larger
   * ones as a file stream.
   */
  /**
   * Set by the security scanner: why a download of a version's file is refused (a policy that
   * blocks downloads), or null. Each format's error handler answers in its client's own format.
   */
  downloadGate: ((file: FileRow) => Promise<string | null>) | undefined

  /** Refuses (403, naming why) a download the scanner's policies block; formats that stream files themselves call it too. */
  async checkDownload(file: FileRow): Promise<void> {
    if (file.version_id === null || !this.downloadGate) return
    const blocked = await this.downloadGate(file)
    if (blocked) throw new HttpError(403, blocked, DOWNLOAD_BLOCKED)
  }

  /**
   * The host of TROVE_DOWNLOAD_BASE_URL, set by the app: files asked for there are shown inline,
   * sandboxed (core/servedContent.ts); on the console's origin only inert types are.
   */
  downloadHost: string | undefined

  /** A stored file never acts in the console's origin: an attachment unless its type is inert. */
  serveSafely(request: FastifyRequest, reply: FastifyReply, file: Pick<FileRow, 'mime_type' | 'name' | 'path'>): void {
    if (this.downloadHost !== undefined && request.host === this.downloadHost) {
      reply.header('content-security-policy', DOWNLOAD_ORIGIN_CSP).header('content-disposition', 'inline')
      return
    }
    if (!reply.hasHeader('content-disposition')) {
      reply.header('content-disposition', dispositionOf(file.mime_type, file.name || file.path.split('/').pop() || 'download'))
    }
  }

  async sendFile(request: FastifyRequest, reply: FastifyReply, file: FileRow, options: { count?: boolean } = {}) {
    await this.checkDownload(file)
    // A stored file goes out byte for byte, with its length, never encoded on the fly: the
    // compressor passes content that starts like gzip or zlib data (a .tgz, a .gz) through as it is
    // yet labels it with the encoding it negotiated, so clients decoded garbage; and an artifact's
    // length and checksums name the bytes stored. Its switch is this request header.
    request.headers['x-no-compression'] = 'stored file'
    const headers = fileHeaders(file)
    reply.headers(headers)
    this.serveSafely(request, reply, file)
    if (request.headers['if-none-match'] === headers.etag) return reply.code(304).send()
    const rangeHeader = request.headers.range
    const range = rangeHeader === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(rangeHeader)
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, file.size - Number(range[2]))
      const end = range[1] && range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1
      if (start > end || start >= file.size) {
        return reply.code(416).header('content-range', `bytes */${file.size}`).send()
      }
      reply
        .code(206)
        .header('content-range', `bytes ${start}-${end}/${file.size}`)
        .header('content-length', end - start + 1)
      if (request.method === 'HEAD') return reply.send()
      return reply.send(this.blobs.open(file.sha256, { start, end, size: end - start + 1 }))
    }
    reply.header('content-length', file.size)
    if (request.method === 'HEAD') return reply.send()
    if (options.count !== false) this.countDownload(file)
    // A large blob in a bucket that serves it directly: the client reads it there.
    const direct = await this.blobs.directUrl(file.sha256, Number(file.size), request.hostname)
    if (direct) return reply.code(302).removeHeader('content-length').header('location', direct).send()
    const content = await this.blobs.content(file.sha256, file.size)
    return reply.send(content ?? this.blobs.open(file.sha256, { size: file.size }))
  }

  /**
   * Sends a file a remote has just fetched and is still keeping (formats/kit/keepLater.ts) from
   * memory, with the headers its stored copy will have; its download counts once it is kept. A
   * range, a HEAD or a revalidation waits for the stored copy and is answered from it.
   */
  async sendFetched(request: FastifyRequest, reply: FastifyReply, fetched: FetchedFile, options: { count?: boolean } = {}) {
    if (request.method !== 'GET' || request.headers.range !== undefined || request.headers['if-none-match'] !== undefined) {
      const file = await fetched.kept
      if (!file) throw new HttpError(502, `${fetched.path} was fetched from the upstream but could not be kept`)
      return this.sendFile(request, reply, file, options)
    }
    request.headers['x-no-compression'] = 'stored file'
    reply.headers(headersFor(fetched.mimeType, fetched.blob, fetched.fetchedAt))
    this.serveSafely(request, reply, { mime_type: fetched.mimeType, name: '', path: fetched.path })
    reply.header('content-length', fetched.body.length)
    if (options.count !== false) void fetched.kept.then((file) => file && this.countDownload(file))
    return reply.send(fetched.body)
  }
}

/**
 * A file a remote fetched from its upstream and has not kept yet: its bytes and their sums (all
 * three, hashed in memory), and the stored file once kept (undefined when keeping failed).
 */
export interface FetchedFile {
  path: string
  mimeType: string
  body: Buffer
  blob: BlobInfo
  fetchedAt: number
  kept: Promise<FileRow | undefined>
}

/** The headers of a file's answers, computed once per row (served rows are reused: see servedFile). */
const headersOf = new WeakMap<FileRow, Record<string, string>>()

function fileHeaders(file: FileRow): Record<string, string> {
  let headers = headersOf.get(file)
  if (!headers) {
    headers = headersFor(file.mime_type, file, file.modified_at)
    headersOf.set(file, headers)
  }
  return headers
}

/** A file's answer headers: its type, sums and time. */
function headersFor(
  mimeType: string,
  sums: { sha256: string; sha1: string | null; md5: string | null },
  modifiedAt: number,
): Record<string, string> {
  // A sum left for later (a large blob just stored) is left out until it is recorded; the ETag
  // is then the sha256.
  const headers: Record<string, string> = {
    'content-type': mimeType,
    etag: `"${sums.sha1 || sums.sha256}"`,
    'last-modified': new Date(modifiedAt).toUTCString(),
    'x-checksum-sha256': sums.sha256,
    'accept-ranges': 'bytes',
  }
  if (sums.sha1) headers['x-checksum-sha1'] = sums.sha1
  if (sums.md5) headers['x-checksum-md5'] = sums.md5
  return headers
}
