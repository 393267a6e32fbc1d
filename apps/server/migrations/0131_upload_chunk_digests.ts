import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // A chunk's own checksums, hashed as it streamed into its object: an upload made of one chunk
  // (what skopeo, podman and docker send) is kept by copying that object, not read back to hash it.
  for (const column of ['sha256', 'sha1', 'md5']) {
    await db.schema.alterTable('registry_upload_chunks').addColumn(column, 'varchar(64)').execute()
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['sha256', 'sha1', 'md5']) {
    await db.schema.alterTable('registry_upload_chunks').dropColumn(column).execute()
  }
}
