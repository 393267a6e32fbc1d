import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Every Trove process registers itself; it is Online while its heartbeat is fresh.
  await db.schema
    .createTable('nodes')
    .addColumn('node_id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('version', 'varchar(50)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_ms', 'integer', (c) => c.notNull())
    .addColumn('last_heartbeat', 'bigint', (c) => c.notNull())
    .execute()
  // One row per module a node runs (a service of the cluster), beating with the node.
  await db.schema
    .createTable('node_services')
    .addColumn('node_id', 'varchar(100)', (c) => c.notNull().references('nodes.node_id').onDelete('cascade'))
    .addColumn('service', 'varchar(40)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_heartbeat', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_services_pk', ['node_id', 'service'])
    .execute()
  await db.schema
    .createTable('support_bundles')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull())
    .addColumn('service', 'varchar(40)', (c) => c.notNull())
    .addColumn('node_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('size', 'bigint')
    .addColumn('parameters', 'varchar(2000)', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('support_bundles_created').on('support_bundles').column('created_at').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('support_bundles').execute()
  await db.schema.dropTable('node_services').execute()
  await db.schema.dropTable('nodes').execute()
}
