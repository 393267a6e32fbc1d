import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import { BlobFileWriter, BlobStore, HOT_BLOB_MAX_BYTES, sendsCredentialsTo } from './blobStore.js'
import { LaterChecksums } from './laterChecksums.js'
import { DEFER_PAST_BYTES } from './streamHasher.js'
import { transferStarted } from './transfers.js'

const sha = (alg: string, data: string | Buffer) => crypto.createHash(alg).update(data).digest('hex')

describe('blob store', () => {
  let t: TestApp
  let store: BlobStore
  beforeAll(async () => {
    t = await createTestApp()
    store = new BlobStore(t.dataDir, t.app.db.kysely, 1024)
  })
  afterAll(async () => t.close())

  const tmpFiles = () => fs.readdirSync(path.join(t.dataDir, 'blobs', 'tmp'))

  it('stores content once under blobs/ab/cd/<sha256> with its three checksums', async () => {
    const data = 'hello blobs'
    const a = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('blobs')]))
    const b = await store.put(data)
    expect(a).toEqual({ sha256: sha('sha256', data), sha1: sha('sha1', data), md5: sha('md5', data), size: data.length })
    expect(b).toEqual(a)
    const file = path.join(t.dataDir, 'blobs', a.sha256.slice(0, 2), a.sha256.slice(2, 4), a.sha256)
    expect(fs.readFileSync(file, 'utf8')).toBe(data)
    const rows = await t.app.db.kysely.selectFrom('blobs').selectAll().where('sha256', '=', a.sha256).execute()
    expect(rows).toHaveLength(1)
    expect(tmpFiles()).toEqual([])
  })

  it('refuses content whose checksum differs from the declared one and keeps nothing', async () => {
    const data = 'tampered content'
    await expect(store.put(data, { sha1: sha('sha1', 'other') })).rejects.toMatchObject({ status: 400 })
    await expect(store.put(data, { sha256: sha('sha256', 'other') })).rejects.toMatchObject({ status: 400 })
    expect(fs.existsSync(store.pathOf(sha('sha256', data)))).toBe(false)
    expect(await store.info(sha('sha256', data))).toBeUndefined()
    expect(tmpFiles()).toEqual([])
  })

  it('refuses uploads over the size limit while streaming', async () => {
    const big = Buffer.alloc(2048, 1)
    await expect(store.put(Readable.from([big.subarray(0, 1000), big.subarray(1000)]))).rejects.toMatchObject({ status: 413 })
    expect(fs.existsSync(store.pathOf(sha('sha256', big)))).toBe(false)
    expect(tmpFiles()).toEqual([])
  })

  it('hashes large uploads in the hashing threads; one that breaks off or passes the limit keeps nothing', async () => {
    const large = new BlobStore(t.dataDir, t.app.db.kysely, 8 * 1024 * 1024)
    const data = crypto.randomBytes(6 * 1024 * 1024 + 5)
    const chunks = (buf: Buffer, size: number) =>
      Array.from({ length: Math.ceil(buf.length / size) }, (_, i) => buf.subarray(i * size, (i + 1) * size))
    const info = await large.put(Readable.from(chunks(data, 65536)))
    expect(info).toEqual({ sha256: sha('sha256', data), sha1: sha('sha1', data), md5: sha('md5', data), size: data.length })
    expect(fs.readFileSync(large.pathOf(info.sha256)).equals(data)).toBe(true)

    const other = crypto.randomBytes(5 * 1024 * 1024)
    async function* breaksOff() {
      yield* chunks(other.subarray(0, 3 * 1024 * 1024), 65536)
      throw new Error('connection reset')
    }
    await expect(large.put(Readable.from(breaksOff()))).rejects.toThrow('connection reset')
    const tooBig = Buffer.concat([other, other])
    await expect(large.put(Readable.from(chunks(tooBig, 1 << 20)))).rejects.toMatchObject({ status: 413 })
    await expect(large.put(Readable.from(chunks(other, 65536)), { sha256: sha('sha256', 'x') })).rejects.toMatchObject({
      status: 400,
    })
    for (const content of [other, tooBig]) expect(fs.existsSync(large.pathOf(sha('sha256', content)))).toBe(false)
    expect(tmpFiles()).toEqual([])
  })

  it('records the sha1 and md5 of a large upload after keeping it, and at once when asked', async () => {
    const large = new BlobStore(t.dataDir, t.app.db.kysely, 1024 ** 3)
    const data = crypto.randomBytes(DEFER_PAST_BYTES + 3 * 1024 * 1024 + 1)
    const sums = { sha1: sha('sha1', data), md5: sha('md5', data) }
    const chunks = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536))
    try {
      // Asked before the background thread got to it: computed here.
      const first = await large.put(Readable.from(chunks))
      expect(first).toEqual({ sha256: sha('sha256', data), sha1: '', md5: '', size: data.length })
      expect(await large.checksums(first)).toEqual(sums)
      expect(await large.info(first.sha256)).toEqual({ ...first, ...sums })
      // The same content stored again takes the recorded sums.
      expect(await large.put(Readable.from(chunks))).toEqual({ ...first, ...sums })

      // Left alone, the background thread records them, on the blob and on its files' rows.
      const other = Buffer.concat([data, Buffer.from('more')])
      const second = await large.put(Readable.from([other]))
      expect(second.sha1).toBe('')
      await t.app.db.kysely
        .insertInto('repositories')
        .values({ key: 'later-sums', rclass: 'local', package_type: 'generic', created_at: Date.now(), updated_at: Date.now() })
        .execute()
      await t.app.db.kysely
        .insertInto('files')
        .values({
          repo_key: 'later-sums',
          path: 'big.bin',
          name: 'big.bin',
          size: second.size,
          sha256: second.sha256,
          sha1: '',
          md5: '',
          mime_type: 'application/octet-stream',
          created_at: Date.now(),
          modified_at: Date.now(),
        })
        .execute()
      await large.later.idle()
      // A file row written after the sums were recorded is completed by the sweep.
      await large.later.sweep()
      const otherSums = { sha1: sha('sha1', other), md5: sha('md5', other) }
      expect(await large.info(second.sha256)).toEqual({ ...second, ...otherSums })
      const row = await t.app.db.kysely
        .selectFrom('files')
        .select(['sha1', 'md5'])
        .where('repo_key', '=', 'later-sums')
        .executeTakeFirst()
      expect(row).toEqual(otherSums)
      // With nothing missing, a sweep writes nothing (an update of no row still drops caches).
      const written: string[][] = []
      const stop = t.app.db.writes.on((tables) => written.push([...tables]))
      expect(await large.later.sweep()).toBe(0)
      stop()
      expect(written).toEqual([])
    } finally {
      await large.close()
    }
  })

  it('computes sums left for later only once the node has had no large transfer for a while', async () => {
    const large = new BlobStore(t.dataDir, t.app.db.kysely, 1024 ** 3)
    const data = crypto.randomBytes(DEFER_PAST_BYTES + 1024 * 1024)
    const info = await large.put(Readable.from([data.subarray(0, 1 << 20), data.subarray(1 << 20)]))
    await large.close()
    expect(info.sha1).toBe('')
    let recorded = 0
    const later = new LaterChecksums(
      t.app.db.kysely,
      async (h) => large.pathOf(h),
      () => recorded++,
      300,
    )
    const transfer = transferStarted()
    try {
      later.enqueue(info.sha256)
      await new Promise((r) => setTimeout(r, 900))
      expect((await large.info(info.sha256))?.sha1).toBe('')
      expect(recorded).toBe(0)
    } finally {
      transfer()
    }
    await later.idle()
    expect(recorded).toBe(1)
    expect(await large.info(info.sha256)).toEqual({ ...info, sha1: sha('sha1', data), md5: sha('md5', data) })
    await later.close()
  })

  it('closes only once the database work it started is done (the database closes next)', async () => {
    // A node stopped right after its start: the start's sweep was still querying.
    const later = new LaterChecksums(t.app.db.kysely, async (h) => path.join(t.dataDir, h))
    let swept = false
    const sweeping = later.sweep().then(() => {
      swept = true
    })
    await later.close()
    expect(swept).toBe(true)
    await sweeping
  })

  it('hashes a large upload whole when the client declared its sha1, and refuses a wrong one', async () => {
    const large = new BlobStore(t.dataDir, t.app.db.kysely, 1024 ** 3)
    const data = crypto.randomBytes(DEFER_PAST_BYTES + 2 * 1024 * 1024)
    const chunks = () =>
      Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536))
    try {
      await expect(large.put(Readable.from(chunks()), { sha1: sha('sha1', 'other') })).rejects.toMatchObject({ status: 400 })
      expect(await large.info(sha('sha256', data))).toBeUndefined()
      const info = await large.put(Readable.from(chunks()), { sha1: sha('sha1', data) })
      expect(info.sha1).toBe(sha('sha1', data))
      expect(tmpFiles()).toEqual([])
    } finally {
      await large.close()
    }
  })

  it('frees only blobs that nothing references, after the grace period', async () => {
    const db = t.app.db.kysely
    const kept = await store.put('referenced')
    const orphan = await store.put('orphan')
    const now = Date.now()
    await db
      .insertInto('repositories')
      .values({ key: 'gc-local', rclass: 'local', package_type: 'generic', created_at: now, updated_at: now })
      .execute()
    await db
      .insertInto('files')
      .values({
        repo_key: 'gc-local',
        path: 'a.txt',
        name: 'a.txt',
        size: kept.size,
        md5: kept.md5,
        sha1: kept.sha1,
        sha256: kept.sha256,
        mime_type: 'text/plain',
        created_at: now,
        modified_at: now,
      })
      .execute()
    // Within the grace period nothing goes.
    expect(await store.collectGarbage(60_000)).toBe(0)
    expect(await store.collectGarbage(0)).toBeGreaterThanOrEqual(1)
    expect(fs.existsSync(store.pathOf(orphan.sha256))).toBe(false)
    expect(await store.info(orphan.sha256)).toBeUndefined()
    expect(fs.existsSync(store.pathOf(kept.sha256))).toBe(true)
    // Deleting the last reference frees it on the next run.
    await db.deleteFrom('files').where('sha256', '=', kept.sha256).execute()
    expect(await store.collectGarbage(0)).toBe(1)
    expect(fs.existsSync(store.pathOf(kept.sha256))).toBe(false)
  })

  it('writes an upload of many chunks in order, appending to what an earlier chunk of the upload wrote', async () => {
    const file = path.join(t.dataDir, 'blobs', 'tmp', 'writer-test')
    const parts = Array.from({ length: 300 }, (_, i) => crypto.randomBytes(1 + ((i * 7919) % 70_000)))
    const { pipeline } = await import('node:stream/promises')
    await pipeline(Readable.from(parts.slice(0, 100)), new BlobFileWriter(file, 'wx'))
    await pipeline(Readable.from(parts.slice(100)), new BlobFileWriter(file, 'a'))
    expect(sha('sha256', fs.readFileSync(file))).toBe(sha('sha256', Buffer.concat(parts)))
    // 'wx' never overwrites.
    await expect(pipeline(Readable.from([Buffer.from('x')]), new BlobFileWriter(file, 'wx'))).rejects.toMatchObject({
      code: 'EEXIST',
    })
    fs.rmSync(file)
  })

  it('serves small blobs from memory and leaves large ones to streams', async () => {
    const big = new BlobStore(t.dataDir, t.app.db.kysely, 4 * HOT_BLOB_MAX_BYTES)
    const small = await big.put('small content')
    expect((await big.content(small.sha256, small.size))?.toString()).toBe('small content')
    // Read once, it is served from memory: the file is not read again.
    fs.renameSync(big.pathOf(small.sha256), `${big.pathOf(small.sha256)}.away`)
    expect((await big.content(small.sha256, small.size))?.toString()).toBe('small content')
    fs.renameSync(`${big.pathOf(small.sha256)}.away`, big.pathOf(small.sha256))
    const large = await big.put(crypto.randomBytes(HOT_BLOB_MAX_BYTES + 1))
    expect(await big.content(large.sha256, large.size)).toBeUndefined()
  })
})

describe('redirects to the bucket', () => {
  it('are withheld where the client would send its credentials along: the same host, or one under it', () => {
    expect(sendsCredentialsTo('trove.example.com', 'trove.example.com')).toBe(true)
    expect(sendsCredentialsTo('Example.COM', 'bucket.example.com.')).toBe(true)
    expect(sendsCredentialsTo('127.0.0.1', '127.0.0.1')).toBe(true)
    expect(sendsCredentialsTo('[::1]', '::1')).toBe(true)
    expect(sendsCredentialsTo('trove.example.com', 'example.com')).toBe(false)
    expect(sendsCredentialsTo('trove.example.com', 's3.amazonaws.com')).toBe(false)
    expect(sendsCredentialsTo('example.com', 'notexample.com')).toBe(false)
    expect(sendsCredentialsTo('localhost', '127.0.0.1')).toBe(false)
  })
})
