import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // What each node last saw of every other node on its own heartbeat: the other's last heartbeat
  // as read then, and when it was read (the Peers screen shows the cluster as each node sees it).
  await db.schema
    .createTable('node_peers')
    .addColumn('observer_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('peer_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('peer_last_heartbeat', 'bigint', (c) => c.notNull())
    .addColumn('observed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('node_peers_pk', ['observer_id', 'peer_id'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('node_peers').execute()
}
