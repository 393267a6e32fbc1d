import { type ColumnDefinitionBuilder, type Kysely, SqliteAdapter } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter

/** An auto-numbered integer primary key in both dialects. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export const autoId = (db: Kysely<any>) => (c: ColumnDefinitionBuilder) =>
  isSqlite(db) ? c.primaryKey().autoIncrement() : c.primaryKey().generatedByDefaultAsIdentity()
