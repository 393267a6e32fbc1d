import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // A command-line client waiting for a browser to approve its sign-in. The client's session id
  // is kept hashed; the tokens made at approval wait here, sealed, until the client collects them.
  await db.schema
    .createTable('cli_logins')
    .addColumn('session_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('approved_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('tokens_sealed', 'text')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cli_logins').execute()
}
