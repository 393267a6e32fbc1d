import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The onboarding questionnaire's steps as the user fills them in (shell §4.6): a reload, or
  // another browser, resumes where the user was.
  await db.schema
    .createTable('onboarding_steps')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('step', 'varchar(20)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('is_completed', 'integer', (c) => c.notNull())
    .addColumn('is_valid', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('onboarding_steps_pk', ['user_id', 'step'])
    .execute()
  // What a user told the questionnaire once sent (the flattened steps), kept with the user.
  await db.schema
    .createTable('user_custom_data')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_custom_data').execute()
  await db.schema.dropTable('onboarding_steps').execute()
}
