import type { Kysely } from 'kysely'

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The registry's chunked uploads in progress when the blobs live in a bucket (formats/docker/
  // bucketUploads.ts): each request of an upload may reach another node, so its state is here and
  // its bytes are objects of the bucket. `holder` is the one request writing it (taken with a
  // conditional update, refreshed while it writes); `broken`: a chunk broke off midway.
  await db.schema
    .createTable('registry_uploads')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull().references('repositories.key').onDelete('cascade'))
    .addColumn('image', 'varchar(2048)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('broken', 'integer', (c) => c.notNull())
    .addColumn('holder', 'varchar(200)')
    .addColumn('held_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('touched_at', 'bigint', (c) => c.notNull())
    .execute()
  // The sweep looks for uploads idle for a day.
  await db.schema.createIndex('registry_uploads_touched').on('registry_uploads').column('touched_at').execute()
  // An upload's chunks in order: each the object one request wrote, recorded once it is complete.
  await db.schema
    .createTable('registry_upload_chunks')
    .addColumn('upload_id', 'varchar(36)', (c) => c.notNull().references('registry_uploads.id').onDelete('cascade'))
    .addColumn('byte_offset', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('object_key', 'varchar(1024)', (c) => c.notNull())
    .addPrimaryKeyConstraint('registry_upload_chunks_pk', ['upload_id', 'byte_offset'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('registry_upload_chunks').execute()
  await db.schema.dropTable('registry_uploads').execute()
}
