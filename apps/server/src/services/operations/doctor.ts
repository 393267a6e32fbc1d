import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { IntegrityReport } from '@trove/contracts/integrity'
import type { Kysely } from 'kysely'
import { blobReferrers } from '../../core/blobStore.js'
import type { S3Objects } from '../../core/s3Objects.js'
import type { Database } from '../../core/schema.js'

export type { IntegrityReport }

/** Temp files older than this belong to uploads that died (the blob GC removes them too). */
export const STALE_TEMP_MS = 24 * 60 * 60 * 1000
const SHA256 = /^[0-9a-f]{64}$/
/** Blob rows read per query: a store of millions of blobs is walked without holding them all. */
const PAGE = 500
/** Blobs hashed at once: reading one file while another hashes keeps the disk and a core busy. */
const PARALLEL = 3

/**
 * What to check: a database and the data dir whose `blobs/` holds the store; or a test's app
 * (`test/testApp.ts#TestApp`: `checkIntegrity(t)`).
 */
export type IntegritySource = (
  | { db: Kysely<Database>; dataDir: string }
  | { app: { db: { kysely: Kysely<Database> } }; dataDir: string }
) & {
  /** The bucket the blobs live in, when they are not in the data dir (`TROVE_BLOB_STORE`). */
  s3?: S3Objects
}

export interface IntegrityOptions {
  /** Entries listed per kind at most (totals count them all); default 1000. */
  listLimit?: number
  /** Only check that files exist with the right size, without hashing them. */
  sizesOnly?: boolean
  /** Called after each blob checked (progress for a long run). */
  onBlob?: (checked: number) => void
}

/** The sha256 of a file, streamed: a blob of any size is read in 1 MB pieces, never whole. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256')
  let size = 0
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer)
    size += (chunk as Buffer).length
  }
  return { sha256: hash.digest('hex'), size }
}

/** Runs `work` over `items` with at most `parallel` at once. */
async function eachLimited<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(parallel, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T)
  })
  await Promise.all(lanes)
}

/**
 * Verifies the blob store against the database: every `blobs` row has its file, with the recorded
 * size and content that hashes to its name; every row that names a blob (`files`, `remote_cache`)
 * names one that exists, and a file row's size and checksums agree with its blob's; and it lists
 * files in the store no row names and temp files left behind. Read-only: it repairs nothing.
 */
