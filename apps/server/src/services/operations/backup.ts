import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { blobReferrers } from '../../core/blobStore.js'
import type { Config } from '../../core/config.js'

/**
 * Backup and restore of a node's data: a consistent snapshot of the database, then the blobs that
 * snapshot names, then the data dir's own files (the master key that seals secrets, the cluster
 * secret). Blobs are content-addressed and never change under their name, so copying them after
 * the snapshot is consistent: every blob a row of the snapshot names was stored before that row
 * committed. See docs/operations.md.
 */

export const MANIFEST = 'backup.json'
const SQLITE_FILE = 'trove.db'
const PG_DUMP_FILE = 'database.dump'
/** Entries of the data dir a backup leaves out: the database and blobs (copied their own way), and what is rebuilt or disposable. */
const NOT_DATA = new Set([SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`, 'blobs', 'logs', 'support', 'git'])
const SHA256 = /^[0-9a-f]{64}$/
const PAGE = 500

export interface BackupManifest {
  format: 1
  createdAt: string
  database: 'sqlite' | 'postgres'
  /** The migrations the snapshot had run: which release wrote it. */
  migrations: string[]
  blobs: number
  bytes: number
  /** Blob rows of the snapshot left out: their file was gone and no row names them (uploads cut off). */
  skipped: number
  /** Entries of the data dir copied under `data/`. */
  dataFiles: string[]
}

export interface CopyOptions {
  /** Hard-link blobs instead of copying them (same file system only; the copy is then not verified). */
  link?: boolean
  /** Progress lines for a person. */
  log?: (line: string) => void
}

export class BackupError extends Error {}

/** The database's blobs as of the snapshot, read a page at a time. */
interface SnapshotReader {
  page(after: string): Promise<{ sha256: string; size: number }[]>
  referenced(sha256: string): Promise<boolean>
  migrations(): Promise<string[]>
  close(): Promise<void>
}

const blobRel = (sha256: string) => path.join(sha256.slice(0, 2), sha256.slice(2, 4), sha256)

/** Whether `inner` is `outer` or inside it. */
const within = (outer: string, inner: string) => {
  const rel = path.relative(outer, inner)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/** A PostgreSQL client program: by name on PATH, else the newest under /usr/lib/postgresql (Debian's layout). */
function pgPrograms(name: 'pg_dump' | 'pg_restore'): string[] {
  const root = '/usr/lib/postgresql'
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : []
  return [name, ...versions.map((v) => path.join(root, v, 'bin', name))]
}

/** The URL without its password, and the environment that carries the password (never on a command line). */
function pgTarget(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url)
  const password = decodeURIComponent(u.password)
  u.password = ''
  // The child inherits this process's environment (PATH, PG* settings), plus the password.
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } }
}

async function runPg(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  for (const program of pgPrograms(name)) {
    try {
      return await runProgram(program, args, env)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  throw new BackupError(`${name} was not found on PATH or under /usr/lib/postgresql: install the PostgreSQL client programs`)
}

function runProgram(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code === 0) resolve()
      else reject(new BackupError(`${path.basename(program)} failed (exit ${code}): ${stderr.trim()}`))
    })
  })
}

async function sqliteSnapshot(dataDir: string, target: string): Promise<SnapshotReader> {
  const source = path.join(dataDir, SQLITE_FILE)
  if (!fs.existsSync(source)) throw new BackupError(`No database at ${source}`)
  const { default: SQLite } = await import('better-sqlite3')
  const live = new SQLite(source, { fileMustExist: true })
  try {
    live.pragma('busy_timeout = 5000')
    // One read transaction copies the whole database, whatever writers do meanwhile (unlike the
    // page-by-page backup API, which starts again when another connection writes).
    live.prepare('VACUUM INTO ?').run(target)
  } finally {
    live.close()
  }
  const snap = new SQLite(target, { readonly: true, fileMustExist: true })
  const page = snap.prepare('SELECT sha256, size FROM blobs WHERE sha256 > ? ORDER BY sha256 LIMIT ?')
  const refs = blobReferrers.map((r) => snap.prepare(`SELECT 1 FROM ${r.table} WHERE ${r.column} = ? LIMIT 1`))
  return {
    page: async (after) => page.all(after, PAGE) as { sha256: string; size: number }[],
    referenced: async (sha256) => refs.some((q) => q.get(sha256) !== undefined),
    migrations: async () =>
      (snap.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name),
    close: async () => {
      snap.close()
    },
  }
}

/**
 * pg_dump in a snapshot the backup shares: one REPEATABLE READ transaction exports its snapshot,
 * pg_dump dumps that snapshot, and the blob list is read in the same transaction, so the list and
 * the dump agree exactly whatever is written meanwhile.
 */
async function postgresSnapshot(databaseUrl: string, target: string): Promise<SnapshotReader> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    const exported = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')
    const { url, env } = pgTarget(databaseUrl)
    await runPg('pg_dump', ['--format=custom', `--snapshot=${exported.rows[0]?.id}`, `--file=${target}`, `--dbname=${url}`], env)
  } catch (error) {
    await client.end().catch(() => {})
    throw error
  }
  return {
    page: async (after) =>
      (
        await client.query<{ sha256: string; size: string }>(
          'SELECT sha256, size FROM blobs WHERE sha256 > $1 ORDER BY sha256 LIMIT $2',
          [after, PAGE],
        )
      ).rows.map((r) => ({ sha256: r.sha256, size: Number(r.size) })),
    referenced: async (sha256) => {
      for (const r of blobReferrers) {
        const res = await client.query(`SELECT 1 FROM ${r.table} WHERE ${r.column} = $1 LIMIT 1`, [sha256])
        if (res.rowCount) return true
      }
      return false
    },
    migrations: async () =>
      (await client.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((r) => r.name),
    close: async () => {
      await client.query('COMMIT').catch(() => {})
      await client.end()
    },
  }
}

/**
 * Copies one blob, hashing it on the way: a copy that does not hash to its name (a corrupt source)
 * is refused, so a backup never carries a damaged blob forward unnoticed. Written under a temp name
 * and renamed, so an interrupted copy leaves no file under a blob's name.
 */
export async function copyBlob(from: string, to: string, sha256: string, options: { link?: boolean } = {}): Promise<number> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true })
  if (options.link) {
    try {
      await fs.promises.link(from, to)
      return (await fs.promises.stat(to)).size
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await fs.promises.stat(to)).size
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
      // Another file system: copy after all.
    }
  }
  const partial = `${to}.part`
  const hash = crypto.createHash('sha256')
  let size = 0
  await pipeline(
    fs.createReadStream(from, { highWaterMark: 1024 * 1024 }),
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk)
        size += chunk.length
        done(null, chunk)
      },
    }),
    fs.createWriteStream(partial),
  )
  const actual = hash.digest('hex')
  if (actual !== sha256) {
    await fs.promises.rm(partial, { force: true })
    throw new BackupError(`Blob ${sha256} is corrupt: its content hashes to ${actual} (run the doctor command)`)
  }
  await fs.promises.rename(partial, to)
  return size
}

function ensureEmptyDir(dir: string, what: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new BackupError(`${what} ${dir} is not empty`)
  fs.mkdirSync(dir, { recursive: true })
}

/** Writes a backup of the node's database, blobs and data files into `target` (a new or empty directory). */
export async function backup(config: Config, target: string, options: CopyOptions = {}): Promise<BackupManifest> {
  const log = options.log ?? (() => {})
  const dir = path.resolve(target)
  if (within(config.dataDir, dir))
    throw new BackupError(`The backup directory ${dir} is inside the data dir: choose one outside it`)
  ensureEmptyDir(dir, 'The backup directory')
  const database = config.databaseUrl ? 'postgres' : 'sqlite'

  log(`Snapshot of the ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database…`)
  const snapshot = config.databaseUrl
    ? await postgresSnapshot(config.databaseUrl, path.join(dir, PG_DUMP_FILE))
    : await sqliteSnapshot(config.dataDir, path.join(dir, SQLITE_FILE))
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database,
    migrations: [],
    blobs: 0,
    bytes: 0,
    skipped: 0,
    dataFiles: [],
  }
  const lost: string[] = []
  try {
    manifest.migrations = await snapshot.migrations()
    log('Blobs…')
    const store = path.join(config.dataDir, 'blobs')
    let after = ''
    for (;;) {
      const rows = await snapshot.page(after)
      if (rows.length === 0) break
      after = rows[rows.length - 1]?.sha256 ?? after
      for (const { sha256 } of rows) {
        if (!SHA256.test(sha256)) continue
        const from = path.join(store, blobRel(sha256))
        if (!fs.existsSync(from)) {
          // A row whose file never landed (an upload cut off) is harmless unless a row names it; one
          // a row names was freed since the snapshot (its file deleted meanwhile), or is lost.
          if (await snapshot.referenced(sha256)) lost.push(sha256)
          else manifest.skipped++
          continue
        }
        manifest.bytes += await copyBlob(from, path.join(dir, 'blobs', blobRel(sha256)), sha256, options)
        manifest.blobs++
        if (manifest.blobs % 1000 === 0) log(`  ${manifest.blobs} blobs`)
      }
    }
  } finally {
    await snapshot.close()
  }
  if (lost.length > 0) {
    throw new BackupError(
      `${lost.length} blobs the snapshot's rows name are not in the store (first: ${lost[0]}): run the doctor command; if it reports none missing, they were deleted during the backup and a new backup will do`,
    )
  }

  for (const name of fs.readdirSync(config.dataDir).sort()) {
    if (NOT_DATA.has(name) || name.startsWith('tmp-')) continue
    await fs.promises.cp(path.join(config.dataDir, name), path.join(dir, 'data', name), {
      recursive: true,
      preserveTimestamps: true,
    })
    manifest.dataFiles.push(name)
  }
  // The manifest last: a directory without one is an unfinished backup, which restore refuses.
  fs.writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

