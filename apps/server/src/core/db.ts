import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import { ClusterWrites } from './clusterWrites.js'
import { WriteWatch, watchWrites } from './dbWrites.js'
import { DatabaseUnavailable } from './errors.js'
import type { Database } from './schema.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  /** Where the data lives, for logs and the version call: a file path or a host/database. */
  location: string
  /** Committed writes, by table: in-memory caches drop what a change on this node makes stale. */
  writes: WriteWatch
  /** On PostgreSQL: tells the other nodes of this node's writes and hears theirs (LISTEN/NOTIFY). */
  cluster?: ClusterWrites
  /** Stops listening and closes the connections. */
  close(): Promise<void>
}

/** Columns that only keep count or time of use: updates of these alone do not make a cached answer stale. */
const BOOKKEEPING: Record<string, string[]> = {
  tokens: ['last_used_at'],
  sessions: ['last_seen_at'],
  files: ['download_count', 'last_downloaded_at'],
  package_versions: ['download_count'],
  packages: ['downloads'],
  blobs: ['touched_at'],
}

/** Tables whose writes tell which rows they changed, by a column (core/dbWrites.ts, changedScope): most by repository. */
const SCOPE_COLUMNS: Record<string, string> = {
  files: 'repo_key',
  package_versions: 'repo_key',
  dist_tags: 'repo_key',
  remote_cache: 'repo_key',
  // Not a repository: the version whose scan status changed (the scanner looks again from there).
  scan_status: 'version_id',
}

/** Prepared statements kept per SQL text (Kysely prepares each query anew; preparing costs more than running a lookup). */
const STATEMENT_CACHE_LIMIT = 1000

/** Socket errors a query meets when the database's connection breaks under it. */
const SOCKET_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH'])

type SqliteDatabase = import('better-sqlite3').Database
type SqliteStatement = import('better-sqlite3').Statement

function cachePreparedStatements(database: SqliteDatabase): void {
  const prepare = database.prepare.bind(database)
  const cache = new Map<string, SqliteStatement>()
  database.prepare = ((sql: string) => {
    const hit = cache.get(sql)
    // A statement still stepping through rows (a streamed query) cannot run twice at once.
    if (hit && !(hit as SqliteStatement & { busy: boolean }).busy) return hit
    const stmt = prepare(sql)
    if (cache.size >= STATEMENT_CACHE_LIMIT) cache.clear()
    if (!hit) cache.set(sql, stmt)
    return stmt
  }) as SqliteDatabase['prepare']
}

/**
 * Opens the metadata database: PostgreSQL when a URL is given, else a SQLite file in the data dir.
 * Only the driver in use is loaded (pg alone takes ~100 ms to import: start-up time matters).
 */
export async function openDb(
  options: { databaseUrl: string | undefined; dataDir: string; node?: { id: string } },
  onConnectionLost: (err: Error) => void = () => {},
): Promise<Db> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg')
    // int8 (bigint) columns hold epoch milliseconds, which fit a JS number exactly.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 })
    // An idle connection the server ends (a restart, a failover, an administrator) is dropped from
    // the pool and reported; the next query opens a new one. Unhandled, it would end the process.
    pool.on('error', onConnectionLost)
    const url = new URL(options.databaseUrl)
    const writes = new WriteWatch(BOOKKEEPING, SCOPE_COLUMNS)
    // A connection the server ends while it is checked out (a transaction awaiting a file write,
    // say) emits 'error' on the client, to which the pool listens only while it is idle: unhandled,
    // it ended the process. Reported; the query that uses it fails, and the pool drops it.
    const watched = new WeakSet<object>()
    // A connection that cannot be made says so: the request answers 503, not 500 (core/errors.ts).
    const connecting = {
      connect: () =>
        pool.connect().then(
          (client) => {
            if (!watched.has(client)) {
              watched.add(client)
              // The socket failing under a query (reset, a broken pipe) is the database going away
              // too, but its error carries only the socket's code: said so here, where it is known
              // to come from the database's connection.
              const query = client.query.bind(client) as (...args: unknown[]) => unknown
              Object.assign(client, {
                query: (...args: unknown[]) => {
                  const result = query(...args)
                  if (!(result instanceof Promise)) return result
                  return result.catch((error: unknown) => {
                    throw SOCKET_FAILURES.has((error as { code?: string })?.code ?? '') ? new DatabaseUnavailable(error) : error
                  })
                },
              })
              // While idle, the pool's own listener is there too and reports it.
              client.on('error', (err: Error) => {
                if (client.listenerCount('error') === 1) onConnectionLost(err)
              })
            }
            return client
          },
          (error: unknown) => {
            throw new DatabaseUnavailable(error)
          },
        ),
      end: () => pool.end(),
    }
    // The process's id in the cluster: a node's id, made unique per process (a restarted node is another listener).
    const processId = `${options.node?.id ?? 'node'}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
    const cluster = new ClusterWrites(pg, pool, writes, {
      connectionString: options.databaseUrl,
      processId,
      onLost: onConnectionLost,
    })
    const kysely = new Kysely<Database>({ dialect: watchWrites(new PostgresDialect({ pool: connecting }), writes) })
    return {
      kysely,
      writes,
      cluster,
      close: async () => {
        await cluster.close()
        await kysely.destroy()
      },
      dialect: 'postgres',
      location: `${url.hostname}:${url.port || 5432}${url.pathname}`,
    }
  }
  const { default: SQLite } = await import('better-sqlite3')
  fs.mkdirSync(options.dataDir, { recursive: true })
  const file = path.join(options.dataDir, 'trove.db')
  const database = new SQLite(file)
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  cachePreparedStatements(database)
  const writes = new WriteWatch(BOOKKEEPING, SCOPE_COLUMNS)
  // A transaction takes the write lock when it begins: with several processes on the file (worker
  // processes, nodes), a deferred one that read first could not upgrade once another had written
  // (SQLITE_BUSY at once, the busy timeout does not apply); an immediate one waits its turn.
  const kysely = new Kysely<Database>({ dialect: watchWrites(new SqliteDialect({ database }), writes, 'begin immediate') })
  return {
    kysely,
    writes,
    close: () => kysely.destroy(),
    dialect: 'sqlite',
    location: file,
  }
}
