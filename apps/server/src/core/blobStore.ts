import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PassThrough, Readable, Transform, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ExpressionBuilder, Kysely } from 'kysely'
import { crashPoint } from './crashPoints.js'
import { HttpError, storageFullAsHttp } from './errors.js'
import { LaterChecksums, type LaterSums } from './laterChecksums.js'
import { isUploadObject, type S3Objects } from './s3Objects.js'
import type { Database } from './schema.js'
import { INLINE_HASH_BYTES, type LaterChecksum, StreamHasher } from './streamHasher.js'
import { transferStarted } from './transfers.js'

/** sha1 and md5 are '' while left for later (see DEFER_PAST_BYTES); `BlobStore.checksums` fills them. */
export interface BlobInfo {
  sha256: string
  sha1: string
  md5: string
  size: number
}

/** The checksums a client declared: they must be computed while its upload streams. */
function declaredLater(expected: Expected): LaterChecksum[] {
  return (['sha1', 'md5'] as const).filter((which) => expected[which])
}

/** Checksums a client declared for what it sends; any given must match, or nothing is stored. */
export interface Expected {
  sha256?: string
  sha1?: string
  md5?: string
  size?: number
}

const SHA256 = /^[0-9a-f]{64}$/
/** The most the copies of bucket objects kept as files take (see BlobStore.localFile). */
const SPOOL_MAX_BYTES = 2 * 1024 ** 3

/** Blobs up to this size are kept in memory once served (npm tarballs, POMs, checksums, manifests). */
export const HOT_BLOB_MAX_BYTES = 256 * 1024
/** The most memory the kept blobs take together; the least recently served go first. */
export const HOT_BLOBS_TOTAL_BYTES = 64 * 1024 * 1024

/** How much an upload's writer buffers before the sender waits (the socket keeps flowing meanwhile). */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024
/** Files of this size and more are read from disk this many bytes at a time. */
const LARGE_READ_BYTES = 1024 * 1024
/** An upload's data is flushed to disk every this many bytes while it streams, not all at the end. */
const FLUSH_EVERY_BYTES = 64 * 1024 * 1024

/**
 * Writes an upload to a temp file. Unlike fs.createWriteStream (16 KB of buffer: the socket pauses
 * on every chunk until its write returns), it takes a few megabytes in and writes them with one
 * writev; and it starts flushing to disk while the data still arrives, so the fsync that makes the
 * blob durable has little left to do (a gigabyte flushed at the end alone took longer than a second).
 */
export class BlobFileWriter extends Writable {
  private handle: fs.promises.FileHandle | undefined
  private unflushed = 0
  private flushing: Promise<void> | undefined

  constructor(
    private readonly file: string,
    private readonly flags: 'wx' | 'a',
  ) {
    super({ highWaterMark: WRITE_BUFFER_BYTES })
  }

  override _construct(callback: (error?: Error | null) => void): void {
    fs.promises.open(this.file, this.flags, 0o644).then((handle) => {
      this.handle = handle
      callback()
    }, callback)
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => callback(), callback)
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeAll([chunk]).then(() => callback(), callback)
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    const handle = this.handle as fs.promises.FileHandle
    let left = buffers
    let total = left.reduce((n, b) => n + b.length, 0)
    while (total > 0) {
      const { bytesWritten } = await handle.writev(left)
      total -= bytesWritten
      this.unflushed += bytesWritten
      // A short write: go on with what is left.
      let skip = bytesWritten
      const rest: Buffer[] = []
      for (const b of left) {
        if (skip >= b.length) skip -= b.length
        else {
          rest.push(skip > 0 ? b.subarray(skip) : b)
          skip = 0
        }
      }
      left = rest
    }
    if (this.unflushed >= FLUSH_EVERY_BYTES && !this.flushing) {
      this.unflushed = 0
      this.flushing = handle.datasync().finally(() => {
        this.flushing = undefined
      })
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    const handle = this.handle as fs.promises.FileHandle
    Promise.resolve(this.flushing)
      .then(() => handle.close())
      .then(() => {
        this.handle = undefined
        callback()
      }, callback)
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle
    this.handle = undefined
    if (!handle) {
      callback(error)
      return
    }
    Promise.resolve(this.flushing)
      .catch(() => {})
      .then(() => handle.close())
      .then(
        () => callback(error),
        () => callback(error),
      )
  }
}

