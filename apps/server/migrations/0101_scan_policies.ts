import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // What the scanner's findings mean for the organisation: a policy's rules and actions, applied
  // by watches to repositories (services/scanner/policies.ts).
  await db.schema
    .createTable('scan_policies')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull())
    // JSON: { minSeverity, allowedLicenses, deniedLicenses, actions: { notify, failBuild, blockDownload } }
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('scan_watches')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    // JSON: { repositories: string[] ("*": all), builds: string[], projects: string[], policies: string[] }
    .addColumn('resources', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
  // A violation an administrator accepts, with a reason, until it expires.
  await db.schema
    .createTable('scan_ignore_rules')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('advisory_id', 'varchar(255)')
    .addColumn('license', 'varchar(255)')
    .addColumn('package_id', 'varchar(600)')
    .addColumn('version', 'varchar(255)')
    .addColumn('reason', 'varchar(1000)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('created_by', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['scan_ignore_rules', 'scan_watches', 'scan_policies']) await db.schema.dropTable(t).execute()
}
