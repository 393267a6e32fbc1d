import crypto from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { transferStarted } from './transfers.js'

/** sha1 and md5 are '' when they were left for later (see DEFER_PAST_BYTES). */
export interface Digests {
  sha256: string
  sha1: string
  md5: string
}

const ALGORITHMS = ['sha256', 'sha1', 'md5'] as const
type Algorithm = (typeof ALGORITHMS)[number]
/**
 * The hashing threads and what each computes: sha256 in one, sha1 and md5 together in the other
 * (those two are hashed past DEFER_PAST_BYTES only when declared, so they seldom set the pace,
 * and a thread fewer is 10 MB less memory).
 */
const LANES = { sha256: ['sha256'], legacy: ['sha1', 'md5'] } as const satisfies Record<string, readonly Algorithm[]>
type Lane = keyof typeof LANES
const ALL_LANES = Object.keys(LANES) as Lane[]
/** The checksums that are recorded but not needed to store a blob. */
export type LaterChecksum = 'sha1' | 'md5'

/**
 * Past this many bytes an upload is hashed with sha256 only (its address, checked before it is
 * kept), unless the client declared its sha1 or md5: those two are then computed after the commit,
 * by the blob store's checksum job (or at once when someone asks). Hashing a gigabyte three times
 * costs 3 CPU-seconds more than hashing it once, which on a 2-core machine is the difference
 * between a push at the client's speed and one at half of it.
 */
export const DEFER_PAST_BYTES = 64 * 1024 * 1024

/**
 * An upload is hashed in this thread until it passes this many bytes: small files (packages, POMs,
 * manifests) are done at once, without a round trip to the hashing threads.
 */
export const INLINE_HASH_BYTES = 1024 * 1024
/** A larger upload goes to the hashing threads in slots of this size (few messages per gigabyte) … */
const SLOT_BYTES = 2 * 1024 * 1024
/** … through a ring of this many slots per upload; the sender waits when all are being hashed. */
const SLOTS = 4
/** The memory a large upload's ring takes while it streams. */
export const HASH_RING_BYTES = SLOTS * SLOT_BYTES
/**
 * Rings of finished uploads, used again by the next ones. A ring is shared memory the hashing
 * threads hold a view of; a thread that hardly allocates hardly collects garbage, so a ring made
 * per upload was freed late or never: the process grew by about a slot per upload past 1 MB.
 */
const freeRings: SharedArrayBuffer[] = []
const FREE_RINGS_MAX = 8
/** How many rings wait to be used again, and how many were ever made (tests). */
export const ringStats = () => ({ free: freeRings.length, made: ringsMade })
let ringsMade = 0
const newRing = () => {
  ringsMade++
  return new SharedArrayBuffer(HASH_RING_BYTES)
}

/**
 * One hashing thread per lane. Each keeps the running hashes of every upload it serves (by id)
 * and reads the bytes from the upload's shared ring; it answers `done` per slot and the digests
 * once asked. Plain JavaScript evaluated as a script: the same code runs from the build and from
 * the sources under test.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const crypto = require('node:crypto')
const states = new Map()
parentPort.on('message', (m) => {
  if (m.op === 'open') {
    states.set(m.id, { hashes: workerData.algorithms.map((a) => crypto.createHash(a)), bytes: new Uint8Array(m.ring) })
    return
  }
  const s = states.get(m.id)
  if (m.op === 'drop' || !s) return states.delete(m.id)
  if (m.op === 'data') {
    const bytes = s.bytes.subarray(m.start, m.end)
    for (const hash of s.hashes) hash.update(bytes)
    parentPort.postMessage({ id: m.id, op: 'done', slot: m.slot })
  } else if (m.op === 'digest') {
    states.delete(m.id)
    parentPort.postMessage({ id: m.id, op: 'digest', hexes: s.hashes.map((hash) => hash.digest('hex')) })
  }
})
`

interface WorkerMessage {
  id: number
  op: 'done' | 'digest'
  slot?: number
  hexes?: string[]
}

/** The hashing threads, started on first use and shared by every upload of the process. */
class HashThreads {
  private readonly workers = new Map<Lane, Worker>()
  private readonly hashers = new Map<number, StreamHasher>()
  private lastId = 0

  register(hasher: StreamHasher): number {
    const id = ++this.lastId
    this.hashers.set(id, hasher)
    return id
  }

  unregister(id: number): void {
    this.hashers.delete(id)
  }

  post(lane: Lane, message: object): void {
    this.worker(lane).postMessage(message)
  }

