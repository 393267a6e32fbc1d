import { type Kysely, sql } from 'kysely'
import { isSemverRelease, semverKey } from '../src/storage/semverKey.js'
import { autoId, isSqlite } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db)
  // Versions sort and page by a precomputed key whose byte order is the semver order, and the
  // "only releases" filter reads a flag. Names and keys compare byte-wise in both dialects
  // (PostgreSQL's "C" collation; SQLite's default BINARY), so keyset paging and name-prefix
  // ranges walk an index whatever the database's locale.
  await db.schema
    .alterTable('package_versions')
    .addColumn('semver_key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .alterTable('package_versions')
    .addColumn('release', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  if (!sqlite) {
    await sql`ALTER TABLE package_versions ALTER COLUMN semver_key TYPE varchar(255) COLLATE "C"`.execute(db)
    await sql`ALTER TABLE package_versions ALTER COLUMN version TYPE varchar(255) COLLATE "C"`.execute(db)
    await sql`ALTER TABLE packages ALTER COLUMN lowercase_name TYPE varchar(512) COLLATE "C"`.execute(db)
    await sql`ALTER TABLE packages ALTER COLUMN name TYPE varchar(512) COLLATE "C"`.execute(db)
  }
  const rows = await db.selectFrom('package_versions').select(['id', 'version']).execute()
  for (const r of rows as { id: number; version: string }[]) {
    await db
      .updateTable('package_versions')
      .set({ semver_key: semverKey(r.version), release: isSemverRelease(r.version) ? 1 : 0 })
      .where('id', '=', r.id)
      .execute()
  }

  // The package list: default order (name), newest first, most downloaded; id breaks ties.
  await db.schema.dropIndex('packages_lowercase_name').execute()
  await db.schema.createIndex('packages_lowercase_name_id').on('packages').columns(['lowercase_name', 'id']).execute()
  await db.schema.createIndex('packages_modified_id').on('packages').columns(['modified_at', 'id']).execute()
  await db.schema.createIndex('packages_created_id').on('packages').columns(['created_at', 'id']).execute()
  await db.schema.createIndex('packages_downloads_id').on('packages').columns(['downloads', 'id']).execute()
  // A package's versions in semver order, covering the repository so readable ones are told apart
  // without reading the rows.
  await db.schema
    .createIndex('package_versions_semver')
    .on('package_versions')
    .columns(['package_id', 'semver_key', 'version', 'repo_key'])
    .execute()
  await db.schema.createIndex('package_versions_created').on('package_versions').columns(['package_id', 'created_at']).execute()

  // Build info as CI tools publish it (PUT /api/build): one row per build run, its modules'
  // artifacts and dependencies with their checksums (the Builds tab matches files by checksum).
  await db.schema
    .createTable('builds')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('number', 'varchar(255)', (c) => c.notNull())
    // As the tool wrote it (ISO 8601 with a zone offset) and as epoch ms for ordering.
    .addColumn('started', 'varchar(64)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)')
    .addColumn('agent', 'varchar(255)')
    // The whole document, as published.
    .addColumn('info', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('builds_name_number', ['name', 'number'])
    .execute()
  await db.schema
    .createTable('build_items')
    .addColumn('build_id', 'integer', (c) => c.notNull().references('builds.id').onDelete('cascade'))
    .addColumn('module_id', 'varchar(512)', (c) => c.notNull())
    // artifact (the module produced it) or dependency (the module used it)
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('md5', 'varchar(32)')
    .execute()
  await db.schema.createIndex('build_items_build').on('build_items').column('build_id').execute()
  await db.schema.createIndex('build_items_sha1').on('build_items').column('sha1').execute()
  await db.schema.createIndex('build_items_sha256').on('build_items').column('sha256').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('build_items').execute()
  await db.schema.dropTable('builds').execute()
  for (const index of [
    'package_versions_created',
    'package_versions_semver',
    'packages_downloads_id',
    'packages_created_id',
    'packages_modified_id',
    'packages_lowercase_name_id',
  ]) {
    await db.schema.dropIndex(index).execute()
  }
  await db.schema.createIndex('packages_lowercase_name').on('packages').column('lowercase_name').execute()
  await db.schema.alterTable('package_versions').dropColumn('release').execute()
  await db.schema.alterTable('package_versions').dropColumn('semver_key').execute()
}
