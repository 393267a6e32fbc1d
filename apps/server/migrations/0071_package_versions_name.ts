import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // A page of versions reads its rows by name (`package_id = ? AND version IN (…)`): the unique
  // key (package_id, repo_key, version) cannot seek on the name, so a package with 10,000 versions
  // was read whole for every page.
  await db.schema.createIndex('package_versions_name').on('package_versions').columns(['package_id', 'version']).execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('package_versions_name').execute()
}
