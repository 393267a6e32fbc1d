import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Git vendors an administrator connected (packages-and-operations §3 "Integrations"). The token
  // is sealed with the secret box; field lengths: contracts/gitIntegrationConstants.ts.
  await db.schema
    .createTable('git_integrations')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('vendor', 'varchar(40)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('user_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_sealed', 'varchar(8192)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('status_message', 'varchar(1000)')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(255)')
    .execute()
  // The repositories chosen for the security scanner, and where their clone stands.
  await db.schema
    .createTable('git_scan_repositories')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('integration_id', 'integer', (c) => c.notNull().references('git_integrations.id').onDelete('cascade'))
    .addColumn('full_name', 'varchar(512)', (c) => c.notNull())
    .addColumn('clone_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('head_commit', 'varchar(64)')
    .addColumn('error', 'varchar(1000)')
    .addColumn('selected_at', 'bigint', (c) => c.notNull())
    .addColumn('cloned_at', 'bigint')
    .addUniqueConstraint('git_scan_repositories_integration_name', ['integration_id', 'full_name'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('git_scan_repositories').execute()
  await db.schema.dropTable('git_integrations').execute()
}
