import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { BlobFileWriter, type BlobInfo, type BlobStore, hashingStream } from '../../core/blobStore.js'
import { isStorageFull, storageFullAsHttp } from '../../core/errors.js'
import { type Digests, StreamHasher } from '../../core/streamHasher.js'
import { OciError } from './errors.js'

/**
 * Chunked blob uploads of the registry (POST, then PATCH … and PUT, or DELETE), with the blobs on
 * the local disk. An upload lives on disk, in the blob store's temp dir, so that any worker
 * process of the node (or any node sharing the data dir) can take its next request:
 *
 * - `upload-<id>`: the bytes received so far;
 * - `upload-<id>.json`: where they go (repository and image), or that a chunk broke off;
 * - `upload-<id>.lock`: held by the request writing the upload (one at a time, whichever process).
 *
 * A process keeps a running hash of each upload it serves; before it writes, it hashes what other
 * processes appended since it last saw the file.
 */

interface Session {
  repoKey: string
  image: string
  file: string
  /** How much of the file this process's hasher has seen. */
  size: number
  hasher: StreamHasher
  /** A request of this process holds the upload. */
  busy: boolean
  touched: number
}

interface UploadRecord {
  repoKey: string
  image: string
  /** A chunk broke off while it was written: the bytes on disk can no longer be trusted. */
  broken?: true
}

interface LockOwner {
  host: string
  pid: number
}

export const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const DAY_MS = 24 * 3600_000
/** How often a process forgets the uploads it holds that others finished, and drops expired ones. */
export const SWEEP_MS = 60_000

/** An upload held by one request: write it, finish it or cancel it, then release it. */
export interface HeldUpload {
  readonly id: string
  readonly repoKey: string
  readonly image: string
  /** Bytes received so far. */
  readonly size: number
  /**
   * Appends a request body, hashing as it streams (413 past `limit`); `length`: the bytes it
   * carries, when the request says (a bucket takes it in one request then).
   */
  append(body: Readable, limit: number, length?: number): Promise<void>
  /**
   * Ends the upload for every process: its content, checked against the `sha256` the client named,
   * goes into the blob store (400 DIGEST_INVALID and nothing stored when it does not match).
   */
  finish(sha256: string): Promise<BlobInfo>
  /** Removes the upload for every process. */
  cancel(): Promise<void>
  release(): Promise<void>
}

/**
 * Where the registry keeps its chunked uploads: files of the blob store's temp dir (`Uploads`, for
 * blobs on the local disk) or rows and objects of the bucket (`BucketUploads`), picked where the
 * registry is built.
 */
export interface UploadStore {
  /** Start-up recovery: removes the uploads dead requests of this node left; how many. */
  recover(): Promise<number>
  /** Starts an upload; its id. */
  create(repoKey: string, image: string): Promise<string>
  /** Bytes received so far (an upload's status), without holding the upload. */
  received(id: string, repoKey: string, image: string): Promise<number>
  /** Takes an upload for one request; 416 while another request (of any process) writes it. */
  hold(id: string, repoKey: string, image: string): Promise<HeldUpload>
  close(): void
}

export class Uploads implements UploadStore {
  private readonly sessions = new Map<string, Session>()
  private readonly sweeper: NodeJS.Timeout

