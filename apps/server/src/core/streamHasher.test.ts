import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DEFER_PAST_BYTES, HASH_RING_BYTES, INLINE_HASH_BYTES, ringStats, StreamHasher } from './streamHasher.js'
import { quietFor } from './transfers.js'

const expected = (data: Buffer) => ({
  sha256: crypto.createHash('sha256').update(data).digest('hex'),
  sha1: crypto.createHash('sha1').update(data).digest('hex'),
  md5: crypto.createHash('md5').update(data).digest('hex'),
})

/** Feeds `data` in chunks of irregular sizes, waiting whenever the hasher asks to. */
async function feed(hasher: StreamHasher, data: Buffer, sizes = [65536, 1, 70001, 3, 1 << 20, 12345]) {
  let at = 0
  let i = 0
  while (at < data.length) {
    const n = Math.min(sizes[i++ % sizes.length] as number, data.length - at)
    const wait = hasher.update(data.subarray(at, at + n))
    if (wait) await wait
    at += n
  }
}

describe('stream hasher', () => {
  it('hashes a small upload in this thread', async () => {
    const data = crypto.randomBytes(100_000)
    const hasher = new StreamHasher()
    await feed(hasher, data)
    expect(await hasher.digest()).toEqual(expected(data))
  })

  it('hashes an empty upload', async () => {
    expect(await new StreamHasher().digest()).toEqual(expected(Buffer.alloc(0)))
  })

  it('hashes a large upload in the hashing threads, through several turns of its ring', async () => {
    // Past the inline limit, over two and a half turns of the ring, ending in a partly filled slot.
    const data = crypto.randomBytes(Math.floor(2.5 * HASH_RING_BYTES) + 777)
    const hasher = new StreamHasher()
    await feed(hasher, data)
    expect(await hasher.digest()).toEqual(expected(data))
  })

  it('uses the rings of finished uploads again, and their hashes stay right', async () => {
    // Made per upload, rings were freed late or never (the threads hold a view of each).
    const before = ringStats().made
    for (let round = 0; round < 6; round++) {
      const uploads = Array.from({ length: 3 }, () => crypto.randomBytes(INLINE_HASH_BYTES + 3 * 1024 * 1024 + round))
      const hashers = uploads.map(() => new StreamHasher())
      await Promise.all(uploads.map((data, i) => feed(hashers[i] as StreamHasher, data)))
      const digests = await Promise.all(hashers.map((h) => h.digest()))
      expect(digests).toEqual(uploads.map((u) => expected(u)))
    }
    // 18 uploads, at most three at once: three rings at most were made for them.
    expect(ringStats().made - before).toBeLessThanOrEqual(3)
    expect(ringStats().free).toBeGreaterThanOrEqual(3)
  })

  it('hashes an upload that just passes the inline limit', async () => {
    const data = crypto.randomBytes(INLINE_HASH_BYTES + 1)
    const hasher = new StreamHasher()
    await feed(hasher, data, [INLINE_HASH_BYTES, 1])
    expect(await hasher.digest()).toEqual(expected(data))
  })

  it('keeps uploads hashed at the same time apart', async () => {
    const a = crypto.randomBytes(6 * 1024 * 1024)
    const b = crypto.randomBytes(5 * 1024 * 1024 + 3)
    const ha = new StreamHasher()
    const hb = new StreamHasher()
    await Promise.all([feed(ha, a), feed(hb, b, [4096, 999_999])])
    const [da, db] = await Promise.all([ha.digest(), hb.digest()])
    expect(da).toEqual(expected(a))
    expect(db).toEqual(expected(b))
  })

  it('refuses more data and its digests once abandoned, and goes on serving other uploads', async () => {
    const data = crypto.randomBytes(3 * 1024 * 1024)
    const dropped = new StreamHasher()
    await feed(dropped, data)
    dropped.dispose()
    await expect(dropped.update(Buffer.from('more')) as Promise<void>).rejects.toThrow(/abandoned/)
    await expect(dropped.digest()).rejects.toThrow(/abandoned/)
    const next = new StreamHasher()
    await feed(next, data)
    expect(await next.digest()).toEqual(expected(data))
  })

  it('leaves sha1 and md5 for later past DEFER_PAST_BYTES, unless one was declared', async () => {
    const exact = crypto.randomBytes(DEFER_PAST_BYTES)
    const whole = new StreamHasher()
    await feed(whole, exact, [1 << 20, 3 << 20])
    expect(await whole.digest()).toEqual(expected(exact))

    const data = Buffer.concat([exact, crypto.randomBytes(5 * 1024 * 1024 + 11)])
    const sums = expected(data)
    const later = new StreamHasher()
    await feed(later, data, [1 << 20, 3 << 20, 4097])
    expect(await later.digest()).toEqual({ sha256: sums.sha256, sha1: '', md5: '' })

    // sha1 and md5 share a thread: declaring one has both computed.
    const declaredSha1 = new StreamHasher(['sha1'])
    await feed(declaredSha1, data, [1 << 20, 3 << 20])
    expect(await declaredSha1.digest()).toEqual(sums)

    const declaredBoth = new StreamHasher(['md5', 'sha1'])
    await feed(declaredBoth, data, [1 << 20, 3 << 20])
    expect(await declaredBoth.digest()).toEqual(sums)
  })

  it('hashes sha1 and md5 alone for a file whose sha256 is known, small or large', async () => {
    for (const size of [1000, Math.floor(1.5 * HASH_RING_BYTES) + 5]) {
      const data = crypto.randomBytes(size)
      const hasher = new StreamHasher(['sha1', 'md5'], { sha256: false })
      await feed(hasher, data)
      const { sha1, md5 } = expected(data)
      expect(await hasher.digest()).toEqual({ sha256: '', sha1, md5 })
    }
  })

  it('counts as a large transfer in progress while its data flows past the inline size', async () => {
    const hasher = new StreamHasher()
    await feed(hasher, crypto.randomBytes(INLINE_HASH_BYTES))
    expect(quietFor(0)).toBe(true)
    await feed(hasher, crypto.randomBytes(3 * 1024 * 1024))
    expect(quietFor(0)).toBe(false)
    // Between two requests of a chunked upload.
    hasher.paused()
    expect(quietFor(0)).toBe(true)
    await feed(hasher, crypto.randomBytes(1024))
    expect(quietFor(0)).toBe(false)
    await hasher.digest()
    expect(quietFor(0)).toBe(true)
  })

  it('gives its digests once', async () => {
    const hasher = new StreamHasher()
    hasher.update(Buffer.from('x'))
    await hasher.digest()
    await expect(hasher.digest()).rejects.toThrow(/already/)
  })
})
