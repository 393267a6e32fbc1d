import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The TOTP secret is kept encrypted; the last accepted time step stops a code being used twice.
  await db.schema.alterTable('users').addColumn('mfa_secret_encrypted', 'text').execute()
  await db.schema.alterTable('users').addColumn('mfa_enroll_secret_encrypted', 'text').execute()
  await db.schema.alterTable('users').addColumn('mfa_last_step', 'bigint').execute()
  await db.schema
    .alterTable('users')
    .addColumn('mfa_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // A session whose password passed but whose one-time code has not yet: it grants nothing else.
  await db.schema
    .alterTable('sessions')
    .addColumn('mfa_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('sessions')
    .addColumn('mfa_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // Instance-wide settings changed by administrators, one JSON value per key.
  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('settings').execute()
  for (const column of ['mfa_pending', 'mfa_failures']) await db.schema.alterTable('sessions').dropColumn(column).execute()
  for (const column of ['mfa_secret_encrypted', 'mfa_enroll_secret_encrypted', 'mfa_last_step', 'mfa_required']) {
    await db.schema.alterTable('users').dropColumn(column).execute()
  }
}
