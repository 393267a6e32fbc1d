import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { type BlobInfo, type BlobStore, ChecksumMismatch, streamToObject } from '../../core/blobStore.js'
import { isUploadObject, type S3Objects, UPLOAD_OBJECTS, uploadObjects } from '../../core/s3Objects.js'
import type { Database } from '../../core/schema.js'
import { StreamHasher } from '../../core/streamHasher.js'
import { OciError } from './errors.js'
import {
  type ChunkRow,
  deleteUpload,
  findUpload,
  heldUploads,
  idleUploads,
  insertUpload,
  listChunks,
  markBroken,
  recordChunk,
  refreshHold,
  releaseHold,
  takeHold,
  takeIdle,
  type UploadRow,
  uploadIds,
} from './uploadRows.js'
import {
  broke,
  DAY_MS,
  digestMismatch,
  type HeldUpload,
  inUse,
  SWEEP_MS,
  UPLOAD_ID,
  type UploadStore,
  unknown,
} from './uploads.js'

/** A request writing an upload says so this often… */
const HOLD_REFRESH_MS = 20_000
/** …and one that has not for this long stopped (its node died): another request may take the upload. */
const HOLD_STALE_MS = 120_000
/** How often a process looks for objects of uploads that are gone (a request that died as it wrote). */
const ORPHANS_EVERY_MS = 3600_000

const token = () => crypto.randomBytes(6).toString('hex')

/**
 * Chunked blob uploads of the registry with the blobs in a bucket, for nodes that share the
 * database and the bucket but no file system: each request of an upload may reach another node.
 *
 * - The upload is a `registry_uploads` row (repository, image, size so far, broken flag) and the
 *   request writing it holds it (`holder`, taken with a conditional update, so one request at a
 *   time of any node; refreshed while it writes, so the upload of a node that died is free again
 *   after HOLD_STALE_MS).
 * - Each PATCH (and the PUT's last body) streams into an object of its own under
 *   `<prefix>tmp/upload-<id>/` (one PUT when the request gives its length, else a multipart
 *   upload: nothing on the local disk), recorded as a
 *   `registry_upload_chunks` row once complete, and only while its request still holds the upload.
 * - Each chunk is hashed as it streams (sha256, sha1 and md5, in the hashing threads) and its row
 *   keeps its checksums. An upload of one chunk (skopeo, podman and docker send a blob in one
 *   PATCH) is kept by copying that object under its sha256, in the bucket, once its sha256 is the
 *   digest the client named.
 * - An upload of several chunks (whose running hash another node cannot carry on) is read back at
 *   the PUT: the chunks stream in order into the blob store, which hashes them and keeps the blob
 *   only when it is the digest the client named.
 *
 * Either way, the chunks' objects and rows go with the PUT.
 */
export class BucketUploads implements UploadStore {
  private readonly s3: S3Objects
  /** Names this process in the holders it writes: `<node id>/<process>/<request>`. */
  private readonly processId: string
  private readonly sweeper: NodeJS.Timeout
  private sweeping = false
  private orphansSweptAt = 0

  constructor(
    private readonly blobs: BlobStore,
    private readonly db: Kysely<Database>,
    private readonly nodeId: string,
    private readonly warn: (error: unknown, message: string) => void = () => {},
  ) {
    if (!blobs.s3) throw new Error('BucketUploads needs a blob store in a bucket')
    this.s3 = blobs.s3
    this.processId = `${nodeId}/${token()}`
    this.sweeper = setInterval(() => {
      if (this.sweeping) return
      this.sweeping = true
      this.sweep()
        .catch((error) => this.warn(error, 'the sweep of registry uploads failed'))
        .finally(() => {
          this.sweeping = false
        })
    }, SWEEP_MS).unref()
  }

  close(): void {
    clearInterval(this.sweeper)
  }

