import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // When the password was last set, for the expiry policy. Existing users count from now.
  await db.schema.alterTable('users').addColumn('password_changed_at', 'bigint').execute()
  await db.updateTable('users').set({ password_changed_at: Date.now() }).execute()
  // Single-use links sent by mail (password reset); only a hash of the link's key is kept.
  await db.schema
    .createTable('mail_tokens')
    .addColumn('key_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_tokens').execute()
  await db.schema.alterTable('users').dropColumn('password_changed_at').execute()
}
