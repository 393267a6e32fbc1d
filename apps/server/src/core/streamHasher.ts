import crypto from 'node:crypto'
import { Worker } from 'node:worker_threads'

export interface Digests {
  sha256: string
  sha1: string
  md5: string
}

const ALGORITHMS = ['sha256', 'sha1', 'md5'] as const
type Algorithm = (typeof ALGORITHMS)[number]

/**
 * An upload is hashed in this thread until it passes this many bytes: small files (packages, POMs,
 * manifests) are done at once, without a round trip to the hashing threads.
 */
export const INLINE_HASH_BYTES = 1024 * 1024
/** A larger upload goes to the hashing threads in slots of this size (few messages per gigabyte) … */
const SLOT_BYTES = 4 * 1024 * 1024
/** … through a ring of this many slots per upload; the sender waits when all are being hashed. */
const SLOTS = 4
/** The memory a large upload's ring takes while it streams. */
export const HASH_RING_BYTES = SLOTS * SLOT_BYTES

/**
 * One hashing thread per algorithm. Each keeps the running hashes of every upload it serves (by
 * id) and reads the bytes from the upload's shared ring; it answers `done` per slot and the
 * digest once asked. Plain JavaScript evaluated as a script: the same code runs from the build
 * and from the sources under test.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const crypto = require('node:crypto')
const states = new Map()
parentPort.on('message', (m) => {
  if (m.op === 'open') {
    states.set(m.id, { hash: crypto.createHash(workerData.algorithm), bytes: new Uint8Array(m.ring) })
    return
  }
  const s = states.get(m.id)
  if (m.op === 'drop' || !s) return states.delete(m.id)
  if (m.op === 'data') {
    s.hash.update(s.bytes.subarray(m.start, m.end))
    parentPort.postMessage({ id: m.id, op: 'done', slot: m.slot })
  } else if (m.op === 'digest') {
    states.delete(m.id)
    parentPort.postMessage({ id: m.id, op: 'digest', hex: s.hash.digest('hex') })
  }
})
`

interface WorkerMessage {
  id: number
  op: 'done' | 'digest'
  slot?: number
  hex?: string
}

/** The hashing threads, started on first use and shared by every upload of the process. */
class HashThreads {
  private readonly workers = new Map<Algorithm, Worker>()
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

  post(algorithm: Algorithm, message: object): void {
    this.worker(algorithm).postMessage(message)
  }

  private worker(algorithm: Algorithm): Worker {
    const worker = this.workers.get(algorithm)
    if (worker) return worker
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { algorithm } })
    started.unref()
    started.on('message', (m: WorkerMessage) => this.hashers.get(m.id)?.received(algorithm, m))
    const lost = (error: Error) => {
      if (this.workers.get(algorithm) !== started) return
      this.workers.delete(algorithm)
      // Every upload it was hashing fails; the next one starts a fresh thread.
      for (const hasher of [...this.hashers.values()]) hasher.failed(error)
    }
    started.on('error', lost)
    started.on('exit', (code) => lost(new Error(`the ${algorithm} hashing thread exited (${code})`)))
    this.workers.set(algorithm, started)
    return started
  }
}

const threads = new HashThreads()

/**
 * The sha256, sha1 and md5 of a stream, computed while it arrives. Past INLINE_HASH_BYTES the
 * three hashes run in three threads, in parallel with each other and with the socket reads and
 * disk writes of this one: a push of a large layer is no longer bound to one core. Each chunk is
 * copied once into a shared ring (the chunk itself goes on to the file); `update` returns a
 * promise only when the ring is full, which holds the sender back until a slot is hashed.
 */
export class StreamHasher {
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
    return this.copy(chunk, 0)
  }

  /** The three digests, once every byte given is hashed. */
  digest(): Promise<Digests> {
    if (this.error) return Promise.reject(this.error)
    if (this.done) return Promise.reject(new Error('the hashes were already taken'))
    this.done = true
    if (!this.ring) {
      const digests = Object.fromEntries(
        ALGORITHMS.map((algorithm) => {
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
      for (const algorithm of ALGORITHMS) threads.post(algorithm, { op: 'digest', id: this.id })
    })
  }

  /** Forgets an upload that will not finish (failed, cancelled, expired). */
  dispose(): void {
    this.pending = []
    if (this.ring && !this.error) {
      for (const algorithm of ALGORITHMS) threads.post(algorithm, { op: 'drop', id: this.id })
    }
    this.finish(new Error('the upload was abandoned'))
  }

  private start(): void {
    this.ring = Buffer.from(new SharedArrayBuffer(HASH_RING_BYTES))
    this.id = threads.register(this)
    for (const algorithm of ALGORITHMS) threads.post(algorithm, { op: 'open', id: this.id, ring: this.ring.buffer })
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
    const start = this.slot * SLOT_BYTES
    this.busy[this.slot] = ALGORITHMS.length
    for (const algorithm of ALGORITHMS) {
      threads.post(algorithm, { op: 'data', id: this.id, slot: this.slot, start, end: start + this.filled })
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
  received(algorithm: Algorithm, m: WorkerMessage): void {
    if (m.op === 'done' && m.slot !== undefined) {
      this.busy[m.slot] = (this.busy[m.slot] ?? 1) - 1
      if (this.busy[m.slot] === 0 && this.waiting?.slot === m.slot) {
        const { resolve } = this.waiting
        this.waiting = undefined
        resolve()
      }
    } else if (m.op === 'digest' && m.hex) {
      this.digests[algorithm] = m.hex
      if (ALGORITHMS.every((a) => this.digests[a])) {
        const digests = this.digests as Digests
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
    if (this.id) threads.unregister(this.id)
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
