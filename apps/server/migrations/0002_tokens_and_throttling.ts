import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Access tokens and API keys. Only a sha256 of the secret is kept for lookup; an API key is also
  // kept encrypted, because its owner may ask to see it again (after re-entering the password).
  await db.schema
    .createTable('tokens')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('secret_encrypted', 'text')
    .addColumn('description', 'varchar(255)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute()
  await db.schema.createIndex('tokens_user_id').on('tokens').columns(['user_id', 'kind']).execute()

  // Failed sign-ins per user name and per address, for the progressive delay and the lock.
  await db.schema
    .createTable('signin_failures')
    .addColumn('key', 'varchar(320)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signin_failures').execute()
  await db.schema.dropTable('tokens').execute()
}
