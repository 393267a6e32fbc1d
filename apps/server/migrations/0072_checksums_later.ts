import { type Kysely, sql } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // Blobs and files whose sha1 or md5 were left for later ('' until the checksum job records
  // them): the job's sweep finds them without reading every row.
  const later = sql<boolean>`sha1 = '' or md5 = ''`
  await db.schema.createIndex('blobs_checksums_later').on('blobs').column('sha256').where(later).execute()
  await db.schema.createIndex('files_checksums_later').on('files').column('sha256').where(later).execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('files_checksums_later').execute()
  await db.schema.dropIndex('blobs_checksums_later').execute()
}