  constructor(private readonly blobs: BlobStore) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref()
  }

  close(): void {
    clearInterval(this.sweeper)
    for (const id of [...this.sessions.keys()]) this.forget(id)
  }

  private dataFile = (id: string) => this.blobs.tempPath(`upload-${id}`)
  private recordFile = (id: string) => `${this.dataFile(id)}.json`
  private lockFile = (id: string) => `${this.dataFile(id)}.lock`

  /**
   * Start-up recovery: removes what dead requests of this host left. An upload whose chunk was
   * being written when its process died (its lock names a dead process of this host) or that broke
   * off goes, and so do the files of an upload that was finishing (its record already gone). An
   * upload between chunks stays: its client may go on with it.
   */
  async recover(): Promise<number> {
    let removed = 0
    const names = await fs.promises.readdir(this.blobs.tempPath('')).catch(() => [] as string[])
    const ids = new Set(names.flatMap((n) => /^upload-([0-9a-f-]{36})/.exec(n)?.[1] ?? []))
    for (const id of ids) {
      const record = await fs.promises.readFile(this.recordFile(id), 'utf8').then(
        (text) => JSON.parse(text) as UploadRecord,
        () => undefined,
      )
      const locked = fs.existsSync(this.lockFile(id))
      // A live process (of this host or another) is writing it.
      if (locked && !(await this.staleLock(id))) continue
      // Between chunks and intact.
      if (record && !record.broken && !locked && fs.existsSync(this.dataFile(id))) continue
      await fs.promises.rm(this.recordFile(id), { force: true })
      await fs.promises.rm(this.dataFile(id), { force: true })
      await fs.promises.rm(this.lockFile(id), { force: true })
      removed++
    }
    return removed
  }

  /** Starts an upload; its id. */
  async create(repoKey: string, image: string): Promise<string> {
    const id = crypto.randomUUID()
    const file = this.dataFile(id)
    // The record first: start-up recovery takes data without a record for a finished upload's.
    try {
      await fs.promises.writeFile(this.recordFile(id), JSON.stringify({ repoKey, image } satisfies UploadRecord))
      await fs.promises.writeFile(file, '', { flag: 'wx' })
    } catch (error) {
      // A full disk leaves an empty record behind: nothing of a start that failed stays.
      await fs.promises.rm(this.recordFile(id), { force: true })
      await fs.promises.rm(file, { force: true })
      throw storageFullAsHttp(error)
    }
    this.sessions.set(id, { repoKey, image, file, size: 0, hasher: new StreamHasher(), busy: false, touched: Date.now() })
    return id
  }

  /** Bytes received so far (an upload's status): read from disk, without holding the upload. */
  async received(id: string, repoKey: string, image: string): Promise<number> {
    await this.record(id, repoKey, image)
    const size = await this.sizeOnDisk(id)
    if (size === undefined) throw unknown(id)
    return size
  }

  /** Takes an upload for one request; 416 while another request (of any process) writes it. */
  async hold(id: string, repoKey: string, image: string): Promise<HeldUpload> {
    await this.record(id, repoKey, image)
    let session = this.sessions.get(id)
    if (!session) {
      session = { repoKey, image, file: this.dataFile(id), size: 0, hasher: new StreamHasher(), busy: false, touched: Date.now() }
      this.sessions.set(id, session)
    }
    // Checked and taken with no await in between: two requests of this process cannot both pass.
    if (session.busy) throw inUse()
    session.busy = true
    let locked = false
    try {
      await this.lock(id)
      locked = true
      await this.catchUp(id, session)
    } catch (error) {
      session.busy = false
      if (locked) await fs.promises.rm(this.lockFile(id), { force: true })
      throw error
    }
    return this.held(id, session)
  }

  private held(id: string, session: Session): HeldUpload {
    let released = false
    const release = async () => {
      if (released) return
      released = true
      session.busy = false
      session.touched = Date.now()
      await fs.promises.rm(this.lockFile(id), { force: true })
    }
    return {
      id,
      repoKey: session.repoKey,
      image: session.image,
      get size() {
        return session.size
      },
      append: (body, limit) => this.append(id, session, body, limit),
      finish: async (sha256) => {
        // The upload ends here for every process: the record goes first.
        this.sessions.delete(id)
        await fs.promises.rm(this.recordFile(id), { force: true })
        let digests: Digests
        try {
          const onDisk = await this.sizeOnDisk(id)
          if (onDisk !== session.size) throw broke()
          digests = await session.hasher.digest()
          if (digests.sha256 !== sha256) throw digestMismatch(sha256, digests.sha256)
        } catch (error) {
          session.hasher.dispose()
          await fs.promises.rm(session.file, { force: true })
          throw error
        }
        // The temp file is the blob store's now: renamed into place.
        return this.blobs.adopt(session.file, { ...digests, size: session.size })
      },
      cancel: () => this.remove(id),
      release,
    }
  }

  /** The upload's record, checked against the repository and image the request names. */
  private async record(id: string, repoKey: string, image: string): Promise<UploadRecord> {
    let record: UploadRecord | undefined
    if (UPLOAD_ID.test(id)) {
      try {
        record = JSON.parse(await fs.promises.readFile(this.recordFile(id), 'utf8')) as UploadRecord
      } catch {
        record = undefined
      }
    }
    if (!record) {
      // Finished or cancelled, maybe by another process.
      this.forget(id)
      throw unknown(id)
    }
    if (record.repoKey !== repoKey || record.image !== image) throw unknown(id)
    if (record.broken) {
      // The answer leaves once the temp files are gone.
      await this.remove(id)
      throw broke()
    }
    return record
  }

  private async sizeOnDisk(id: string): Promise<number | undefined> {
    return fs.promises.stat(this.dataFile(id)).then(
      (st) => st.size,
      () => undefined,
    )
  }

  /** The lock file, created only if absent; one left by a process that died (or a day old) is taken over. */
  private async lock(id: string): Promise<void> {
    const owner = JSON.stringify({ host: os.hostname(), pid: process.pid } satisfies LockOwner)
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await fs.promises.writeFile(this.lockFile(id), owner, { flag: 'wx' })
        return
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      if (!(await this.staleLock(id))) throw inUse()
      await fs.promises.rm(this.lockFile(id), { force: true })
    }
    throw inUse()
  }

  private async staleLock(id: string): Promise<boolean> {
    try {
      const [text, stat] = await Promise.all([
        fs.promises.readFile(this.lockFile(id), 'utf8'),
        fs.promises.stat(this.lockFile(id)),
      ])
      if (Date.now() - stat.mtimeMs > DAY_MS) return true
      const owner = JSON.parse(text) as LockOwner
      if (owner.host !== os.hostname()) return false
      try {
        process.kill(owner.pid, 0)
        return false
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ESRCH'
      }
    } catch {
      // Gone meanwhile, or unreadable: try again.
      return true
    }
  }

  /** Hashes what other processes appended to the upload since this one last saw it. */
  private async catchUp(id: string, session: Session): Promise<void> {
    const onDisk = await this.sizeOnDisk(id)
    if (onDisk === undefined) {
      await this.remove(id)
      throw unknown(id)
    }
    if (onDisk === session.size) return
    if (onDisk < session.size) {
      await this.remove(id)
      throw broke()
    }
    try {
      for await (const chunk of fs.createReadStream(session.file, {
        start: session.size,
        end: onDisk - 1,
        highWaterMark: 1 << 20,
      })) {
        await session.hasher.update(chunk as Buffer)
        session.size += (chunk as Buffer).length
      }
    } finally {
      session.hasher.paused()
    }
  }

  private async append(id: string, session: Session, body: Readable, limit: number): Promise<void> {
    try {
      const hashing = hashingStream(session.hasher, (bytes) => {
        session.size += bytes
        return session.size > limit
          ? new OciError(413, 'SIZE_INVALID', `The upload is larger than the limit of ${limit} bytes`)
          : undefined
      })
      await pipeline(body, hashing, new BlobFileWriter(session.file, 'a'))
      // An upload in progress is a day old when its record is (the blob store's GC goes by it).
      const now = new Date()
      await fs.promises.utimes(this.recordFile(id), now, now).catch(() => {})
    } catch (error) {
      if (isStorageFull(error)) {
        // The disk is full: the client must start over anyway, and what the upload holds is freed now.
        await this.remove(id)
        throw storageFullAsHttp(error)
      }
      // A chunk that broke off leaves the upload unusable, for every process: what is on disk and
      // what the hashes saw may differ.
      const broken: UploadRecord = { repoKey: session.repoKey, image: session.image, broken: true }
      await fs.promises.writeFile(this.recordFile(id), JSON.stringify(broken)).catch(() => {})
      this.forget(id)
      throw error
    } finally {
      session.hasher.paused()
    }
  }

  /** Forgets an upload in this process (its hasher); the files stay. */
  private forget(id: string): void {
    const session = this.sessions.get(id)
    this.sessions.delete(id)
    session?.hasher.dispose()
  }

  /** Removes an upload for every process: its hasher here, its files on disk. */
  private async remove(id: string): Promise<void> {
    this.forget(id)
    await fs.promises.rm(this.recordFile(id), { force: true })
    await fs.promises.rm(this.dataFile(id), { force: true })
  }

  /**
   * Forgets uploads another process finished or cancelled, and removes those nobody wrote for a
   * day (the blob store's GC removes the files of uploads whose processes stopped).
   */
  private sweep(): void {
    for (const [id, session] of this.sessions) {
      if (session.busy) continue
      if (!fs.existsSync(this.recordFile(id))) {
        this.forget(id)
      } else if (Date.now() - session.touched > DAY_MS) {
        const written = fs.statSync(this.dataFile(id), { throwIfNoEntry: false })?.mtimeMs ?? 0
        if (Date.now() - written > DAY_MS) void this.remove(id)
        else this.forget(id)
      }
    }
  }
}

/** The answer to an upload whose content is not the digest its client named: nothing of it is stored. */
export const digestMismatch = (sha256: string, actual: string) =>
  new OciError(400, 'DIGEST_INVALID', `The upload's digest is sha256:${actual}, not sha256:${sha256}`, {
    digest: `sha256:${sha256}`,
  })
export const unknown = (id: string) => new OciError(404, 'BLOB_UPLOAD_UNKNOWN', `Upload ${id} is not in progress`)
export const inUse = () => new OciError(416, 'BLOB_UPLOAD_INVALID', 'Another chunk of this upload is being written')
export const broke = () => new OciError(400, 'BLOB_UPLOAD_INVALID', 'A chunk of this upload broke off; start the upload again')
