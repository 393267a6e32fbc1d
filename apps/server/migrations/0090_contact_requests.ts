import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Contact-us requests (shell §2.7): each is kept with what became of its mail, so none is lost
  // when no mail server is configured or sending fails. Field lengths: contracts/contactConstants.ts.
  await db.schema
    .createTable('contact_requests')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('user_name', 'varchar(255)')
    .addColumn('first_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('country', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('help_option', 'varchar(40)', (c) => c.notNull())
    .addColumn('comment', 'varchar(2000)')
    .addColumn('marketo_data_key', 'varchar(200)')
    .addColumn('context', 'varchar(40)')
    .addColumn('delivery_status', 'varchar(20)', (c) => c.notNull())
    .addColumn('delivery_recipient', 'varchar(320)')
    .addColumn('delivery_error', 'varchar(1000)')
    .addColumn('delivered_at', 'bigint')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contact_requests').execute()
}
