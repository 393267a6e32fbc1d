import fs from 'node:fs'
import { Worker } from 'node:worker_threads'
import { type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from './schema.js'
import { StreamHasher } from './streamHasher.js'
import { quietFor } from './transfers.js'

/** The background thread starts on a blob once no large transfer has run on the node for this long … */
export const LATER_QUIET_MS = 2000
/** … or once the blob has waited this long, however busy the node is. */
export const LATER_MAX_WAIT_MS = 10 * 60_000

/** A blob or file row whose sums are still missing (the condition of the partial indexes of 0072). */
const MISSING = sql<SqlBool>`(sha1 = '' or md5 = '')`

export interface LaterSums {
  sha1: string
  md5: string
}

/**
 * The thread that computes the checksums left for later. It lowers its own CPU priority first
 * (on Linux the nice value is a thread's own): it takes what the machine has to spare, not a
 * push's or a pull's share. Plain JavaScript evaluated as a script, like the hashing threads.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
try { os.setPriority(19) } catch {}
const buffer = Buffer.allocUnsafe(1024 * 1024)
parentPort.on('message', ({ sha256, file }) => {
  try {
    const sha1 = crypto.createHash('sha1')
    const md5 = crypto.createHash('md5')
    const fd = fs.openSync(file, 'r')
    try {
      for (;;) {
        const n = fs.readSync(fd, buffer, 0, buffer.length, null)
        if (n === 0) break
        sha1.update(buffer.subarray(0, n))
        md5.update(buffer.subarray(0, n))
      }
    } finally {
      fs.closeSync(fd)
    }
    parentPort.postMessage({ sha256, sha1: sha1.digest('hex'), md5: md5.digest('hex') })
  } catch (error) {
    parentPort.postMessage({ sha256, error: String(error && error.message) })
  }
})
`

interface WorkerAnswer {
  sha256: string
  sha1?: string
  md5?: string
  error?: string
}

/**
 * sha1 and md5 of the blobs stored without them (uploads past DEFER_PAST_BYTES that declared
 * neither; their rows say ''). Every such blob is queued when it is kept and done by one thread in
 * the background, oldest first, once the node is quiet (LATER_QUIET_MS); the thread ends when the
 * queue is empty. `now` computes one at once for a caller that needs it (a Maven client asking for
 * a `.sha1`, the file info API). Both write the blob's row and its files' rows. `sweep` finds what
 * is still missing (a node that stopped before its queue was done, a file row written while its
 * blob's sums were being recorded) and is run at start and with the GC.
 */
export class LaterChecksums {
  /** Queued blobs and when each was queued. */
  private readonly queue = new Map<string, number>()
  private worker: Worker | undefined
  private working: string | undefined
  private waitTimer: NodeJS.Timeout | undefined
  private readonly asked = new Map<string, Promise<LaterSums>>()
  private readonly idleWaiters: (() => void)[] = []
  private closed = false
  /** Database work under way (a sweep, sums being recorded): `close` waits for it, since the database closes next. */
  private readonly writing = new Set<Promise<unknown>>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly fileOf: (sha256: string) => Promise<string>,
    /** Called once a blob's sums are recorded (caches of answers that show them). */
    private readonly recorded: () => void = () => {},
    private readonly quietMs = LATER_QUIET_MS,
  ) {}

  /** Queues a blob for the background thread. */
  enqueue(sha256: string): void {
    if (this.closed) return
    if (!this.queue.has(sha256)) this.queue.set(sha256, Date.now())
    this.next()
  }

  /** The blob's sha1 and md5, computed now (or taken from whoever is already computing them). */
  now(sha256: string): Promise<LaterSums> {
    const running = this.asked.get(sha256)
    if (running) return running
    const computing = this.computeHere(sha256).finally(() => {
      this.asked.delete(sha256)
      this.settleIdle()
    })
    this.asked.set(sha256, computing)
    return computing
  }

  /** Queues every blob whose sums are still missing and completes file rows whose blob has them. */
  sweep(): Promise<number> {
    return this.track(this.sweepNow())
  }

  private async sweepNow(): Promise<number> {
    await this.completeFileRows()
    const pending = await this.db.selectFrom('blobs').select('sha256').where(MISSING).execute()
    for (const { sha256 } of pending) this.enqueue(sha256)
    return pending.length
  }

  /** Resolves once the queue is empty and nothing is being computed. */
  idle(): Promise<void> {
    if (this.queue.size === 0 && !this.working && this.asked.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  async close(): Promise<void> {
    this.closed = true
    this.queue.clear()
    clearTimeout(this.waitTimer)
    this.waitTimer = undefined
    await this.stopThread()
    await Promise.allSettled([...this.writing, ...this.asked.values()])
    this.settleIdle()
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.writing.add(work)
    const done = () => this.writing.delete(work)
    work.then(done, done)
    return work
  }

  private next(): void {
    if (this.working || this.closed || this.waitTimer) {
      this.settleIdle()
      return
    }
    const first = this.queue.entries().next().value
    if (first === undefined) {
      // Nothing left: the thread's memory goes back.
      void this.stopThread()
      this.settleIdle()
      return
    }
    const [sha256, queuedAt] = first
    const now = Date.now()
    if (!quietFor(this.quietMs, now) && now - queuedAt < LATER_MAX_WAIT_MS) {
      this.waitTimer = setTimeout(
        () => {
          this.waitTimer = undefined
          this.next()
        },
        Math.min(this.quietMs, 500),
      )
      this.waitTimer.unref()
      return
    }
    this.queue.delete(sha256)
    this.working = sha256
    this.fileOf(sha256).then(
      (file) => this.thread().postMessage({ sha256, file }),
      () => {
        // A blob collected meanwhile (or one its store cannot read now): nothing to record.
        this.working = undefined
        this.next()
      },
    )
  }

  private async stopThread(): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    await worker?.terminate()
  }

  private thread(): Worker {
    if (this.worker) return this.worker
    const worker = new Worker(WORKER_SOURCE, { eval: true })
    worker.unref()
    worker.on('message', (answer: WorkerAnswer) => {
      const done = () => {
        this.working = undefined
        this.next()
      }
      // A blob collected meanwhile has nothing left to record.
      if (!answer.sha1 || !answer.md5) return done()
      this.track(this.record(answer.sha256, { sha1: answer.sha1, md5: answer.md5 })).then(done, done)
    })
    const lost = () => {
      if (this.worker !== worker) return
      this.worker = undefined
      const lostOne = this.working
      this.working = undefined
      if (lostOne && !this.closed) this.queue.set(lostOne, Date.now())
      this.next()
    }
    worker.on('error', lost)
    worker.on('exit', lost)
    this.worker = worker
    return worker
  }

  private async computeHere(sha256: string): Promise<LaterSums> {
    const row = await this.db.selectFrom('blobs').select(['sha1', 'md5']).where('sha256', '=', sha256).executeTakeFirst()
    if (row?.sha1 && row.md5) return { sha1: row.sha1, md5: row.md5 }
    // The sha256 is the file's name already: hash for the other two only.
    const hasher = new StreamHasher(['sha1', 'md5'], { sha256: false })
    try {
      for await (const chunk of fs.createReadStream(await this.fileOf(sha256), { highWaterMark: 1 << 20 })) {
        const wait = hasher.update(chunk as Buffer)
        if (wait) await wait
      }
    } catch (error) {
      hasher.dispose()
      throw error
    }
    const { sha1, md5 } = await hasher.digest()
    await this.record(sha256, { sha1, md5 })
    return { sha1, md5 }
  }

  private async record(sha256: string, sums: LaterSums): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      // The blob's row, then its files' rows (a file row copies its blob's sums).
      for (const table of ['blobs', 'files'] as const) {
        await tx.updateTable(table).set(sums).where('sha256', '=', sha256).where(MISSING).execute()
      }
    })
    this.recorded()
  }

  private async completeFileRows(): Promise<void> {
    // Read first: an update, even of no row, tells every cache of files that they changed.
    const missing = await this.db.selectFrom('files').select('sha256').where(MISSING).limit(1).executeTakeFirst()
    if (!missing) return
    const sha1 = sql<string>`(select b.sha1 from blobs b where b.sha256 = files.sha256)`
    const md5 = sql<string>`(select b.md5 from blobs b where b.sha256 = files.sha256)`
    await this.db
      .updateTable('files')
      .set({ sha1, md5 })
      .where(MISSING)
      .where(sql<boolean>`exists (select 1 from blobs b where b.sha256 = files.sha256 and b.sha1 <> '' and b.md5 <> '')`)
      .execute()
  }

  private settleIdle(): void {
    if (this.queue.size > 0 || this.working || this.asked.size > 0) return
    for (const resolve of this.idleWaiters.splice(0)) resolve()
  }
}