export async function checkIntegrity(source: IntegritySource, options: IntegrityOptions = {}): Promise<IntegrityReport> {
  const started = performance.now()
  const limit = options.listLimit ?? 1000
  const db = 'app' in source ? source.app.db.kysely : source.db
  const root = path.join(source.dataDir, 'blobs')
  const report: IntegrityReport = {
    ok: true,
    blobsChecked: 0,
    bytesChecked: 0,
    missing: [],
    corrupt: [],
    danglingFiles: [],
    mismatchedFiles: [],
    orphanBlobs: [],
    tempFiles: [],
    unreferencedBlobs: 0,
    totals: { missing: 0, missingReferenced: 0, corrupt: 0, danglingFiles: 0, mismatchedFiles: 0, orphanBlobs: 0 },
    durationMs: 0,
  }
  type Listed = 'missing' | 'corrupt' | 'danglingFiles' | 'mismatchedFiles' | 'orphanBlobs'
  const add = <K extends Listed>(kind: K, entry: IntegrityReport[K][number]) => {
    report.totals[kind]++
    if (report[kind].length < limit) (report[kind] as unknown[]).push(entry)
  }
  const blobFile = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256)

  /** A blob in a bucket: its object exists, has its size, and hashes to its name. */
  const checkObject = async (s3: S3Objects, sha256: string, expectedSize: number) => {
    const key = s3.blobKey(sha256)
    const stored = SHA256.test(sha256) ? await s3.size(key) : undefined
    if (stored === undefined) {
      const referenced = await isReferenced(db, sha256)
      if (referenced) report.totals.missingReferenced++
      add('missing', { sha256, size: expectedSize, referenced })
    } else if (stored !== expectedSize) add('corrupt', { sha256, expectedSize, actualSize: stored })
    else if (!options.sizesOnly) {
      const hash = crypto.createHash('sha256')
      let read = 0
      for await (const chunk of await s3.read(key)) {
        hash.update(chunk as Buffer)
        read += (chunk as Buffer).length
      }
      report.bytesChecked += read
      const actual = hash.digest('hex')
      if (actual !== sha256 || read !== expectedSize)
        add('corrupt', { sha256, expectedSize, actualSize: read, actualSha256: actual })
    }
  }

  // Every blob row: its file (or object) exists, has its size, and hashes to its name.
  let after = ''
  for (;;) {
    const rows = await db
      .selectFrom('blobs')
      .select(['sha256', 'size'])
      .where('sha256', '>', after)
      .orderBy('sha256')
      .limit(PAGE)
      .execute()
    if (rows.length === 0) break
    after = rows[rows.length - 1]?.sha256 ?? after
    await eachLimited(rows, PARALLEL, async ({ sha256, size }) => {
      const expectedSize = Number(size)
      if (source.s3) {
        await checkObject(source.s3, sha256, expectedSize)
        report.blobsChecked++
        options.onBlob?.(report.blobsChecked)
        return
      }
      const file = SHA256.test(sha256) ? blobFile(sha256) : undefined
      const stat = file ? await fs.promises.stat(file).catch(() => undefined) : undefined
      if (!file || !stat?.isFile()) {
        const referenced = await isReferenced(db, sha256)
        if (referenced) report.totals.missingReferenced++
        add('missing', { sha256, size: expectedSize, referenced })
      } else if (stat.size !== expectedSize) add('corrupt', { sha256, expectedSize, actualSize: stat.size })
      else if (!options.sizesOnly) {
        const actual = await hashFile(file)
        report.bytesChecked += actual.size
        if (actual.sha256 !== sha256 || actual.size !== expectedSize) {
          add('corrupt', { sha256, expectedSize, actualSize: actual.size, actualSha256: actual.sha256 })
        }
      }
      report.blobsChecked++
      options.onBlob?.(report.blobsChecked)
    })
  }

  // Rows that name a blob without a row.
  for (const ref of blobReferrers) {
    // biome-ignore lint/suspicious/noExplicitAny: referrers are registered by table name at run time
    const rows: { repo_key: string; path: string; sha256: string }[] = await (db as Kysely<any>)
      .selectFrom(ref.table)
      .select(['repo_key', 'path', `${ref.column} as sha256`])
      .where(ref.column, 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('blobs').select('blobs.sha256').whereRef('blobs.sha256', '=', `${ref.table}.${ref.column}`))),
      )
      .execute()
    for (const r of rows) add('danglingFiles', { table: ref.table, repoKey: r.repo_key, path: r.path, sha256: r.sha256 })
  }

  // File rows whose size or (known) checksums disagree with their blob's row.
  const disagreeing = await db
    .selectFrom('files')
    .innerJoin('blobs', 'blobs.sha256', 'files.sha256')
    .select([
      'files.repo_key',
      'files.path',
      'files.sha256',
      'files.size as fileSize',
      'blobs.size as blobSize',
      'files.sha1 as fileSha1',
      'blobs.sha1 as blobSha1',
      'files.md5 as fileMd5',
      'blobs.md5 as blobMd5',
    ])
    .where((eb) =>
      eb.or([
        eb('files.size', '!=', eb.ref('blobs.size')),
        eb.and([eb('files.sha1', '!=', ''), eb('blobs.sha1', '!=', ''), eb('files.sha1', '!=', eb.ref('blobs.sha1'))]),
        eb.and([eb('files.md5', '!=', ''), eb('blobs.md5', '!=', ''), eb('files.md5', '!=', eb.ref('blobs.md5'))]),
      ]),
    )
    .execute()
  for (const r of disagreeing) {
    const base = { repoKey: r.repo_key, path: r.path, sha256: r.sha256 }
    if (Number(r.fileSize) !== Number(r.blobSize)) {
      add('mismatchedFiles', { ...base, field: 'size', file: Number(r.fileSize), blob: Number(r.blobSize) })
    } else if (r.fileSha1 && r.blobSha1 && r.fileSha1 !== r.blobSha1) {
      add('mismatchedFiles', { ...base, field: 'sha1', file: r.fileSha1, blob: r.blobSha1 })
    } else add('mismatchedFiles', { ...base, field: 'md5', file: r.fileMd5, blob: r.blobMd5 })
  }

  const unreferenced = await db
    .selectFrom('blobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      eb.and(
        blobReferrers.map((ref) =>
          eb.not(
            eb.exists(
              // biome-ignore lint/suspicious/noExplicitAny: see above
              (eb.selectFrom as any)(ref.table).select(ref.column).whereRef(`${ref.table}.${ref.column}`, '=', 'blobs.sha256'),
            ),
          ),
        ),
      ),
    )
    .executeTakeFirst()
  report.unreferencedBlobs = Number(unreferenced?.n ?? 0)

  await findStrayFiles(db, root, (entry) => add('orphanBlobs', entry))
  const now = Date.now()
  for (const name of await readdirOr(path.join(root, 'tmp'))) {
    const stat = await fs.promises.stat(path.join(root, 'tmp', name)).catch(() => undefined)
    if (!stat) continue
    const ageMs = Math.max(0, now - stat.mtimeMs)
    if (report.tempFiles.length < limit) {
      report.tempFiles.push({ path: `tmp/${name}`, size: stat.size, ageMs, stale: ageMs > STALE_TEMP_MS })
    }
  }

  report.ok =
    report.totals.missingReferenced + report.totals.corrupt + report.totals.danglingFiles + report.totals.mismatchedFiles === 0
  report.durationMs = Math.round(performance.now() - started)
  return report
}