/** Flushes a file's data to disk. */
async function syncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * A pass-through that hashes what flows on to the file. `count` sees each chunk's size and returns
 * an error to stop the upload (size limits). It holds the sender back while the hashing threads
 * are behind.
 */
export function hashingStream(hasher: StreamHasher, count: (bytes: number) => Error | undefined): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const refused = count(chunk.length)
      if (refused) return done(refused)
      const wait = hasher.update(chunk)
      if (wait) wait.then(() => done(null, chunk), done)
      else done(null, chunk)
    },
  })
}

/**
 * Streams `input` into the bucket's object `key` through `hasher` (one PUT when its `length` is
 * known) and checks that the bucket holds every byte; returns the size. `tooLarge` is asked, as
 * bytes arrive, whether the total `size` passes a limit (its error stops the stream). Of the two
 * sides' failures the request's own is told (cut off, too large), unless it broke only because the
 * bucket's side gave up: then the bucket's (a 503 when the bucket cannot be reached). `what` names
 * the body in the message of a short object ("upload", "chunk").
 */
export async function streamToObject(
  s3: S3Objects,
  key: string,
  input: Readable,
  hasher: StreamHasher,
  options: { length?: number; tooLarge: (size: number) => Error | undefined; what: string },
): Promise<number> {
  let size = 0
  const counted = hashingStream(hasher, (bytes) => {
    size += bytes
    return options.tooLarge(size)
  })
  const body = new PassThrough({ highWaterMark: 1 << 20 })
  const [sent, stored] = await Promise.allSettled([pipeline(input, counted, body), s3.upload(key, body, options.length)])
  if (sent.status === 'rejected') {
    const brokenByBucket =
      stored.status === 'rejected' && (sent.reason as { code?: string })?.code === 'ERR_STREAM_PREMATURE_CLOSE'
    throw brokenByBucket ? stored.reason : sent.reason
  }
  if (stored.status === 'rejected') throw stored.reason
  const kept = await s3.size(key)
  if (kept !== size) throw new HttpError(502, `The blob store kept ${kept ?? 'nothing'} of the ${options.what}'s ${size} bytes`)
  return size
}

/**
 * `stream` passed through, ending in an error when its bytes do not hash to `sha256`. The last
 * chunk is held back until the hash is known: a client told the length (Content-Length) would
 * otherwise have every byte before the error, and take the wrong content as whole.
 */
function verifying(stream: Readable, sha256: string, size: number | undefined): Readable {
  const hash = crypto.createHash('sha256')
  let held: Buffer | undefined
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      const previous = held
      held = chunk
      done(null, previous)
    },
    flush(done) {
      const actual = hash.digest('hex')
      if (actual !== sha256) return done(new Error(`the stored blob ${sha256} holds other content (${actual})`))
      done(null, held)
    },
  })
  stream.on('error', (error) => checked.destroy(error))
  checked.on('close', () => stream.destroy())
  if (size !== undefined && size > INLINE_HASH_BYTES) checked.once('close', transferStarted())
  return stream.pipe(checked)
}

/**
 * Whether a client that reached `from` keeps its credentials on a redirect to `to`: the same host,
 * or one under it (host names, no ports; case and IPv6 brackets aside).
 */
export function sendsCredentialsTo(from: string, to: string): boolean {
  const name = (host: string) =>
    host
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '')
  const [a, b] = [name(from), name(to)]
  return a === b || b.endsWith(`.${a}`)
}

