import {
  BUILDINFO_MAGIC,
  type BuildInfo,
  buildInfoComponents,
  buildInfoExtent,
  decodeBuildInfo,
} from '../lockfiles/goBuildInfo.js'
import type { Component } from '../types.js'

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46])
const ALIGN = 16
/** The most build information kept; real ones are a few KB to a few hundred KB. */
const MAX_BUILDINFO_BYTES = 4 * 1024 * 1024
/** Candidates (aligned magics) tried before giving up on a file: a real binary has one or two. */
const MAX_CANDIDATES = 16

/**
 * Finds a Go binary's build information while the file streams past, keeping only the bytes from
 * a candidate magic to the end of the module list (and a few bytes of overlap between chunks), so
 * a large executable is never held in memory. A candidate that does not decode (the magic's bytes
 * held as a string by a program that reads build information) is dropped and the search goes on
 * after it. Files that do not start like an ELF binary are dropped at once.
 */
export class GoBinaryScanner {
  private seen = 0
  private head = Buffer.alloc(0)
  /** The last bytes before `seen`, where the start of a magic cut by a chunk boundary may sit. */
  private tail = Buffer.alloc(0)
  /** The bytes from the current candidate on, its offset in the file, and its extent once known. */
  private window: Buffer[] = []
  private windowStart = -1
  private windowLength = 0
  private extent: number | null = null
  private candidates = 0
  private info: BuildInfo | null = null
  private finished = false

  /** Whether more bytes could still change the outcome. */
  get wantsMore(): boolean {
    return !this.finished
  }

  push(chunk: Buffer): void {
    if (this.finished) return
    const offset = this.seen
    this.seen += chunk.length
    if (offset < ELF_MAGIC.length) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, ELF_MAGIC.length - offset)])
      if (this.head.length >= ELF_MAGIC.length && !this.head.equals(ELF_MAGIC)) {
        this.finished = true
        return
      }
    }
    let pending: Buffer | null = chunk
    let pendingOffset = offset
    while (pending && !this.finished) {
      if (this.windowStart < 0) {
        const found = this.find(pending, pendingOffset)
        if (!found) return
        this.startCandidate(found.at, found.bytes)
      } else {
        this.window.push(pending)
        this.windowLength += pending.length
      }
      pending = null
      if (this.check() === 'rejected') {
        // Search again from just after the dropped candidate, through the bytes already kept.
        pending = Buffer.concat(this.window).subarray(1)
        pendingOffset = this.windowStart + 1
        this.window = []
        this.windowStart = -1
        this.windowLength = 0
        this.tail = Buffer.alloc(0)
        if (++this.candidates >= MAX_CANDIDATES) this.finished = true
      }
    }
  }

  /** The build information's components, once the file has been seen (or [] for anything else). */
  components(path: string): Component[] {
    return this.info ? buildInfoComponents(path, this.info) : []
  }

  private startCandidate(at: number, bytes: Buffer): void {
    this.windowStart = at
    this.window = [bytes]
    this.windowLength = bytes.length
    this.extent = null
  }

  /** Whether the current candidate is still being read, decoded (the search is over), or not build information. */
  private check(): 'wait' | 'accepted' | 'rejected' {
    if (this.extent === null) {
      // Until both lengths have been read the window is small, so joining it each time costs little.
      const joined = Buffer.concat(this.window)
      this.window = [joined]
      const extent = buildInfoExtent(joined)
      if (extent === 'more') return this.windowLength > MAX_BUILDINFO_BYTES ? 'rejected' : 'wait'
      if (extent === null || extent > MAX_BUILDINFO_BYTES) return 'rejected'
      this.extent = extent
    }
    if (this.windowLength < this.extent) return 'wait'
    const info = decodeBuildInfo(Buffer.concat(this.window).subarray(0, this.extent))
    if (!info) return 'rejected'
    this.info = info
    this.window = []
    this.finished = true
    return 'accepted'
  }

  /** The first aligned magic in `chunk` (at `offset` in the file) or straddling the tail before it, and the bytes from it on. */
  private find(chunk: Buffer, offset: number): { at: number; bytes: Buffer } | null {
    const overlap = BUILDINFO_MAGIC.length - 1
    const straddle = Buffer.concat([this.tail, chunk.subarray(0, overlap)])
    const straddleStart = offset - this.tail.length
    for (
      let i = straddle.indexOf(BUILDINFO_MAGIC);
      i >= 0 && i < this.tail.length;
      i = straddle.indexOf(BUILDINFO_MAGIC, i + 1)
    ) {
      if ((straddleStart + i) % ALIGN === 0)
        return { at: straddleStart + i, bytes: Buffer.concat([this.tail.subarray(i), chunk]) }
    }
    for (let i = chunk.indexOf(BUILDINFO_MAGIC); i >= 0; i = chunk.indexOf(BUILDINFO_MAGIC, i + 1)) {
      if ((offset + i) % ALIGN === 0) return { at: offset + i, bytes: Buffer.from(chunk.subarray(i)) }
    }
    this.tail = Buffer.from(Buffer.concat([this.tail, chunk.subarray(-overlap)]).subarray(-overlap))
    return null
  }
}
