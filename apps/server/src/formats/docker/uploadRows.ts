import type { Kysely, Selectable } from 'kysely'
import type { Database, RegistryUploadChunksTable, RegistryUploadsTable } from '../../core/schema.js'

/** The rows of the registry's chunked uploads with blobs in a bucket (see bucketUploads.ts). */

export type UploadRow = Selectable<RegistryUploadsTable>
export type ChunkRow = Selectable<RegistryUploadChunksTable>

export async function insertUpload(db: Kysely<Database>, id: string, repoKey: string, image: string, now: number): Promise<void> {
  await db
    .insertInto('registry_uploads')
    .values({
      id,
      repo_key: repoKey,
      image,
      size: 0,
      broken: 0,
      holder: null,
      held_at: null,
      created_at: now,
      touched_at: now,
    })
    .execute()
}

export function findUpload(db: Kysely<Database>, id: string): Promise<UploadRow | undefined> {
  return db.selectFrom('registry_uploads').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * Takes an intact upload for `holder` when nobody holds it, or its holder stopped saying it is
 * still writing before `staleBefore`. One conditional update: of two requests, one takes it.
 */
export async function takeHold(
  db: Kysely<Database>,
  id: string,
  holder: string,
  now: number,
  staleBefore: number,
): Promise<boolean> {
  const res = await db
    .updateTable('registry_uploads')
    .set({ holder, held_at: now, touched_at: now })
    .where('id', '=', id)
    .where('broken', '=', 0)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('held_at', '<', staleBefore)]))
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

/** Takes an upload nobody wrote since `idleBefore` (broken or not) for the sweep that removes it. */
export async function takeIdle(
  db: Kysely<Database>,
  id: string,
  holder: string,
  now: number,
  idleBefore: number,
  staleBefore: number,
): Promise<boolean> {
  const res = await db
    .updateTable('registry_uploads')
    .set({ holder, held_at: now })
    .where('id', '=', id)
    .where('touched_at', '<', idleBefore)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('held_at', '<', staleBefore)]))
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

/** The holder is still writing; false when it no longer holds the upload. */
export async function refreshHold(db: Kysely<Database>, id: string, holder: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('registry_uploads')
    .set({ held_at: now })
    .where('id', '=', id)
    .where('holder', '=', holder)
    .executeTakeFirst()
  return Number(res.numUpdatedRows) === 1
}

export async function releaseHold(db: Kysely<Database>, id: string, holder: string, now: number): Promise<void> {
  await db
    .updateTable('registry_uploads')
    .set({ holder: null, held_at: null, touched_at: now })
    .where('id', '=', id)
    .where('holder', '=', holder)
    .execute()
}

/**
 * Records a complete chunk at the end of the upload, if `holder` still holds it and nothing was
 * appended since (the size is still `chunk.byte_offset`); false otherwise, and nothing is recorded.
 */
export async function recordChunk(db: Kysely<Database>, holder: string, chunk: ChunkRow, now: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('registry_uploads')
      .set({ size: chunk.byte_offset + chunk.size, touched_at: now })
      .where('id', '=', chunk.upload_id)
      .where('holder', '=', holder)
      .where('broken', '=', 0)
      .where('size', '=', chunk.byte_offset)
      .executeTakeFirst()
    if (Number(res.numUpdatedRows) !== 1) return false
    await tx.insertInto('registry_upload_chunks').values(chunk).execute()
    return true
  })
}

export function listChunks(db: Kysely<Database>, id: string): Promise<ChunkRow[]> {
  return db.selectFrom('registry_upload_chunks').selectAll().where('upload_id', '=', id).orderBy('byte_offset').execute()
}

export async function markBroken(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('registry_uploads').set({ broken: 1 }).where('id', '=', id).execute()
}

export async function deleteUpload(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('registry_upload_chunks').where('upload_id', '=', id).execute()
    await tx.deleteFrom('registry_uploads').where('id', '=', id).execute()
  })
}

/** Uploads nobody wrote since `idleBefore` and nobody holds (or whose holder went quiet before `staleBefore`). */
export async function idleUploads(db: Kysely<Database>, idleBefore: number, staleBefore: number): Promise<string[]> {
  const rows = await db
    .selectFrom('registry_uploads')
    .select('id')
    .where('touched_at', '<', idleBefore)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('held_at', '<', staleBefore)]))
    .execute()
  return rows.map((r) => r.id)
}

/** Every upload held at the moment, with its holder. */
export function heldUploads(db: Kysely<Database>): Promise<{ id: string; holder: string | null }[]> {
  return db.selectFrom('registry_uploads').select(['id', 'holder']).where('holder', 'is not', null).execute()
}

export async function uploadIds(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db.selectFrom('registry_uploads').select('id').execute()
  return new Set(rows.map((r) => r.id))
}