/** Thrown when the content does not match what the client declared: a 400, and nothing was kept. */
export class ChecksumMismatch extends HttpError {
  constructor(
    readonly which: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(400, `Checksum mismatch: the ${which} declared is ${expected} but the content's is ${actual}`, 'CHECKSUM_MISMATCH')
  }
}

/** Tables (and their sha256 column) that hold references to blobs: the GC frees only what none names. */
export const blobReferrers: { table: keyof Database; column: string }[] = [
  { table: 'files', column: 'sha256' },
  { table: 'remote_cache', column: 'sha256' },
]

/** A condition on `blobs` rows: no referrer names them. */
function unreferenced(eb: ExpressionBuilder<Database, 'blobs'>) {
  return eb.and(
    blobReferrers.map((ref) =>
      eb.not(
        eb.exists(
          // biome-ignore lint/suspicious/noExplicitAny: referrers are registered by table name at run time
          (eb.selectFrom as any)(ref.table).select(ref.column).whereRef(`${ref.table}.${ref.column}`, '=', 'blobs.sha256'),
        ),
      ),
    ),
  )
}

/** How `BlobStore.put` takes an upload (see there). */
export interface PutOptions {
  allSums?: boolean
  sha256Only?: boolean
  length?: number
}

/**
 * The content-addressed blob store: `<data dir>/blobs/ab/cd/<sha256>`, one copy per content.
 * Every write goes to a temp file that is hashed while streaming, fsynced and renamed into place,
 * so a crash or a killed upload never leaves a half blob under a real name. Metadata rows that
 * point at a blob are committed by the caller only after `put` returns.
 */
export class BlobStore {
  readonly root: string
  private readonly tmp: string
  private readonly owner: string
  /** Small blobs by sha256, least recently served first. Content never changes under its sha256. */
  private readonly hot = new Map<string, Buffer>()
  private hotBytes = 0
  /** sha1 and md5 of large blobs, computed after they are kept. */
  readonly later: LaterChecksums

  constructor(
    dataDir: string,
    private readonly db: Kysely<Database>,
    /** Uploads larger than this are refused (413) while streaming. */
    readonly maxBytes: number,
    /** Called when sums left for later are recorded (caches of answers that show them). */
    checksumsRecorded?: () => void,
    /** Names this process's temp files, so that the next start of the same node removes what it left. */
    owner = 'local',
    /** Blobs live in this bucket instead of the data directory (uploads still hash as they stream). */
    readonly s3?: S3Objects,
  ) {
    this.owner = owner.replace(/[^A-Za-z0-9_.-]/g, '_')
    this.root = path.join(dataDir, 'blobs')
    this.tmp = path.join(this.root, 'tmp')
    this.spool = path.join(this.root, 'spool')
    fs.mkdirSync(this.tmp, { recursive: true })
    if (s3) fs.mkdirSync(this.spool, { recursive: true })
    this.later = new LaterChecksums(db, (sha256) => this.localFile(sha256), checksumsRecorded)
  }

  /** Copies of bucket objects a reader needs as files (archives read at random), least recently used first out. */
  private readonly spool: string
  private spooling = new Map<string, Promise<string>>()