  private worker(lane: Lane): Worker {
    const worker = this.workers.get(lane)
    if (worker) return worker
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { algorithms: LANES[lane] } })
    started.unref()
    started.on('message', (m: WorkerMessage) => this.hashers.get(m.id)?.received(lane, m))
    const lost = (error: Error) => {
      if (this.workers.get(lane) !== started) return
      this.workers.delete(lane)
      // Every upload it was hashing fails; the next one starts a fresh thread.
      for (const hasher of [...this.hashers.values()]) hasher.failed(error)
    }
    started.on('error', lost)
    started.on('exit', (code) => lost(new Error(`the ${lane} hashing thread exited (${code})`)))
    this.workers.set(lane, started)
    return started
  }
}

const threads = new HashThreads()

/**
 * The sha256, sha1 and md5 of a stream, computed while it arrives. Past INLINE_HASH_BYTES the
 * hashes run in threads of their own, in parallel with each other and with the socket reads and
 * disk writes of this one: a push of a large layer is no longer bound to one core. Each chunk is
 * copied once into a shared ring (the chunk itself goes on to the file); `update` returns a
 * promise only when the ring is full, which holds the sender back until a slot is hashed.
 * Past DEFER_PAST_BYTES, sha1 and md5 are dropped unless `required` (declared by the client).
 */
export class StreamHasher {
  /** The lanes still running; sha1 and md5's leaves past DEFER_PAST_BYTES unless required. */
  private active: Lane[] = [...ALL_LANES]
  /** Bytes handed to the hashing threads so far. */
  private dispatched = 0
  private pending: Buffer[] = []
  private pendingBytes = 0
  private id = 0
  private ring: Buffer | undefined
  private slot = 0
  private filled = 0
  /** Threads still hashing each slot (0: free). */
  private readonly busy = new Array<number>(SLOTS).fill(0)
  private waiting: { slot: number; resolve: () => void; reject: (error: Error) => void } | undefined
  private digests: Partial<Record<Algorithm, string>> = {}
  private finishing: { resolve: (d: Digests) => void; reject: (error: Error) => void } | undefined
  private error: Error | undefined
  private done = false

  /** Ends this upload's mark as a large transfer in progress (see transfers.ts). */
  private endTransfer: (() => void) | undefined

  /**
   * `required`: sha1 and md5 are kept past DEFER_PAST_BYTES when one of them is here.
   * `sha256: false`: a file whose sha256 is known already (its address) is hashed for sha1 and md5
   * alone; the digests then say '' for sha256.
   */
  constructor(
    private readonly required: readonly LaterChecksum[] = [],
    options: { sha256?: boolean; legacy?: boolean } = {},
  ) {
    if (options.sha256 === false) this.active = ['legacy']
    if (options.legacy === false) this.active = ['sha256']
  }

  /** Takes the next chunk. A promise means: wait for it before sending more. */
  update(chunk: Buffer): Promise<void> | undefined {
    if (this.error) return Promise.reject(this.error)
    if (this.done) return Promise.reject(new Error('the hashes were already taken'))
    if (!this.ring) {
      this.pending.push(chunk)
      this.pendingBytes += chunk.length
      if (this.pendingBytes <= INLINE_HASH_BYTES) return undefined
      this.start()
      const pending = this.pending
      this.pending = []
      this.pendingBytes = 0
      return this.copyAll(pending)
    }
    this.endTransfer ??= transferStarted()
    return this.copy(chunk, 0)
  }

  /**
   * The upload's data stopped for now (a chunked upload between two of its requests): it no
   * longer counts as a transfer in progress until more arrives.
   */
  paused(): void {
    this.endTransfer?.()
    this.endTransfer = undefined
  }

  /** The three digests, once every byte given is hashed. */
  digest(): Promise<Digests> {
    if (this.error) return Promise.reject(this.error)
    if (this.done) return Promise.reject(new Error('the hashes were already taken'))
    this.done = true
    if (!this.ring) {
      const wanted = this.active.flatMap((lane): readonly Algorithm[] => LANES[lane])
      const digests = Object.fromEntries(
        ALGORITHMS.map((algorithm) => {
          if (!wanted.includes(algorithm)) return [algorithm, '']
          const hash = crypto.createHash(algorithm)
          for (const chunk of this.pending) hash.update(chunk)
          return [algorithm, hash.digest('hex')]
        }),
      ) as unknown as Digests
      this.pending = []
      return Promise.resolve(digests)
    }
    return new Promise<Digests>((resolve, reject) => {
      this.finishing = { resolve, reject }
      if (this.filled > 0) this.dispatch()
      for (const lane of this.active) threads.post(lane, { op: 'digest', id: this.id })
    })
  }

