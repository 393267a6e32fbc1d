import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The instance's OpenPGP keys (formats/debian signs its Release files with the active one). The
  // private key is sealed by the secret box; old keys stay published after a rotation.
  await db.schema
    .createTable('openpgp_keys')
    .addColumn('fingerprint', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .execute()
  // Each .deb of a Debian repository with its control paragraph and where it is listed: the
  // repository's Packages and Release files are made from these rows (they go with their file).
  await db.schema
    .createTable('debian_files')
    .addColumn('file_id', 'integer', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('architecture', 'varchar(64)', (c) => c.notNull())
    .addColumn('distributions', 'varchar(1000)', (c) => c.notNull())
    .addColumn('components', 'varchar(1000)', (c) => c.notNull())
    .addColumn('control', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('debian_files_repo').on('debian_files').column('repo_key').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('debian_files').execute()
  await db.schema.dropTable('openpgp_keys').execute()
}
