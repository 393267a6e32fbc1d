import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely'
import type { Database } from './schema.js'

export type Dialect = 'sqlite' | 'postgres'

export interface Db {
  kysely: Kysely<Database>
  dialect: Dialect
  /** Where the data lives, for logs and the version call: a file path or a host/database. */
  location: string
}

/**
 * Opens the metadata database: PostgreSQL when a URL is given, else a SQLite file in the data dir.
 * Only the driver in use is loaded (pg alone takes ~100 ms to import: start-up time matters).
 */
export async function openDb(
  options: { databaseUrl: string | undefined; dataDir: string },
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
    return {
      kysely: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
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
  return {
    kysely: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }),
    dialect: 'sqlite',
    location: file,
  }
}
