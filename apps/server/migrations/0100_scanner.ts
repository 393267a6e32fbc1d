import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The advisory database, in OSV's terms (services/scanner/types.ts). An import replaces a record
  // whose id it carries, in one transaction.
  await db.schema
    .createTable('advisories')
    .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('modified', 'varchar(64)', (c) => c.notNull())
    .addColumn('published', 'varchar(64)')
    .addColumn('withdrawn', 'varchar(64)')
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('summary', 'varchar(1000)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('cvss_score', 'real')
    .addColumn('cvss_vector', 'varchar(255)')
    .addColumn('refs', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .execute()
  // One row per affected package of an advisory: what a component is matched against.
  await db.schema
    .createTable('advisory_packages')
    .addColumn('advisory_id', 'varchar(255)', (c) => c.notNull().references('advisories.id').onDelete('cascade'))
    .addColumn('ecosystem', 'varchar(32)', (c) => c.notNull())
    .addColumn('release', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    // JSON: { ranges, versions } of the OSV affected entry
    .addColumn('affected', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('advisory_packages_name').on('advisory_packages').columns(['ecosystem', 'name']).execute()
  await db.schema.createIndex('advisory_packages_advisory').on('advisory_packages').column('advisory_id').execute()

  // Where each version's scan stands. A version without a row is waiting to be scanned; a node
  // claims it by inserting the row (state "scanning"), so two scanners never scan one version.
  await db.schema
    .createTable('scan_status')
    .addColumn('version_id', 'integer', (c) => c.primaryKey().references('package_versions.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(2000)')
    .addColumn('claimed_by', 'varchar(255)')
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('scanned_at', 'bigint')
    // The image's operating system ("debian 12"), for matching its OS packages
    .addColumn('os', 'varchar(64)')
    .addColumn('critical', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('high', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('medium', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('low', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unknown', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('scan_status_state').on('scan_status').columns(['state', 'claimed_at']).execute()

  // What a scan found inside a version, kept so that a database update re-evaluates without
  // reading the version's files again.
  await db.schema
    .createTable('scan_components')
    .addColumn('id', 'integer', autoId(db))
    // Of a stored version, or of a git repository selected through a git integration
    .addColumn('version_id', 'integer', (c) => c.references('package_versions.id').onDelete('cascade'))
    .addColumn('git_repo_id', 'integer', (c) => c.references('git_scan_repositories.id').onDelete('cascade'))
    .addColumn('ecosystem', 'varchar(32)', (c) => c.notNull())
    // The OS release a Debian or Alpine package belongs to ("12", "v3.19"), or ""
    .addColumn('release', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    .addColumn('path', 'varchar(2048)', (c) => c.notNull())
    .addColumn('binary_name', 'varchar(512)')
    // JSON array of { name, spdx }
    .addColumn('licenses', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('scan_components_version').on('scan_components').column('version_id').execute()
  await db.schema.createIndex('scan_components_git').on('scan_components').column('git_repo_id').execute()
  await db.schema.createIndex('scan_components_name').on('scan_components').columns(['ecosystem', 'name']).execute()

  await db.schema
    .createTable('scan_findings')
    .addColumn('version_id', 'integer', (c) => c.references('package_versions.id').onDelete('cascade'))
    .addColumn('git_repo_id', 'integer', (c) => c.references('git_scan_repositories.id').onDelete('cascade'))
    .addColumn('component_id', 'integer', (c) => c.notNull().references('scan_components.id').onDelete('cascade'))
    .addColumn('advisory_id', 'varchar(255)', (c) => c.notNull().references('advisories.id').onDelete('cascade'))
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    // JSON array of the versions that fix it
    .addColumn('fixed', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('scan_findings_version').on('scan_findings').column('version_id').execute()
  await db.schema.createIndex('scan_findings_git').on('scan_findings').column('git_repo_id').execute()
  await db.schema.createIndex('scan_findings_component').on('scan_findings').column('component_id').execute()
  await db.schema.createIndex('scan_findings_advisory').on('scan_findings').column('advisory_id').execute()

  // A selected git repository's last scan (its manifests at the cloned head).
  for (const [name, type] of [
    ['scan_state', 'varchar(16)'],
    ['scan_reason', 'varchar(2000)'],
    ['scanned_at', 'bigint'],
    ['scanned_commit', 'varchar(64)'],
  ] as const)
    await db.schema.alterTable('git_scan_repositories').addColumn(name, type).execute()

  // Each import or feed sync, for the database status screen.
  await db.schema
    .createTable('advisory_imports')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('source', 'varchar(2048)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'varchar(2000)')
    .addColumn('created_by', 'varchar(255)')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['scan_state', 'scan_reason', 'scanned_at', 'scanned_commit'])
    await db.schema.alterTable('git_scan_repositories').dropColumn(name).execute()
  for (const t of ['advisory_imports', 'scan_findings', 'scan_components', 'scan_status', 'advisory_packages', 'advisories'])
    await db.schema.dropTable(t).execute()
}
