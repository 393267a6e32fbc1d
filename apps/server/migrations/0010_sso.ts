import type { Kysely } from 'kysely'
import { autoId } from './portable.js'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // OAuth / OpenID Connect providers an administrator configures; the client secret is sealed.
  await db.schema
    .createTable('oauth_providers')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('issuer_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(512)', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('icon', 'varchar(2048)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('auto_create_users', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON array of group names
    .addColumn('default_groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute()

  // An authorization request under way: state (hashed), nonce and PKCE verifier, used once.
  await db.schema
    .createTable('sso_states')
    .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('oauth_providers.id').onDelete('cascade'))
    .addColumn('nonce', 'varchar(128)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('redirect_uri', 'varchar(2048)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_states').execute()
  await db.schema.dropTable('oauth_providers').execute()
}
