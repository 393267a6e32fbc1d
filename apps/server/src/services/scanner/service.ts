import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { Kysely } from 'kysely'
import type { Logger } from 'pino'
import type { BlobStore } from '../../core/blobStore.js'
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/db.js'
import { changedScope } from '../../core/dbWrites.js'
import { HttpError } from '../../core/errors.js'
import { clonePath } from '../../core/gitClone.js'
import { checkTarget } from '../../core/safeAddress.js'
import type { Database } from '../../core/schema.js'
import { getSetting, setSetting } from '../../core/settings.js'
import { packagesChanged } from '../../storage/answerCache.js'
import { ComponentReader, manifestsIn, type VersionToScan } from './components.js'
import { normalizeName } from './ecosystems.js'
import { OsvError, parseOsvRecord } from './osv.js'
import { ArchiveError, readOsvUpload } from './osvArchive.js'
import { type Counts, reevaluate, storeScan } from './store.js'
import type { Advisory } from './types.js'

/** How long a claim on a version lasts before another scanner may take it over (its node stopped). */
export const CLAIM_STALE_MS = 10 * 60 * 1000
const BATCH = 20
const IMPORT_BATCH = 500
const FEED_SETTING = 'scanner.feed'
const FEED_REDIRECTS = 5
const FEED_TIMEOUT_MS = 10 * 60 * 1000

/**
 * GETs the advisory feed. Every hop's host is checked before it is asked (no link-local or
 * metadata address, as for git vendors), so a redirect cannot lead the server somewhere it must
 * not go; the body is left to stream.
 */
async function fetchFeed(raw: string): Promise<Response> {
  const signal = AbortSignal.timeout(FEED_TIMEOUT_MS)
  let url = raw
  for (let hop = 0; hop <= FEED_REDIRECTS; hop++) {
    await checkTarget(url)
    const res = await fetch(url, { redirect: 'manual', signal }).catch((err: Error) => {
      throw new HttpError(502, `The advisory feed did not answer: ${err.message}`)
    })
    const location = res.headers.get('location')
    if (res.status < 300 || res.status >= 400 || !location) return res
    await res.body?.cancel()
    url = new URL(location, url).toString()
  }
  throw new HttpError(502, `The advisory feed redirected more than ${FEED_REDIRECTS} times`)
}

export interface FeedSettings {
  /** Where OSV records are fetched from (a zip or JSON); "" means never (nothing leaves the machine). */
  url: string
  intervalHours: number
}
const NO_FEED: FeedSettings = { url: '', intervalHours: 24 }

export interface ImportResult {
  id: number
  records: number
  reevaluated: { versions: number; gitRepos: number; components: number }
}

/**
 * The security scanner (packages-and-operations §1, §2, §7): the advisory database, and the scans
 * of every stored version. Versions without a scan status wait in the database itself, so any node
 * that runs the scanner module picks them up; a node claims a version by inserting its status row.
 */
export class ScannerService {
  private readonly reader: ComponentReader
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  /** Whether the git clones are to be looked at on the next run: on start, on each poll, after a write to their table. */
  private gitDue = true
  /** Whether claims a stopped node left are to be looked for on the next run: on start and on each poll. */
  private staleDue = true
  /**
   * Every version below this id has a scan status, as far as this node heard: a claim looks from
   * here rather than through every version stored. A status written or dropped below it (a version
   * whose content changed is scanned again) lowers it to that version; each poll starts again from 0.
   */
  private floor = 0
  private stopped = false
  private unsubscribe: (() => void) | undefined
  private readonly nodeId: string

  constructor(
    private readonly db: Db,
    blobs: BlobStore,
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.reader = new ComponentReader(db.kysely, blobs)
    this.nodeId = `${config.node.id}#${config.workers.index}`
  }

  private get k(): Kysely<Database> {
    return this.db.kysely
  }

  get enabled(): boolean {
    return this.config.node.modules.includes('scanner')
  }