  /**
   * A file holding the blob, for readers that need one (zip and ar archives are read at random):
   * the blob itself on the local disk; with a bucket, a copy in `blobs/spool` fetched and checked
   * against its sha256 on first use (the spool keeps at most SPOOL_MAX_BYTES, oldest use first out).
   */
  async localFile(sha256: string): Promise<string> {
    if (!this.s3) return this.pathOf(sha256)
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`)
    const file = path.join(this.spool, sha256)
    const now = new Date()
    if (
      await fs.promises.utimes(file, now, now).then(
        () => true,
        () => false,
      )
    )
      return file
    let fetching = this.spooling.get(sha256)
    if (!fetching) {
      fetching = this.fetchToSpool(sha256, file).finally(() => this.spooling.delete(sha256))
      this.spooling.set(sha256, fetching)
    }
    return fetching
  }

  private async fetchToSpool(sha256: string, file: string): Promise<string> {
    const s3 = this.s3 as S3Objects
    const tmpFile = this.tempFile()
    const hash = crypto.createHash('sha256')
    try {
      const body = await s3.read(s3.blobKey(sha256))
      await pipeline(
        body,
        new Transform({
          transform: (chunk, _e, done) => {
            hash.update(chunk)
            done(null, chunk)
          },
        }),
        fs.createWriteStream(tmpFile),
      )
      const actual = hash.digest('hex')
      // An object whose content is not its name is never handed out (the integrity check reports it).
      if (actual !== sha256)
        throw new HttpError(500, `The stored object ${sha256} holds other content (${actual}): it is not served`)
      await fs.promises.rename(tmpFile, file)
    } catch (error) {
      await fs.promises.rm(tmpFile, { force: true })
      throw error
    }
    await this.trimSpool()
    return file
  }

  private async trimSpool(): Promise<void> {
    const names = await fs.promises.readdir(this.spool)
    const files = await Promise.all(
      names.map(async (name) => {
        const stat = await fs.promises.stat(path.join(this.spool, name)).catch(() => undefined)
        return { name, size: stat?.size ?? 0, used: stat?.mtimeMs ?? 0 }
      }),
    )
    let total = files.reduce((sum, f) => sum + f.size, 0)
    for (const f of files.sort((a, b) => a.used - b.used)) {
      if (total <= SPOOL_MAX_BYTES) break
      await fs.promises.rm(path.join(this.spool, f.name), { force: true })
      total -= f.size
    }
  }

  /**
   * A file's or blob's sha1 and md5, computed now if they were left for later. Whatever answers a
   * client with them (checksum files, checksum headers, the file info API) asks here.
   */
  async checksums(blob: { sha256: string; sha1: string; md5: string }): Promise<LaterSums> {
    if (blob.sha1 && blob.md5) return { sha1: blob.sha1, md5: blob.md5 }
    return this.later.now(blob.sha256)
  }

  async close(): Promise<void> {
    await this.later.close()
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`)
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256)
  }

  /**
   * Stores a stream (or buffer), verifying declared checksums and size; returns the content's
   * checksums. `allSums`: the caller answers with sha1 and md5 at once, so they are hashed while
   * the upload streams rather than left for later (and read back from disk to answer).
   * `sha256Only`: sha1 and md5 are left for later whatever the size (a file arriving ahead of a
   * signed release bundle, whose manifest carries them). `length`: the bytes the stream carries, to
   * the byte (a request's Content-Length, see `bodyLength`); with a bucket it goes in one request.
   */
  async put(source: Readable | Buffer | string, expected: Expected = {}, options: PutOptions = {}): Promise<BlobInfo> {
    const input = typeof source === 'string' || Buffer.isBuffer(source) ? Readable.from([Buffer.from(source)]) : source
    if (this.s3) {
      const length = typeof source === 'string' || Buffer.isBuffer(source) ? Buffer.byteLength(source) : options.length
      if (length !== undefined && length <= INLINE_HASH_BYTES) return this.putSmallToBucket(input, expected, length)
      return this.putToBucket(input, expected, options)
    }
    const tmpFile = this.tempFile()
    const hasher = options.sha256Only
      ? new StreamHasher([], { legacy: false })
      : new StreamHasher(options.allSums ? ['sha1', 'md5'] : declaredLater(expected))
    let size = 0
    let info: BlobInfo
    try {
      const counted = hashingStream(hasher, (bytes) => {
        size += bytes
        return this.tooLarge(size)
      })
      await pipeline(input, counted, new BlobFileWriter(tmpFile, 'wx'))
      // fsync (through a second descriptor: it flushes the file's data all the same) while the
      // hashing threads finish.
      const [digests] = await Promise.all([hasher.digest(), syncFile(tmpFile)])
      info = { ...digests, size }
    } catch (error) {
      hasher.dispose()
      // On a full disk this frees what the upload took; the caller answers 507.
      await fs.promises.rm(tmpFile, { force: true })
      throw storageFullAsHttp(error)
    }
    await this.keep(tmpFile, info, expected)
    return info
  }

  /**
   * `put` with a bucket: the upload streams through the hashers into a multipart upload under a
   * temp key (nothing of it on the local disk, only the parts in flight in memory); once its
   * checksums are known and match what was declared, the object is copied under its sha256 and
   * the temp object removed. A failed upload is aborted and leaves nothing.
   */
  private async putToBucket(input: Readable, expected: Expected, options: PutOptions): Promise<BlobInfo> {
    const s3 = this.s3 as S3Objects
    const tempKey = s3.tempKey(`${this.owner}~${Date.now()}-${crypto.randomBytes(8).toString('hex')}`)
    // With a bucket, nothing is left for later: reading an object back to hash it costs more than hashing it now.
    const hasher = options.sha256Only ? new StreamHasher([], { legacy: false }) : new StreamHasher(['sha1', 'md5'])
    let info: BlobInfo
    try {
      const size = await streamToObject(s3, tempKey, input, hasher, {
        length: options.length,
        tooLarge: (size) => this.tooLarge(size),
        what: 'upload',
      })
      info = { ...(await hasher.digest()), size }
    } catch (error) {
      hasher.dispose()
      await s3.delete(tempKey).catch(() => {})
      throw error
    }
    await this.keepInBucket(tempKey, info, expected)
    return info
  }

  /**
   * `put` with a bucket, of a body small enough to hold (`length` bytes, at most INLINE_HASH_BYTES):
   * read whole and hashed first, then written straight under its sha256, in one request the
   * service checks against the body's md5 and the SDK may send again (where a streamed body that
   * met a closed connection could not be). Two calls to the bucket, not five (upload, size, exists,
   * copy, delete).
   */
  private async putSmallToBucket(input: Readable, expected: Expected, length: number): Promise<BlobInfo> {
    const s3 = this.s3 as S3Objects
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of input) {
      size += (chunk as Buffer).length
      const tooLarge = this.tooLarge(size)
      if (tooLarge) throw tooLarge
      if (size > length) throw new Error(`the body is longer than its ${length} bytes`)
      chunks.push(chunk as Buffer)
    }
    if (size !== length) throw new Error(`the body ended after ${size} of its ${length} bytes`)
    const body = Buffer.concat(chunks, size)
    const digest = (algorithm: string) => crypto.createHash(algorithm).update(body).digest('hex')
    const info = { sha256: digest('sha256'), sha1: digest('sha1'), md5: digest('md5'), size }
    this.checkExpected(info, expected)
    crashPoint('blob.synced')
    await this.touchRow(info)
    await s3.putBody(s3.blobKey(info.sha256), body, info.md5)
    crashPoint('blob.stored')
    return info
  }

  /**
   * Takes an object of the bucket whose content a caller hashed itself as it streamed there (a
   * registry upload's one chunk): checks what was declared and copies it under its sha256 (or drops
   * it when the content is already stored). The bucket's counterpart of `adopt`.
   */
  async adoptObject(key: string, info: BlobInfo, expected: Expected = {}): Promise<BlobInfo> {
    if (!this.s3) throw new Error('adoptObject: a blob store on the local disk takes no objects')
    await this.keepInBucket(key, info, expected)
    return info
  }

  private async keepInBucket(tempKey: string, info: BlobInfo, expected: Expected): Promise<void> {
    const s3 = this.s3 as S3Objects
    try {
      this.checkExpected(info, expected)
      crashPoint('blob.synced')
      await this.touchRow(info)
      await s3.promote(tempKey, s3.blobKey(info.sha256), info.size)
      crashPoint('blob.stored')
    } catch (error) {
      await s3.delete(tempKey).catch(() => {})
      throw error
    }
    if (!info.sha1 || !info.md5) await this.completeLater(info)
  }

  /** The error of an upload that has passed the store's limit at `size` bytes, or undefined. */
  private tooLarge(size: number): HttpError | undefined {
    return size > this.maxBytes ? new HttpError(413, `The upload is larger than the limit of ${this.maxBytes} bytes`) : undefined
  }

  private checkExpected(info: BlobInfo, expected: Expected): void {
    if (expected.size !== undefined && expected.size !== info.size) {
      throw new HttpError(400, `Size mismatch: ${expected.size} bytes declared, ${info.size} received`, 'CHECKSUM_MISMATCH')
    }
    for (const which of ['sha256', 'sha1', 'md5'] as const) {
      const want = expected[which]?.toLowerCase()
      if (want && want !== info[which]) throw new ChecksumMismatch(which, want, info[which])
    }
  }

  /** A fresh temp file name beside the store (same file system, so `adopt` renames it into place). */
  tempFile(): string {
    return path.join(this.tmp, `${this.owner}~${Date.now()}-${crypto.randomBytes(8).toString('hex')}`)
  }

  /**
   * Start-up recovery: removes the temp files this node's previous process left (uploads a crash
   * cut off). Other nodes' temp files in a shared data dir stay; the GC removes them after a day.
   */
  async recover(): Promise<number> {
    let removed = this.s3 ? await this.s3.removeTemp(`${this.owner}~`) : 0
    for (const name of await fs.promises.readdir(this.tmp)) {
      if (!name.startsWith(`${this.owner}~`)) continue
      await fs.promises.rm(path.join(this.tmp, name), { force: true })
      removed++
    }
    return removed
  }

  /** A named file in the store's temp dir (a chunked upload's, which every process must find). */
  tempPath(name: string): string {
    return path.join(this.tmp, name)
  }

  /**
   * Takes a temp file a caller wrote and hashed itself (a chunked upload on the local disk): fsyncs
   * it, checks what was declared, and renames it into place (or drops it when the content is
   * already stored). With a bucket, chunked uploads are objects and finish through `put`.
   */
  async adopt(tmpFile: string, info: BlobInfo, expected: Expected = {}): Promise<BlobInfo> {
    if (this.s3) {
      await fs.promises.rm(tmpFile, { force: true })
      throw new Error('adopt: a blob store in a bucket takes no local files')
    }
    try {
      await syncFile(tmpFile)
    } catch (error) {
      await fs.promises.rm(tmpFile, { force: true })
      throw storageFullAsHttp(error)
    }
    await this.keep(tmpFile, info, expected)
    return info
  }

  /** The blob's row, made or touched before its content is put in place, so a concurrent GC spares it. */
  private async touchRow(info: BlobInfo): Promise<void> {
    const now = Date.now()
    await this.db
      .insertInto('blobs')
      .values({ ...info, created_at: now, touched_at: now })
      .onConflict((oc) => oc.column('sha256').doUpdateSet({ touched_at: now }))
      .execute()
  }

  private async keep(tmpFile: string, info: BlobInfo, expected: Expected): Promise<void> {
    try {
      this.checkExpected(info, expected)
      crashPoint('blob.synced')
      await this.touchRow(info)
      const final = this.pathOf(info.sha256)
      await fs.promises.mkdir(path.dirname(final), { recursive: true })
      // Same content already stored: keep the one copy.
      if (fs.existsSync(final)) await fs.promises.rm(tmpFile, { force: true })
      else await fs.promises.rename(tmpFile, final)
      crashPoint('blob.stored')
    } catch (error) {
      await fs.promises.rm(tmpFile, { force: true })
      throw storageFullAsHttp(error)
    }
    if (!info.sha1 || !info.md5) await this.completeLater(info)
  }

  /** Sums left for later: taken from the stored row when the same content has them, else queued. */
  private async completeLater(info: BlobInfo): Promise<void> {
    const row = await this.db.selectFrom('blobs').select(['sha1', 'md5']).where('sha256', '=', info.sha256).executeTakeFirst()
    if (row?.sha1 && row.md5) {
      info.sha1 = row.sha1
      info.md5 = row.md5
    } else {
      this.later.enqueue(info.sha256)
    }
  }

  async info(sha256: string): Promise<BlobInfo | undefined> {
    return this.db.selectFrom('blobs').select(['sha256', 'sha1', 'md5', 'size']).where('sha256', '=', sha256).executeTakeFirst()
  }

  /**
   * The blob's row, only when its content is in place too, whole. A process killed between
   * recording a blob and putting its content in place leaves the row alone (made first so that a
   * concurrent GC spares the content): whoever asks "do you hold it?" for another node asks here.
   */
  async held(sha256: string): Promise<BlobInfo | undefined> {
    const info = await this.info(sha256)
    if (!info) return undefined
    const size = this.s3
      ? await this.s3.size(this.s3.blobKey(sha256))
      : await fs.promises.stat(this.pathOf(sha256)).then(
          (s) => s.size,
          () => undefined,
        )
    return size === info.size ? info : undefined
  }

  /**
   * A read stream of a blob (optionally a byte range, end inclusive). Given the `size` it will
   * send, a large one counts as a transfer in progress while it is open (see transfers.ts).
   */
  open(sha256: string, options: { start?: number; end?: number; size?: number; highWaterMark?: number } = {}): Readable {
    const { size, ...read } = options
    const whole = read.start === undefined && read.end === undefined
    // A large file is read in large chunks: with the stream's 64 KB default a 50 MB download paid
    // a read, a write and an event-loop turn per 64 KB and ran at 0.6× nginx.
    if (read.highWaterMark === undefined && size !== undefined && size >= LARGE_READ_BYTES) read.highWaterMark = LARGE_READ_BYTES
    const stream = this.s3
      ? this.s3.open(this.s3.blobKey(sha256), { start: read.start, end: read.end })
      : fs.createReadStream(this.pathOf(sha256), read)
    // An object read whole is hashed on its way out: one whose content is not its name ends in an
    // error, so the client's download fails rather than completing with the wrong bytes.
    if (this.s3 && whole) return verifying(stream, sha256, size)
    if (size !== undefined && size > INLINE_HASH_BYTES) stream.once('close', transferStarted())
    return stream
  }

  /**
   * A read stream of a whole blob that ends in an error when its bytes do not hash to its name (a
   * file changed on disk, an object of the bucket holding other content): the client's download
   * fails rather than completing with the wrong bytes. Hashed once: a bucket's whole reads are.
   */
  openVerified(sha256: string, options: { size?: number; highWaterMark?: number } = {}): Readable {
    if (this.s3) return this.open(sha256, options)
    return verifying(this.open(sha256, { highWaterMark: options.highWaterMark }), sha256, options.size)
  }

  /**
   * The whole content of a small blob, from memory when it was served lately; undefined for a blob
   * larger than HOT_BLOB_MAX_BYTES (stream those with `open`). `size` is the size the caller's
   * metadata records. Checked against its sha256 when read (a file changed on disk, an object
   * holding other content is never handed out), so what memory holds is what was stored.
   */
  async content(sha256: string, size: number): Promise<Buffer | undefined> {
    if (size > HOT_BLOB_MAX_BYTES) return undefined
    const hit = this.hot.get(sha256)
    if (hit) {
      this.hot.delete(sha256)
      this.hot.set(sha256, hit)
      return hit
    }
    const data = await this.readBuffer(sha256)
    if (!this.s3) {
      // A bucket's reads are checked by readBuffer.
      const actual = crypto.createHash('sha256').update(data).digest('hex')
      if (actual !== sha256)
        throw new HttpError(500, `The stored blob ${sha256} holds other content (${actual}): it is not served`)
    }
    if (data.length !== size || this.hot.has(sha256)) return data
    this.hot.set(sha256, data)
    this.hotBytes += data.length
    for (const [key, value] of this.hot) {
      if (this.hotBytes <= HOT_BLOBS_TOTAL_BYTES) break
      this.hot.delete(key)
      this.hotBytes -= value.length
    }
    return data
  }

  private forget(sha256: string): void {
    const kept = this.hot.get(sha256)
    if (!kept) return
    this.hot.delete(sha256)
    this.hotBytes -= kept.length
  }

  async readBuffer(sha256: string): Promise<Buffer> {
    if (this.s3) {
      const data = await this.s3.readBuffer(this.s3.blobKey(sha256))
      const actual = crypto.createHash('sha256').update(data).digest('hex')
      // An object whose content is not its name is never handed out (the integrity check reports it).
      if (actual !== sha256)
        throw new HttpError(500, `The stored object ${sha256} holds other content (${actual}): it is not served`)
      return data
    }
    return fs.promises.readFile(this.pathOf(sha256))
  }

  async readText(sha256: string): Promise<string> {
    return (await this.readBuffer(sha256)).toString('utf8')
  }

  /**
   * A URL a client may read the blob at without credentials for a while, when the bucket serves it
   * directly (`TROVE_S3_PRESIGN_ABOVE`). None when the bucket's host is the one the client reached
   * Trove at (`clientHost`), or under it: clients send their credentials along on a redirect to the
   * same host (Go's HTTP client, so skopeo and podman, to its subdomains too), and S3 refuses a
   * request that carries a signature and an Authorization header both.
   */
  async directUrl(sha256: string, size: number, clientHost: string): Promise<string | undefined> {
    const above = this.s3?.settings.presignAboveBytes ?? 0
    if (!this.s3 || above <= 0 || size < above) return undefined
    const url = await this.s3.presign(this.s3.blobKey(sha256), 300)
    return sendsCredentialsTo(clientHost, new URL(url).hostname) ? undefined : url
  }

  /**
   * Frees blobs no referrer names. Blobs touched within `graceMs` are spared: their metadata rows
   * may be about to commit. Returns the number freed.
   */
  async collectGarbage(graceMs = 60 * 60 * 1000): Promise<number> {
    const cutoff = Date.now() - graceMs
    const orphans = await this.db
      .selectFrom('blobs')
      .select('blobs.sha256')
      .where('blobs.touched_at', '<', cutoff)
      .where(unreferenced)
      .execute()
    let freed = 0
    for (const { sha256 } of orphans) {
      // Delete the row only if still untouched, and the file before that deletion commits: an upload
      // of the same content touches the row first (`keep`), which waits for this transaction, so it
      // finds either the row spared or the file gone (and puts its own in place). Deleting the row
      // first and the file after let such an upload see the old file, drop its copy, and lose it.
      const deleted = await this.db.transaction().execute(async (tx) => {
        const res = await tx
          .deleteFrom('blobs')
          .where('blobs.sha256', '=', sha256)
          .where('blobs.touched_at', '<', cutoff)
          .where(unreferenced)
          .executeTakeFirst()
        if (Number(res.numDeletedRows) === 0) return false
        if (this.s3) await this.s3.delete(this.s3.blobKey(sha256))
        else await fs.promises.rm(this.pathOf(sha256), { force: true })
        await fs.promises.rm(path.join(this.spool, sha256), { force: true })
        return true
      })
      if (!deleted) continue
      this.forget(sha256)
      freed++
    }
    // Temp files and objects older than a day belong to uploads that died; the objects of a
    // registry upload in progress go with their upload, which may have begun days ago.
    if (this.s3) await this.s3.removeTemp('', Date.now() - 24 * 60 * 60 * 1000, isUploadObject)
    for (const name of await fs.promises.readdir(this.tmp)) {
      const file = path.join(this.tmp, name)
      const stat = await fs.promises.stat(file).catch(() => undefined)
      if (stat && stat.mtimeMs < Date.now() - 24 * 60 * 60 * 1000) await fs.promises.rm(file, { force: true })
    }
    return freed
  }
}