  /** Forgets an upload that will not finish (failed, cancelled, expired). */
  dispose(): void {
    this.pending = []
    if (this.ring && !this.error) {
      for (const lane of this.active) threads.post(lane, { op: 'drop', id: this.id })
    }
    this.finish(new Error('the upload was abandoned'))
  }

  private start(): void {
    this.endTransfer = transferStarted()
    this.ring = Buffer.from(freeRings.pop() ?? newRing())
    this.id = threads.register(this)
    for (const lane of this.active) threads.post(lane, { op: 'open', id: this.id, ring: this.ring.buffer })
  }

  /**
   * Stops hashing sha1 and md5 (unless one was declared). Slots already handed to their thread are
   * still hashed and answered (a thread takes its messages in order), so the ring's counts stay right.
   */
  private leaveForLater(): void {
    if (this.required.length > 0 || !this.active.includes('legacy')) return
    threads.post('legacy', { op: 'drop', id: this.id })
    this.active = this.active.filter((lane) => lane !== 'legacy')
  }

  private async copyAll(chunks: Buffer[]): Promise<void> {
    for (const chunk of chunks) await this.copy(chunk, 0)
  }

  /** Copies a chunk into the ring from `offset`, handing each full slot to the threads. */
  private copy(chunk: Buffer, offset: number): Promise<void> | undefined {
    const ring = this.ring as Buffer
    let at = offset
    while (at < chunk.length) {
      if (this.busy[this.slot] !== 0) return this.whenFree(this.slot).then(() => this.copy(chunk, at))
      const n = Math.min(SLOT_BYTES - this.filled, chunk.length - at)
      chunk.copy(ring, this.slot * SLOT_BYTES + this.filled, at, at + n)
      this.filled += n
      at += n
      if (this.filled === SLOT_BYTES) this.dispatch()
    }
    return undefined
  }

  private dispatch(): void {
    if (this.dispatched >= DEFER_PAST_BYTES) this.leaveForLater()
    this.dispatched += this.filled
    const start = this.slot * SLOT_BYTES
    this.busy[this.slot] = this.active.length
    for (const lane of this.active) {
      threads.post(lane, { op: 'data', id: this.id, slot: this.slot, start, end: start + this.filled })
    }
    this.slot = (this.slot + 1) % SLOTS
    this.filled = 0
  }

  private whenFree(slot: number): Promise<void> {
    if (this.error) return Promise.reject(this.error)
    return new Promise((resolve, reject) => {
      this.waiting = { slot, resolve, reject }
    })
  }

  /** A thread's answer for this upload. */
  received(lane: Lane, m: WorkerMessage): void {
    if (m.op === 'done' && m.slot !== undefined) {
      this.busy[m.slot] = (this.busy[m.slot] ?? 1) - 1
      if (this.busy[m.slot] === 0 && this.waiting?.slot === m.slot) {
        const { resolve } = this.waiting
        this.waiting = undefined
        resolve()
      }
    } else if (m.op === 'digest' && m.hexes) {
      LANES[lane].forEach((algorithm, i) => {
        this.digests[algorithm] = m.hexes?.[i]
      })
      if (this.active.every((l) => LANES[l].every((a) => this.digests[a]))) {
        const digests: Digests = { sha256: '', sha1: '', md5: '', ...this.digests }
        const finishing = this.finishing
        this.finishing = undefined
        this.finish()
        finishing?.resolve(digests)
      }
    }
  }

  /** A hashing thread died: this upload cannot be hashed. */
  failed(error: Error): void {
    this.finish(error)
  }

  private finish(error?: Error): void {
    this.endTransfer?.()
    if (this.id) threads.unregister(this.id)
    // Every lane answered its digest, so every slot was read: the ring may serve another upload. A
    // dropped upload's ring may still be read for its last slots (whose hashes are thrown away), so
    // it is left to the garbage collector.
    if (this.ring && !error && freeRings.length < FREE_RINGS_MAX) freeRings.push(this.ring.buffer as SharedArrayBuffer)
    this.ring = undefined
    if (!error) return
    this.error ??= error
    const { waiting, finishing } = this
    this.waiting = undefined
    this.finishing = undefined
    waiting?.reject(error)
    finishing?.reject(error)
  }
}
