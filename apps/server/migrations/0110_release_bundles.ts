import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Release bundles (services/distribution): made here (origin `source`) or received from another
  // node (origin `target`). A signed bundle keeps its canonical manifest and signature.
  await db.schema
    .createTable('release_bundles')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('origin', 'varchar(10)', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull())
    .addColumn('release_notes', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('signed_at', 'bigint')
    .addColumn('key_id', 'varchar(200)')
    .addColumn('signature', 'varchar(1000)')
    .addColumn('manifest', 'text')
    .addColumn('source_url', 'varchar(2000)')
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('release_bundles_name_version_origin', ['name', 'version', 'origin'])
    .execute()
  // The files a bundle names: a signed bundle's files cannot be deleted or overwritten.
  await db.schema
    .createTable('release_bundle_files')
    .addColumn('bundle_id', 'integer', (c) => c.notNull())
    .addColumn('repo_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('path', 'varchar(2048)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('package_type', 'varchar(40)')
    .addColumn('package_name', 'varchar(500)')
    .addColumn('package_version', 'varchar(255)')
    .addPrimaryKeyConstraint('release_bundle_files_pk', ['bundle_id', 'repo_key', 'path'])
    .execute()
  await db.schema.createIndex('release_bundle_files_path').on('release_bundle_files').columns(['repo_key', 'path']).execute()
  await db.schema.createIndex('release_bundle_files_sha256').on('release_bundle_files').column('sha256').execute()
  await db.schema.createIndex('release_bundle_files_sha1').on('release_bundle_files').column('sha1').execute()
  await db.schema.createIndex('release_bundle_files_md5').on('release_bundle_files').column('md5').execute()
  // This node's signing keys (Ed25519; the private key sealed); one is active.
  await db.schema
    .createTable('signing_keys')
    .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('algorithm', 'varchar(20)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .execute()
  // Keys of the sources this node accepts bundles from (set by a source with an admin's token).
  await db.schema
    .createTable('trusted_keys')
    .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('source', 'varchar(200)', (c) => c.notNull())
    .addColumn('source_url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('distribution_targets')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  // One row per (bundle, target): what the distributor does next and how far it got.
  await db.schema
    .createTable('distributions')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('bundle_id', 'integer', (c) => c.notNull())
    .addColumn('target', 'varchar(128)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('files_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_total', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'varchar(2000)')
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claimed_by', 'varchar(200)')
    .addColumn('claimed_at', 'bigint')
    .addColumn('actor', 'varchar(255)')
    .addUniqueConstraint('distributions_bundle_target', ['bundle_id', 'target'])
    .execute()
  // Target history: every distribution, reception and deletion on this node.
  await db.schema
    .createTable('distribution_history')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('bundle', 'varchar(128)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('peer', 'varchar(2000)')
    .addColumn('actor', 'varchar(255)')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('result', 'varchar(10)', (c) => c.notNull())
    .addColumn('detail', 'varchar(2000)', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'distribution_history',
    'distributions',
    'distribution_targets',
    'trusted_keys',
    'signing_keys',
    'release_bundle_files',
    'release_bundles',
  ])
    await db.schema.dropTable(t).execute()
}
