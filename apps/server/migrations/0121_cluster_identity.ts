import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The cluster's one row (singleton = 1): its id, part of every service id, and a check value of
  // the master key its secrets are sealed with, so that a node with another key refuses to start.
  // Nodes need share nothing but the database and the key (core/cluster.ts).
  await db.schema
    .createTable('cluster_identity')
    .addColumn('singleton', 'integer', (c) => c.primaryKey())
    .addColumn('id', 'varchar(32)', (c) => c.notNull())
    .addColumn('key_check', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cluster_identity').execute()
}
