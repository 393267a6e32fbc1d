import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // What an access token may do within its owner's rights: full, deploy or read.
  await db.schema
    .alterTable('tokens')
    .addColumn('scope', 'varchar(16)', (c) => c.notNull().defaultTo('full'))
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tokens').dropColumn('scope').execute()
}