  /** Starts scanning on this node: at once for versions stored here, on a poll for other nodes'. */
  start(): void {
    if (!this.enabled) return
    this.unsubscribe = this.db.writes.on((tables) => {
      if (tables.has('*') || tables.has('git_scan_repositories')) this.gitDue = true
      const statuses = changedScope(tables, 'scan_status')
      if (statuses === 'all') this.floor = 0
      else if (statuses) for (const id of statuses) this.floor = Math.min(this.floor, Number(id) || 0)
      if (this.gitDue || statuses || tables.has('package_versions')) this.wake()
    })
    this.timer = setInterval(() => {
      this.gitDue = true
      this.staleDue = true
      this.floor = 0
      this.wake()
    }, this.config.scanner.pollMs).unref()
    this.wake()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.unsubscribe?.()
    if (this.timer) clearInterval(this.timer)
    await this.running
  }

  /** Runs the queue now (again, if it is running). */
  wake(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.drain()
      .catch((err) => this.log.error({ err, module: 'scanner' }, 'scanning failed'))
      .finally(() => {
        this.running = undefined
        if (this.again) {
          this.again = false
          this.wake()
        }
      })
  }

  /** Resolves when nothing is waiting or being scanned by this node (tests and the bench wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  private async drain(): Promise<void> {
    // Not on every stored version (a cold install through a remote stores hundreds a minute).
    if (this.gitDue) {
      this.gitDue = false
      await this.scanGitClones()
    }
    for (;;) {
      if (this.stopped) return
      const ids = await this.claim(BATCH)
      if (ids.length === 0) return
      for (const id of ids) {
        if (this.stopped) return
        await this.scanClaimed(id)
      }
      packagesChanged()
    }
  }

  /** Claims up to `limit` versions: first those never scanned, then claims a stopped node left. */
  private async claim(limit: number): Promise<number[]> {
    const now = Date.now()
    const from = this.floor
    const waiting = await this.k
      .selectFrom('package_versions as v')
      .leftJoin('scan_status as s', 's.version_id', 'v.id')
      .select('v.id')
      .where('s.version_id', 'is', null)
      .where('v.id', '>=', from)
      .orderBy('v.id')
      .limit(limit)
      .execute()
    const claimed: number[] = []
    for (const { id } of waiting) {
      const res = await this.k
        .insertInto('scan_status')
        .values({ version_id: id, state: 'scanning', claimed_by: this.nodeId, claimed_at: now })
        .onConflict((oc) => oc.column('version_id').doNothing())
        .executeTakeFirst()
      if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) claimed.push(id)
    }
    // Every version from `from` up to the last one found has a status now (a write heard meanwhile may have lowered the floor).
    const last = waiting.at(-1)
    if (last && this.floor === from) this.floor = last.id + 1
    if (claimed.length > 0 || !this.staleDue) return claimed
    this.staleDue = false
    const stale = await this.k
      .selectFrom('scan_status')
      .select(['version_id', 'claimed_at'])
      .where('state', '=', 'scanning')
      .where('claimed_at', '<', now - CLAIM_STALE_MS)
      .limit(limit)
      .execute()
    for (const s of stale) {
      const res = await this.k
        .updateTable('scan_status')
        .set({ claimed_by: this.nodeId, claimed_at: now })
        .where('version_id', '=', s.version_id)
        .where('claimed_at', '=', s.claimed_at)
        .executeTakeFirst()
      if (Number(res.numUpdatedRows) > 0) claimed.push(s.version_id)
    }
    return claimed
  }

  private async scanClaimed(versionId: number): Promise<void> {
    const row = await this.k
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.id', 'p.package_type', 'p.name', 'v.version', 'v.licenses'])
      .where('v.id', '=', versionId)
      .executeTakeFirst()
    if (!row) return
    const v: VersionToScan = {
      id: row.id,
      packageType: row.package_type,
      name: row.name,
      version: row.version,
      licenses: JSON.parse(row.licenses) as string[],
    }
    try {
      const contents = await this.reader.read(v)
      if (contents.notScanned) {
        await this.finish(versionId, 'not_scanned', contents.notScanned, contents.os)
        return
      }
      await storeScan(this.k, { versionId }, contents.components, contents.os, (tx, counts) =>
        this.finish(versionId, 'scanned', contents.partial ?? null, contents.os, counts, tx),
      )
    } catch (err) {
      this.log.warn({ err, module: 'scanner', version: `${v.name}@${v.version}` }, 'a version could not be scanned')
      await this.finish(versionId, 'not_scanned', `The scan failed: ${(err as Error).message}`, null)
    }
  }

  private async finish(
    versionId: number,
    state: 'scanned' | 'not_scanned',
    reason: string | null,
    os: string | null,
    counts?: Counts,
    tx: Kysely<Database> = this.k,
  ): Promise<void> {
    await tx
      .updateTable('scan_status')
      .set({ state, reason: reason?.slice(0, 2000) ?? null, os, scanned_at: Date.now(), ...(counts ?? {}) })
      .where('version_id', '=', versionId)
      .where('claimed_by', '=', this.nodeId)
      .execute()
  }

  /**
   * Scans the clones of git repositories selected through a git integration whose HEAD it has not
   * scanned yet: the dependency manifests in the working tree (node_modules and .git skipped).
   * A node claims one by writing the commit it scans, conditionally.
   */
  private async scanGitClones(): Promise<void> {
    const due = await this.k
      .selectFrom('git_scan_repositories as r')
      .innerJoin('git_integrations as i', 'i.id', 'r.integration_id')
      .select(['r.id', 'r.full_name', 'r.head_commit', 'r.scanned_commit', 'i.key'])
      .where('r.status', '=', 'cloned')
      .where((eb) => eb.or([eb('r.scanned_commit', 'is', null), eb('r.scanned_commit', '!=', eb.ref('r.head_commit'))]))
      .execute()
    for (const r of due) {
      if (this.stopped) return
      const claimed = await this.k
        .updateTable('git_scan_repositories')
        .set({ scanned_commit: r.head_commit, scan_state: 'scanning' })
        .where('id', '=', r.id)
        .where((eb) =>
          r.scanned_commit === null ? eb('scanned_commit', 'is', null) : eb('scanned_commit', '=', r.scanned_commit),
        )
        .executeTakeFirst()
      if (Number(claimed.numUpdatedRows) === 0) continue
      const dir = clonePath(this.config.dataDir, r.key, r.full_name)
      try {
        const components = await manifestsIn(dir)
        await storeScan(this.k, { gitRepoId: r.id }, components, null, async (tx) => {
          await tx
            .updateTable('git_scan_repositories')
            .set({ scan_state: 'scanned', scan_reason: null, scanned_at: Date.now() })
            .where('id', '=', r.id)
            .execute()
        })
      } catch (err) {
        this.log.warn({ err, module: 'scanner', repository: r.full_name }, 'a git repository could not be scanned')
        await this.k
          .updateTable('git_scan_repositories')
          .set({ scan_state: 'not_scanned', scan_reason: String((err as Error).message).slice(0, 2000), scanned_at: Date.now() })
          .where('id', '=', r.id)
          .execute()
      }
    }
  }

  // ---- the advisory database ----

  /**
   * Imports an OSV upload (zip, one record, or an array) in one transaction: a malformed record
   * refuses the whole file, naming the record and field. Afterwards only the components whose
   * names an imported advisory carries (before or after) are matched again.
   */
  async importFile(file: string, source: string, createdBy: string | null): Promise<ImportResult> {
    // Errors name what was sent: the uploaded file's name, or the feed URL's last segment.
    const label = source.startsWith('upload:')
      ? source.slice('upload:'.length)
      : decodeURIComponent(new URL(source).pathname.split('/').pop() || 'feed')
    const started = Date.now()
    const job = await this.k
      .insertInto('advisory_imports')
      .values({ source: source.slice(0, 2048), started_at: started, state: 'running', created_by: createdBy })
      .returning('id')
      .executeTakeFirstOrThrow()
    const touched = new Map<string, Set<string>>()
    const touch = (ecosystem: string, name: string) => {
      const names = touched.get(ecosystem) ?? new Set<string>()
      touched.set(ecosystem, names)
      names.add(name)
    }
    let records = 0
    try {
      await this.k.transaction().execute(async (tx) => {
        let batch: Advisory[] = []
        const flush = async () => {
          if (batch.length === 0) return
          const ids = batch.map((a) => a.id)
          const old = await tx
            .selectFrom('advisory_packages')
            .select(['ecosystem', 'name'])
            .where('advisory_id', 'in', ids)
            .execute()
          for (const o of old) touch(o.ecosystem, o.name)
          await tx.deleteFrom('advisory_packages').where('advisory_id', 'in', ids).execute()
          await tx.deleteFrom('advisories').where('id', 'in', ids).execute()
          const now = Date.now()
          await tx
            .insertInto('advisories')
            .values(
              batch.map((a) => ({
                id: a.id,
                modified: a.modified,
                published: a.published,
                withdrawn: a.withdrawn,
                aliases: JSON.stringify([...new Set([...a.aliases, ...(a.upstream ?? [])])]),
                summary: a.summary.slice(0, 1000),
                details: a.details,
                severity: a.severity,
                cvss_score: a.cvssScore,
                cvss_vector: a.cvssVector,
                refs: JSON.stringify(a.references),
                imported_at: now,
              })),
            )
            .execute()
          const packages = batch.flatMap((a) =>
            a.affected.map((p) => ({
              advisory_id: a.id,
              ecosystem: p.ecosystem,
              release: p.release,
              name: normalizeName(p.ecosystem, p.name),
              affected: JSON.stringify({ ranges: p.ranges, versions: p.versions }),
            })),
          )
          for (const p of packages) touch(p.ecosystem, p.name)
          for (let i = 0; i < packages.length; i += IMPORT_BATCH)
            await tx
              .insertInto('advisory_packages')
              .values(packages.slice(i, i + IMPORT_BATCH))
              .execute()
          batch = []
        }
        const seen = new Set<string>()
        for await (const entry of readOsvUpload(file, {}, label)) {
          const advisory = parseOsvRecord(entry.json, entry.name)
          records++
          // The same id twice in one file: the later record wins, as a later import would.
          if (seen.has(advisory.id)) await flush()
          seen.add(advisory.id)
          batch.push(advisory)
          if (batch.length >= IMPORT_BATCH) {
            await flush()
            seen.clear()
          }
        }
        await flush()
      })
    } catch (err) {
      const message =
        err instanceof OsvError || err instanceof ArchiveError ? err.message : `The import failed: ${(err as Error).message}`
      await this.k
        .updateTable('advisory_imports')
        .set({ state: 'failed', finished_at: Date.now(), message: message.slice(0, 2000) })
        .where('id', '=', job.id)
        .execute()
      if (err instanceof OsvError || err instanceof ArchiveError) throw new HttpError(400, message)
      throw err
    }
    const reevaluated = await reevaluate(this.k, touched)
    await this.k
      .updateTable('advisory_imports')
      .set({ state: 'done', finished_at: Date.now(), records, message: null })
      .where('id', '=', job.id)
      .execute()
    packagesChanged()
    this.log.info({ module: 'scanner', source, records, reevaluated }, 'advisories imported')
    return { id: job.id, records, reevaluated }
  }

  feedSettings(): Promise<FeedSettings> {
    return getSetting(this.k, FEED_SETTING, NO_FEED)
  }

  async setFeedSettings(settings: FeedSettings): Promise<FeedSettings> {
    await setSetting(this.k, FEED_SETTING, settings)
    return settings
  }

  /** Fetches the feed into a temporary file and imports it. */
  async syncFeed(createdBy: string | null): Promise<ImportResult> {
    const { url } = await this.feedSettings()
    if (!url) throw new HttpError(400, 'url: No advisory feed is set')
    const dir = await fs.promises.mkdtemp(path.join(this.config.dataDir, 'tmp-osv-'))
    try {
      const res = await fetchFeed(url)
      if (!res.ok || !res.body) throw new HttpError(502, `The advisory feed answered ${res.status}`)
      const file = path.join(dir, 'feed')
      await pipeline(res.body as unknown as NodeJS.ReadableStream, fs.createWriteStream(file))
      return await this.importFile(file, url, createdBy)
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true })
    }
  }

  /** Syncs when the last sync of the feed is older than its interval (the first worker of a node asks). */
  async syncIfDue(): Promise<void> {
    const feed = await this.feedSettings()
    if (!feed.url) return
    const last = await this.k
      .selectFrom('advisory_imports')
      .select('started_at')
      .where('source', '=', feed.url)
      .orderBy('started_at', 'desc')
      .executeTakeFirst()
    if (last && Date.now() - last.started_at < feed.intervalHours * 3600_000) return
    await this.syncFeed(null)
  }
}