export function readManifest(dir: string): BackupManifest {
  const file = path.join(dir, MANIFEST)
  if (!fs.existsSync(file)) throw new BackupError(`${dir} holds no finished backup (${MANIFEST} is missing)`)
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest
  if (manifest.format !== 1) throw new BackupError(`Unknown backup format ${String(manifest.format)} in ${file}`)
  return manifest
}

async function emptyPostgres(databaseUrl: string): Promise<boolean> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const res = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    )
    return Number(res.rows[0]?.n) === 0
  } finally {
    await client.end()
  }
}

/**
 * Restores a backup onto a new data dir (and, for PostgreSQL, a new empty database): every blob is
 * verified while it is copied. The server then starts on it as usual (running any newer migrations).
 */
export async function restore(config: Config, source: string, options: CopyOptions = {}): Promise<BackupManifest> {
  const log = options.log ?? (() => {})
  const dir = path.resolve(source)
  const manifest = readManifest(dir)
  if (manifest.database === 'postgres' && !config.databaseUrl) {
    throw new BackupError(
      'This backup is of a PostgreSQL database: set TROVE_DATABASE_URL to a new, empty database to restore it into',
    )
  }
  if (manifest.database === 'sqlite' && config.databaseUrl) {
    throw new BackupError('This backup is of a SQLite database: unset TROVE_DATABASE_URL to restore it into the data dir')
  }
  const dataDir = config.dataDir
  if (fs.existsSync(path.join(dataDir, SQLITE_FILE)))
    throw new BackupError(`${dataDir} already holds a database: restore onto a new data dir`)
  const store = path.join(dataDir, 'blobs')
  if (fs.existsSync(store) && fs.readdirSync(store).some((n) => n !== 'tmp')) {
    throw new BackupError(`${store} already holds blobs: restore onto a new data dir`)
  }
  if (config.databaseUrl && !(await emptyPostgres(config.databaseUrl))) {
    throw new BackupError('The database TROVE_DATABASE_URL names is not empty: restore into a new, empty database')
  }
  fs.mkdirSync(dataDir, { recursive: true })

  log('Data files…')
  for (const name of manifest.dataFiles) {
    await fs.promises.cp(path.join(dir, 'data', name), path.join(dataDir, name), { recursive: true, preserveTimestamps: true })
  }
  log('Blobs…')
  let blobs = 0
  const from = path.join(dir, 'blobs')
  for (const first of fs.existsSync(from) ? fs.readdirSync(from).sort() : []) {
    for (const second of fs.readdirSync(path.join(from, first)).sort()) {
      for (const name of fs.readdirSync(path.join(from, first, second)).sort()) {
        if (!SHA256.test(name)) continue
        await copyBlob(path.join(from, first, second, name), path.join(store, blobRel(name)), name, options)
        if (++blobs % 1000 === 0) log(`  ${blobs} blobs`)
      }
    }
  }
  if (blobs !== manifest.blobs) throw new BackupError(`The backup lists ${manifest.blobs} blobs but holds ${blobs}`)

  log('Database…')
  if (config.databaseUrl) {
    const { url, env } = pgTarget(config.databaseUrl)
    await runPg(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${url}`,
        path.join(dir, PG_DUMP_FILE),
      ],
      env,
    )
  } else {
    // Copied under a temp name and renamed: a database file is there whole or not at all.
    const partial = path.join(dataDir, `${SQLITE_FILE}.restoring`)
    await fs.promises.copyFile(path.join(dir, SQLITE_FILE), partial)
    await fs.promises.rename(partial, path.join(dataDir, SQLITE_FILE))
  }
  return manifest
}