/** Whether a row of `files` or `remote_cache` names the blob. */
export async function isReferenced(db: Kysely<Database>, sha256: string): Promise<boolean> {
  for (const ref of blobReferrers) {
    // biome-ignore lint/suspicious/noExplicitAny: referrers are registered by table name at run time
    const row = await (db as Kysely<any>)
      .selectFrom(ref.table)
      .select(ref.column)
      .where(ref.column, '=', sha256)
      .limit(1)
      .executeTakeFirst()
    if (row) return true
  }
  return false
}

async function readdirOr(dir: string): Promise<string[]> {
  return (await fs.promises.readdir(dir).catch(() => [] as string[])).sort()
}

/** Files under `blobs/ab/cd/` that are not a blob row's file; looked up a directory at a time. */
async function findStrayFiles(
  db: Kysely<Database>,
  root: string,
  found: (entry: IntegrityReport['orphanBlobs'][number]) => void,
): Promise<void> {
  const now = Date.now()
  const stray = async (relative: string) => {
    const stat = await fs.promises.stat(path.join(root, relative)).catch(() => undefined)
    if (stat) found({ path: relative, size: stat.size, ageMs: Math.max(0, now - stat.mtimeMs) })
  }
  for (const first of await readdirOr(root)) {
    if (first === 'tmp') continue
    if (!/^[0-9a-f]{2}$/.test(first)) {
      await stray(first)
      continue
    }
    for (const second of await readdirOr(path.join(root, first))) {
      const dir = path.join(first, second)
      if (!/^[0-9a-f]{2}$/.test(second)) {
        await stray(dir)
        continue
      }
      const names = await readdirOr(path.join(root, dir))
      const candidates = names.filter((n) => SHA256.test(n) && n.startsWith(first + second))
      for (const n of names) if (!candidates.includes(n)) await stray(path.join(dir, n))
      for (let i = 0; i < candidates.length; i += PAGE) {
        const batch = candidates.slice(i, i + PAGE)
        const known = new Set(
          (await db.selectFrom('blobs').select('sha256').where('sha256', 'in', batch).execute()).map((r) => r.sha256),
        )
        for (const n of batch) if (!known.has(n)) await stray(path.join(dir, n))
      }
    }
  }
}

/** The report as a person reads it: a summary line, then each problem. */
export function formatIntegrityReport(report: IntegrityReport): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  const lines = [
    `Checked ${report.blobsChecked} blobs (${mb(report.bytesChecked)} hashed) in ${(report.durationMs / 1000).toFixed(1)} s.`,
  ]
  const section = (title: string, total: number, entries: string[]) => {
    if (total === 0) return
    lines.push('', `${title}: ${total}${entries.length < total ? ` (first ${entries.length} listed)` : ''}`)
    for (const e of entries) lines.push(`  ${e}`)
  }
  const t = report.totals
  const missing = (referenced: boolean) =>
    report.missing.filter((m) => m.referenced === referenced).map((m) => `${m.sha256} (${m.size} bytes)`)
  section('Missing blob files (a file row names them: downloads fail)', t.missingReferenced, missing(true))
  section(
    'Corrupt blob files (content does not match its name or size)',
    t.corrupt,
    report.corrupt.map(
      (c) =>
        `${c.sha256}: ${c.actualSize} bytes (expected ${c.expectedSize})${c.actualSha256 ? `, hashes to ${c.actualSha256}` : ''}`,
    ),
  )
  section(
    'Rows naming a blob that has no row',
    t.danglingFiles,
    report.danglingFiles.map((d) => `${d.table} ${d.repoKey}/${d.path} → ${d.sha256}`),
  )
  section(
    'File rows that disagree with their blob',
    t.mismatchedFiles,
    report.mismatchedFiles.map((m) => `${m.repoKey}/${m.path}: ${m.field} ${m.file}, the blob's ${m.blob}`),
  )
  section(
    'Warning: blob rows without a file that nothing names (an upload cut off; the blob GC removes them)',
    t.missing - t.missingReferenced,
    missing(false),
  )
  section(
    'Warning: files in the store no row names (space only)',
    t.orphanBlobs,
    report.orphanBlobs.map((o) => `${o.path} (${o.size} bytes)`),
  )
  const stale = report.tempFiles.filter((f) => f.stale)
  section(
    'Warning: temp files older than a day (uploads that died; the blob GC removes them)',
    stale.length,
    stale.map((f) => `${f.path} (${f.size} bytes)`),
  )
  if (report.unreferencedBlobs > 0) {
    lines.push('', `${report.unreferencedBlobs} blobs no file names (the blob GC frees them after an hour).`)
  }
  lines.push('', report.ok ? 'No problems found.' : 'Problems found: see above.')
  return `${lines.join('\n')}\n`
}
