import { type Kysely, sql } from 'kysely'
import { isSqlite } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The tree browser walks a folder's children by seeking through (repo_key, path) in byte order
  // (storage/tree.ts): PostgreSQL compares paths in the "C" collation, as SQLite's BINARY.
  if (!isSqlite(db)) await sql`ALTER TABLE files ALTER COLUMN path TYPE varchar(2048) COLLATE "C"`.execute(db)
  // File search by checksum (/api/search/checksum; sha1 has its index since 0076) and by property (/api/search/prop).
  await db.schema.createIndex('files_md5').on('files').column('md5').execute()
  await db.schema.createIndex('file_properties_name_value').on('file_properties').columns(['name', 'value']).execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('file_properties_name_value').execute()
  await db.schema.dropIndex('files_md5').execute()
}
