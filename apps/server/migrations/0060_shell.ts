import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Per-user console state kept on the server (menus' last destinations, personalization…),
  // so it follows the user from browser to browser.
  await db.schema
    .createTable('user_local_storage')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_local_storage_pk', ['user_id', 'key'])
    .execute()
  // Reverse proxy configurations (operations §3); the body is the JSON of the contract.
  await db.schema
    .createTable('reverse_proxies')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reverse_proxies').execute()
  await db.schema.dropTable('user_local_storage').execute()
}