  /**
   * Start-up recovery: an upload a previous process of this node held when it stopped was cut off
   * as a chunk streamed: it goes (as with the files), its objects with it.
   */
  async recover(): Promise<number> {
    let removed = 0
    for (const { id, holder } of await heldUploads(this.db)) {
      if (!holder?.startsWith(`${this.nodeId}/`) || holder.startsWith(`${this.processId}/`)) continue
      await this.remove(id)
      removed++
    }
    return removed
  }

  async create(repoKey: string, image: string): Promise<string> {
    const id = crypto.randomUUID()
    await insertUpload(this.db, id, repoKey, image, Date.now())
    return id
  }

  async received(id: string, repoKey: string, image: string): Promise<number> {
    return (await this.upload(id, repoKey, image)).size
  }

  async hold(id: string, repoKey: string, image: string): Promise<HeldUpload> {
    await this.upload(id, repoKey, image)
    const holder = `${this.processId}/${token()}`
    const now = Date.now()
    if (!(await takeHold(this.db, id, holder, now, now - HOLD_STALE_MS))) {
      // Ended or broken meanwhile (that answer), else another request writes it.
      await this.upload(id, repoKey, image)
      throw inUse()
    }
    const row = await findUpload(this.db, id)
    if (!row) throw unknown(id)
    return this.held(row, holder)
  }

  /** The upload's row, checked against the repository and image the request names. */
  private async upload(id: string, repoKey: string, image: string): Promise<UploadRow> {
    const row = UPLOAD_ID.test(id) ? await findUpload(this.db, id) : undefined
    if (!row || row.repo_key !== repoKey || row.image !== image) throw unknown(id)
    if (row.broken) {
      // The answer leaves once its objects and rows are gone.
      await this.remove(id)
      throw broke()
    }
    return row
  }

  private held(row: UploadRow, holder: string): HeldUpload {
    const id = row.id
    let size = row.size
    let released = false
    const beat = setInterval(() => {
      refreshHold(this.db, id, holder, Date.now()).catch(() => {})
    }, HOLD_REFRESH_MS).unref()
    return {
      id,
      repoKey: row.repo_key,
      image: row.image,
      get size() {
        return size
      },
      append: async (body, limit, length) => {
        size += await this.append(id, holder, size, body, limit, length)
      },
      finish: async (sha256) => {
        await this.stillHeld(id, holder)
        return this.finish(id, size, sha256)
      },
      cancel: async () => {
        await this.stillHeld(id, holder)
        await this.remove(id)
      },
      release: async () => {
        if (released) return
        released = true
        clearInterval(beat)
        // Left held, the upload is free again once its hold is stale.
        await releaseHold(this.db, id, holder, Date.now()).catch((error) =>
          this.warn(error, `registry upload ${id}: its hold could not be released`),
        )
      },
    }
  }

  /**
   * Streams a request body into an object of its own (413 past `limit` for the whole upload) and
   * records it as the upload's next chunk; the bytes it added.
   */
  private async append(
    id: string,
    holder: string,
    offset: number,
    body: Readable,
    limit: number,
    length: number | undefined,
  ): Promise<number> {
    const key = this.s3.tempKey(`${uploadObjects(id)}${offset}-${token()}`)
    let size = 0
    let recorded: boolean
    // All three checksums, as for any upload to a bucket: reading the object back to hash it costs more.
    const hasher = new StreamHasher(['sha1', 'md5'])
    try {
      size = await streamToObject(this.s3, key, body, hasher, {
        length,
        tooLarge: (size) =>
          offset + size > limit
            ? new OciError(413, 'SIZE_INVALID', `The upload is larger than the limit of ${limit} bytes`)
            : undefined,
        what: 'chunk',
      })
      const digests = await hasher.digest()
      recorded =
        size === 0 ||
        (await recordChunk(
          this.db,
          holder,
          { upload_id: id, byte_offset: offset, size, object_key: key, ...digests },
          Date.now(),
        ))
    } catch (error) {
      hasher.dispose()
      // `upload` aborted an object it could not complete; one it completed goes too.
      await this.s3.delete(key).catch(() => {})
      // A chunk that broke off leaves the upload unusable, for every node: the client starts again.
      await markBroken(this.db, id).catch(() => {})
      throw error
    }
    if (size === 0) await this.s3.delete(key).catch(() => {})
    if (!recorded) {
      await this.s3.delete(key).catch(() => {})
      throw await this.lost(id)
    }
    return size
  }

  /** Ends or cancels an upload only while this request holds it: one that went quiet too long may have lost it. */
  private async stillHeld(id: string, holder: string): Promise<void> {
    if (!(await refreshHold(this.db, id, holder, Date.now()))) throw await this.lost(id)
  }

  /** The answer to a request that no longer holds its upload: ended meanwhile, or taken over by another. */
  private async lost(id: string): Promise<OciError> {
    return (await findUpload(this.db, id)) ? inUse() : unknown(id)
  }

  /** The chunks, in order, into the blob store (which keeps the blob only under the digest named); then the upload goes. */
  private async finish(id: string, size: number, sha256: string): Promise<BlobInfo> {
    try {
      const chunks = await listChunks(this.db, id)
      let end = 0
      for (const chunk of chunks) {
        if (chunk.byte_offset !== end) throw broke()
        end += chunk.size
      }
      if (end !== size) throw broke()
      const [only] = chunks
      if (chunks.length === 1 && only?.sha256 && only.sha1 && only.md5) {
        // Hashed as it streamed: its object becomes the blob, copied within the bucket.
        if (only.sha256 !== sha256) throw digestMismatch(sha256, only.sha256)
        return await this.blobs.adoptObject(only.object_key, { sha256, sha1: only.sha1, md5: only.md5, size: only.size })
      }
      return await this.blobs.put(Readable.from(this.read(chunks)), { sha256 }).catch((error) => {
        if (error instanceof ChecksumMismatch && error.which === 'sha256') throw digestMismatch(sha256, error.actual)
        throw error
      })
    } finally {
      // The upload ends here for every node, kept or refused; what cannot be removed now is left broken,
      // so the next request (or the sweep) removes it.
      await this.remove(id).catch(async (error) => {
        this.warn(error, `registry upload ${id}: its chunks could not be removed`)
        await markBroken(this.db, id).catch(() => {})
      })
    }
  }

  private async *read(chunks: ChunkRow[]): AsyncGenerator<Buffer> {
    for (const chunk of chunks) {
      let read = 0
      for await (const data of await this.s3.read(chunk.object_key)) {
        read += (data as Buffer).length
        yield data as Buffer
      }
      if (read !== chunk.size) throw broke()
    }
  }

  /** Removes an upload for every node: its objects (complete or not), then its rows. */
  private async remove(id: string): Promise<void> {
    await this.s3.removeTemp(uploadObjects(id))
    await deleteUpload(this.db, id)
  }

  /**
   * Removes the uploads nobody wrote for a day (any node's), and now and then objects of uploads
   * that are gone (a request that died between writing its object and removing it); how many.
   */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0
    const idleBefore = now - DAY_MS
    const staleBefore = now - HOLD_STALE_MS
    for (const id of await idleUploads(this.db, idleBefore, staleBefore)) {
      // Of the nodes sweeping at once, the one that takes it removes it.
      if (!(await takeIdle(this.db, id, `${this.processId}/sweep`, now, idleBefore, staleBefore))) continue
      await this.remove(id)
      removed++
    }
    if (now - this.orphansSweptAt >= ORPHANS_EVERY_MS) {
      this.orphansSweptAt = now
      // An upload begun after this read has no object a day old.
      const live = await uploadIds(this.db)
      const idOf = (name: string) => name.slice(UPLOAD_OBJECTS.length).split('/')[0] ?? ''
      removed += await this.s3.removeTemp(UPLOAD_OBJECTS, idleBefore, (name) => !isUploadObject(name) || live.has(idOf(name)))
    }
    return removed
  }
}
