import crypto from 'node:crypto'
import fs from 'node:fs'
import http_ from 'node:http'
import path from 'node:path'
import { Readable } from 'node:stream'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, skopeoPull, skopeoPush } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { bucketKeys, s3Client, s3Env, startS3, stopS3 } from '../../../test/s3.js'
import { ADMIN_PASSWORD, createTestApp, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { type App, buildApp } from '../../app.js'
import { BlobStore } from '../../core/blobStore.js'
import { loadConfig, type S3Settings } from '../../core/config.js'
import { S3Objects } from '../../core/s3Objects.js'
import { BucketUploads } from './bucketUploads.js'
import { DAY_MS } from './uploads.js'

const codeOf = async (res: Response) => ((await res.json()) as { errors: { code: string }[] }).errors[0]?.code
const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')
const octets = { 'content-type': 'application/octet-stream' }

/** Sets back the time s3rver gives as the objects' LastModified (their files' mtime), for keys containing `fragment`. */
function ageObjects(s3dir: string, fragment: string, ms: number): number {
  const when = new Date(Date.now() - ms)
  let aged = 0
  for (const name of fs.readdirSync(s3dir, { recursive: true }).map(String)) {
    if (!name.includes(fragment) || !name.endsWith('._S3rver_object')) continue
    fs.utimesSync(path.join(s3dir, name), when, when)
    aged++
  }
  return aged
}

/**
 * Two nodes on one database and one bucket, each with a data dir of its own (nothing shared on
 * disk; on SQLite the second node's database file is a link to the first's): a chunked upload's
 * requests may reach either node, one request at a time writes it, a wrong digest stores nothing,
 * a cancelled, broken or forgotten upload leaves no object behind, and skopeo pushes and pulls.
 */
describe('chunked registry uploads with the blobs in a bucket, across nodes without a shared data dir', () => {
  let s3dir: string
  let s3: Awaited<ReturnType<typeof startS3>>
  let a: TestApp
  let b: App
  let dirB: string
  let work: string
  const base = { a: '', b: '' }
  let token: string

  const http = (node: 'a' | 'b', method: string, url: string, body?: Buffer, headers: Record<string, string> = {}) =>
    fetch(`${base[node]}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(body !== undefined ? { body: new Uint8Array(body) } : {}),
      redirect: 'manual',
    })
  const tmpKeys = async () => (await bucketKeys(s3.endpoint)).filter((k) => k.startsWith('shared/tmp/'))
  const uploadKeys = async (id: string) => (await tmpKeys()).filter((k) => k.startsWith(`shared/tmp/upload-${id}/`))
  const db = () => a.app.db.kysely
  const start = async (node: 'a' | 'b', image: string) => {
    const res = await http(node, 'POST', `/v2/docker-local/${image}/blobs/uploads/`)
    expect(res.status).toBe(202)
    return { id: res.headers.get('docker-upload-uuid') as string, location: res.headers.get('location') as string }
  }

  beforeAll(async () => {
    s3dir = tempDir('trove-s3-')
    s3 = await startS3(s3dir)
    // Nodes without a shared data dir share the master key (their registry tokens, sealed secrets).
    const masterKey = crypto.randomBytes(32).toString('base64')
    a = await createTestApp({ ...s3Env(s3.endpoint, 'shared'), TROVE_NODE_ID: 'node-a', TROVE_MASTER_KEY: masterKey })
    dirB = tempDir('trove-node-b-')
    // SQLite: the one database file, seen from the second node's own data dir.
    if (!a.config.databaseUrl) fs.symlinkSync(path.join(a.dataDir, 'trove.db'), path.join(dirB, 'trove.db'))
    b = await buildApp(
      loadConfig({
        TROVE_DATA_DIR: dirB,
        TROVE_DATABASE_URL: a.config.databaseUrl,
        TROVE_LOG_STDOUT: 'false',
        TROVE_WEB_DIR: path.join(dirB, 'no-console'),
        TROVE_NODE_ID: 'node-b',
        // The repository alone, as on the test apps (a scanner would write beside what is checked).
        TROVE_MODULES: 'repository',
        TROVE_MASTER_KEY: masterKey,
        ...s3Env(s3.endpoint, 'shared'),
      }),
    )
    await b.fastify.ready()
    base.a = await listen(a.fastify)
    base.b = await listen(b.fastify)
    const admin = await signIn(a.fastify)
    token = await accessToken(a.fastify, admin)
    await createRepo(a.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    work = tempDir('trove-oci-')
  }, 60_000)
  afterAll(async () => {
    try {
      await b?.close()
      await a?.close()
    } finally {
      // The bucket server is a process of its own: it stops whatever the apps did.
      if (s3) await stopS3(s3.server)
      for (const dir of [s3dir, dirB, work]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('takes a chunked upload whose requests alternate between the nodes, and serves the blob from either', async () => {
    // The first chunk takes two parts of a multipart upload (16 MB each).
    const data = crypto.randomBytes(20 * 1024 * 1024 + 300_000)
    const [first, second] = [20 * 1024 * 1024, 20 * 1024 * 1024 + 200_000]
    const { id, location } = await start('a', 'across')
    expect(location).toBe(`/v2/docker-local/across/blobs/uploads/${id}`)

    const patched = await http('b', 'PATCH', location, data.subarray(0, first), { ...octets, 'content-range': `0-${first - 1}` })
    expect(patched.status).toBe(202)
    expect(patched.headers.get('range')).toBe(`0-${first - 1}`)
    expect(patched.headers.get('docker-upload-uuid')).toBe(id)
    expect(patched.headers.get('location')).toBe(location)
    const again = await http('a', 'PATCH', location, data.subarray(first, second), {
      ...octets,
      'content-range': `${first}-${second - 1}`,
    })
    expect(again.status).toBe(202)
    expect(again.headers.get('range')).toBe(`0-${second - 1}`)
    // A chunk that does not start where the upload stands: 416, as on one node.
    const skipped = await http('b', 'PATCH', location, Buffer.from('x'), { ...octets, 'content-range': '5-5' })
    expect(skipped.status).toBe(416)
    expect(skipped.headers.get('range')).toBe(`0-${second - 1}`)
    expect(await codeOf(skipped)).toBe('BLOB_UPLOAD_INVALID')
    // An empty chunk adds nothing, not even an object.
    const empty = await http('b', 'PATCH', location, Buffer.alloc(0), octets)
    expect(empty.status).toBe(202)
    const status = await http('b', 'GET', location)
    expect(status.status).toBe(204)
    expect(status.headers.get('range')).toBe(`0-${second - 1}`)

    // Each chunk is an object of its own in the bucket and a row; nothing on either node's disk.
    expect(await uploadKeys(id)).toHaveLength(2)
    const chunks = await db()
      .selectFrom('registry_upload_chunks')
      .selectAll()
      .where('upload_id', '=', id)
      .orderBy('byte_offset')
      .execute()
    expect(chunks.map((c) => [c.byte_offset, c.size])).toEqual([
      [0, first],
      [first, second - first],
    ])
    for (const dir of [a.dataDir, dirB]) expect(fs.readdirSync(path.join(dir, 'blobs', 'tmp'))).toEqual([])

    const digest = `sha256:${sha256(data)}`
    const done = await http('b', 'PUT', `${location}?digest=${digest}`, data.subarray(second), octets)
    expect(done.status).toBe(201)
    expect(done.headers.get('docker-content-digest')).toBe(digest)
    expect(done.headers.get('location')).toBe(`/v2/docker-local/across/blobs/${digest}`)

    const got = await http('a', 'GET', `/v2/docker-local/across/blobs/${digest}`)
    expect(got.status).toBe(200)
    expect(got.headers.get('docker-content-digest')).toBe(digest)
    expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(data))
    const row = await db().selectFrom('blobs').selectAll().where('sha256', '=', sha256(data)).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ size: data.length, md5: crypto.createHash('md5').update(data).digest('hex') })
    // The upload is gone: its objects, its rows.
    expect(await tmpKeys()).toEqual([])
    expect(await db().selectFrom('registry_uploads').selectAll().where('id', '=', id).execute()).toEqual([])
    expect(await db().selectFrom('registry_upload_chunks').selectAll().where('upload_id', '=', id).execute()).toEqual([])
    expect((await http('a', 'GET', location)).status).toBe(404)
  }, 120_000)

  it('keeps an upload of one chunk by copying its object within the bucket, hashed as it streamed; reads back only an upload of several', async () => {
    const objects = new S3Objects(a.config.repositories.s3 as S3Settings)
    const store = new BlobStore(tempDir(), db(), 1 << 30, undefined, 'direct', objects)
    const uploads = new BucketUploads(store, db(), 'direct')
    const reads = vi.spyOn(objects, 'read')
    const upload = async (image: string, chunks: Buffer[], digest = sha256(Buffer.concat(chunks))) => {
      const id = await uploads.create('docker-local', image)
      const held = await uploads.hold(id, 'docker-local', image)
      try {
        for (const chunk of chunks) await held.append(Readable.from([chunk]), 1 << 30)
        const rows = await db().selectFrom('registry_upload_chunks').selectAll().where('upload_id', '=', id).execute()
        // Each chunk's own checksums, taken as it streamed.
        expect(rows.map((r) => r.sha256)).toEqual(chunks.map((c) => sha256(c)))
        expect(rows.map((r) => r.md5)).toEqual(chunks.map((c) => crypto.createHash('md5').update(c).digest('hex')))
        return await held.finish(digest)
      } finally {
        await held.release()
      }
    }
    try {
      const one = crypto.randomBytes(3 * 1024 * 1024)
      const info = await upload('one-chunk', [one])
      expect(info).toEqual({
        sha256: sha256(one),
        sha1: crypto.createHash('sha1').update(one).digest('hex'),
        md5: crypto.createHash('md5').update(one).digest('hex'),
        size: one.length,
      })
      // Not read back: the object was copied in the bucket.
      expect(reads).not.toHaveBeenCalled()
      expect(sha256(await objects.readBuffer(objects.blobKey(sha256(one))))).toBe(sha256(one))
      expect(await db().selectFrom('blobs').selectAll().where('sha256', '=', sha256(one)).executeTakeFirst()).toMatchObject({
        sha1: info.sha1,
        md5: info.md5,
        size: one.length,
      })
      reads.mockClear()
      const parts = [crypto.randomBytes(100_000), crypto.randomBytes(50_000)]
      expect((await upload('two-chunks', parts)).sha256).toBe(sha256(Buffer.concat(parts)))
      expect(reads).toHaveBeenCalledTimes(2)
      // A one-chunk upload under another digest keeps nothing.
      const other = crypto.randomBytes(1000)
      await expect(upload('wrong-one', [other], sha256('not it')).catch((e) => e)).resolves.toMatchObject({ status: 400 })
      expect(await objects.exists(objects.blobKey(sha256(other)))).toBe(false)
      expect(await tmpKeys()).toEqual([])
    } finally {
      reads.mockRestore()
      uploads.close()
      await store.close()
    }
  })

  it('lets one request of any node write an upload at a time: a concurrent chunk on the other node gets 416', async () => {
    const data = crypto.randomBytes(2 * 1024 * 1024)
    const { location } = await start('b', 'one-at-a-time')
    // A chunk still streaming into node a holds the upload.
    let finishFirst: () => void = () => {}
    const first = new Promise<number>((resolve, reject) => {
      const req = http_.request(
        `${base.a}${location}`,
        {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, ...octets, 'content-length': String(data.length) },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.write(data.subarray(0, 1024 * 1024))
      finishFirst = () => req.end(data.subarray(1024 * 1024))
    })
    try {
      await new Promise((r) => setTimeout(r, 300))
      const second = await http('b', 'PATCH', location, Buffer.from('other'), octets)
      expect(second.status).toBe(416)
      expect(await codeOf(second)).toBe('BLOB_UPLOAD_INVALID')
      const cancel = await http('b', 'DELETE', location)
      expect(cancel.status).toBe(416)
      const status = await http('b', 'GET', location)
      expect(status.status).toBe(204)
    } finally {
      // Ended whatever the checks said, so that the apps can close.
      finishFirst()
    }
    expect(await first).toBe(202)
    const done = await http('b', 'PUT', `${location}?digest=sha256:${sha256(data)}`)
    expect(done.status).toBe(201)
    const blob = await http('b', 'GET', `/v2/docker-local/one-at-a-time/blobs/sha256:${sha256(data)}`)
    expect(Buffer.from(await blob.arrayBuffer()).equals(data)).toBe(true)
  }, 60_000)

  it('refuses a wrong digest on PUT and keeps nothing: no blob, no temp object, no upload', async () => {
    const { location } = await start('a', 'wrong')
    expect((await http('b', 'PATCH', location, Buffer.from('some bytes'), octets)).status).toBe(202)
    const wrong = await http('a', 'PUT', `${location}?digest=sha256:${sha256('other bytes')}`, Buffer.from(' and more'), octets)
    expect(wrong.status).toBe(400)
    const body = (await wrong.json()) as { errors: { code: string; message: string }[] }
    expect(body.errors[0]?.code).toBe('DIGEST_INVALID')
    expect(body.errors[0]?.message).toBe(
      `The upload's digest is sha256:${sha256('some bytes and more')}, not sha256:${sha256('other bytes')}`,
    )
    expect((await http('b', 'HEAD', `/v2/docker-local/wrong/blobs/sha256:${sha256('some bytes and more')}`)).status).toBe(404)
    const keys = await bucketKeys(s3.endpoint)
    expect(keys.filter((k) => k.startsWith('shared/tmp/'))).toEqual([])
    expect(keys.some((k) => k.endsWith(sha256('some bytes and more')))).toBe(false)
    const after = await http('b', 'GET', location)
    expect(after.status).toBe(404)
    expect(await codeOf(after)).toBe('BLOB_UPLOAD_UNKNOWN')
  })

  it('removes the chunk objects of a cancelled upload (DELETE), and of one whose chunk broke off', async () => {
    const { id, location } = await start('a', 'cancelled')
    expect((await http('a', 'PATCH', location, crypto.randomBytes(100_000), octets)).status).toBe(202)
    expect((await http('b', 'PATCH', location, crypto.randomBytes(100_000), octets)).status).toBe(202)
    expect(await uploadKeys(id)).toHaveLength(2)
    expect((await http('b', 'DELETE', location)).status).toBe(204)
    expect(await uploadKeys(id)).toEqual([])
    expect(await db().selectFrom('registry_upload_chunks').selectAll().where('upload_id', '=', id).execute()).toEqual([])
    const gone = await http('a', 'PATCH', location, Buffer.from('more'), octets)
    expect(gone.status).toBe(404)
    expect(await codeOf(gone)).toBe('BLOB_UPLOAD_UNKNOWN')

    // A chunk whose connection dies midway: the upload is unusable on every node, and goes.
    const cut = await start('a', 'cut')
    expect((await http('a', 'PATCH', cut.location, crypto.randomBytes(50_000), octets)).status).toBe(202)
    const big = crypto.randomBytes(3 * 1024 * 1024)
    await new Promise<void>((resolve) => {
      const req = http_.request(`${base.b}${cut.location}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, ...octets, 'content-length': String(big.length) },
      })
      req.on('error', () => resolve())
      req.write(big.subarray(0, big.length - 10), () => setTimeout(() => req.destroy(), 200))
    })
    // Node b marks it broken once the bucket has aborted what the chunk began.
    await vi.waitFor(async () => {
      const row = await db().selectFrom('registry_uploads').select('broken').where('id', '=', cut.id).executeTakeFirst()
      expect(row?.broken).toBe(1)
    })
    const after = await http('a', 'PATCH', cut.location, Buffer.from('more'), octets)
    expect(after.status).toBe(400)
    expect(await codeOf(after)).toBe('BLOB_UPLOAD_INVALID')
    expect((await http('b', 'GET', cut.location)).status).toBe(404)
    expect(await uploadKeys(cut.id)).toEqual([])
  })

  it('removes uploads idle for a day and objects of uploads that are gone, spares a live upload whatever its age, removes at start what a dead process held, and takes over a quiet hold', async () => {
    const objects = new S3Objects(a.config.repositories.s3 as S3Settings)
    const storeDir = tempDir()
    const store = new BlobStore(storeDir, db(), 1 << 30, undefined, 'sweeper', objects)
    const sweeper = new BucketUploads(store, db(), 'sweeper')
    try {
      const idle = await start('a', 'idle')
      expect((await http('b', 'PATCH', idle.location, Buffer.from('idle bytes'), octets)).status).toBe(202)
      await db()
        .updateTable('registry_uploads')
        .set({ touched_at: Date.now() - DAY_MS - 60_000 })
        .where('id', '=', idle.id)
        .execute()
      // A live upload whose first chunk is two days old, and an object whose upload is gone.
      const live = await start('b', 'live')
      const liveData = crypto.randomBytes(70_000)
      expect((await http('a', 'PATCH', live.location, liveData, octets)).status).toBe(202)
      const orphanId = crypto.randomUUID()
      const client = s3Client(s3.endpoint)
      await client.send(new PutObjectCommand({ Bucket: 'trove', Key: `shared/tmp/upload-${orphanId}/0-x`, Body: 'left' }))
      client.destroy()
      expect(ageObjects(s3dir, `upload-${live.id}`, 2 * DAY_MS)).toBe(1)
      expect(ageObjects(s3dir, `upload-${orphanId}`, 2 * DAY_MS)).toBe(1)

      // The blob store's GC leaves the objects of registry uploads to the registry.
      expect((await http('a', 'POST', '/api/system/storage/gc?graceSeconds=0')).status).toBe(200)
      expect(await uploadKeys(live.id)).toHaveLength(1)
      expect(await uploadKeys(orphanId)).toHaveLength(1)

      // (The nodes' own sweeps, once a minute, may come first: what counts is what is left.)
      await sweeper.sweep()
      expect(await uploadKeys(idle.id)).toEqual([])
      expect(await uploadKeys(orphanId)).toEqual([])
      expect((await http('b', 'GET', idle.location)).status).toBe(404)
      expect(await uploadKeys(live.id)).toHaveLength(1)
      const done = await http('b', 'PUT', `${live.location}?digest=sha256:${sha256(liveData)}`)
      expect(done.status).toBe(201)

      // Held by a process of node a that is no more: node a's next start removes it.
      const dead = await start('a', 'dead')
      expect((await http('a', 'PATCH', dead.location, Buffer.from('cut off'), octets)).status).toBe(202)
      await db()
        .updateTable('registry_uploads')
        .set({ holder: 'node-a/000000000000/111111111111', held_at: Date.now() })
        .where('id', '=', dead.id)
        .execute()
      expect((await http('b', 'PATCH', dead.location, Buffer.from('more'), octets)).status).toBe(416)
      const restarted = new BucketUploads(store, db(), 'node-a')
      try {
        expect(await restarted.recover()).toBe(1)
      } finally {
        restarted.close()
      }
      expect(await uploadKeys(dead.id)).toEqual([])
      expect((await http('b', 'GET', dead.location)).status).toBe(404)

      // Held by a request of another node that has not said it is writing for over 2 minutes: taken over.
      const quiet = await start('b', 'quiet')
      await db()
        .updateTable('registry_uploads')
        .set({ holder: 'node-c/000000000000/222222222222', held_at: Date.now() - 3 * 60_000 })
        .where('id', '=', quiet.id)
        .execute()
      const taken = await http('a', 'PATCH', quiet.location, Buffer.from('taken over'), octets)
      expect(taken.status).toBe(202)
      expect(taken.headers.get('range')).toBe('0-9')
      expect((await http('a', 'DELETE', quiet.location)).status).toBe(204)
      expect(await tmpKeys()).toEqual([])
    } finally {
      sweeper.close()
      await store.close()
      objects.destroy()
      fs.rmSync(storeDir, { recursive: true, force: true })
    }
  }, 60_000)

  it('skopeo pushes an image into one node and pulls it back from the other', async () => {
    const image = writeOciImage(work, { content: `hello from a bucket ${Date.now()}\n`, tag: '1.0' })
    const pushed = await skopeoPush(
      work,
      image.layout,
      `docker://${base.a.replace('http://', '')}/docker-local/hello:1.0`,
      `admin:${ADMIN_PASSWORD}`,
    )
    expect(pushed.stderr).toBe('')
    expect(pushed.code).toBe(0)
    expect(await tmpKeys()).toEqual([])

    const back = path.join(work, 'back')
    const pulled = await skopeoPull(
      work,
      `docker://${base.b.replace('http://', '')}/docker-local/hello:1.0`,
      back,
      `admin:${ADMIN_PASSWORD}`,
    )
    expect(pulled.stderr).toBe('')
    expect(pulled.code).toBe(0)
    expect(fs.readFileSync(path.join(back, 'blobs', 'sha256', sha256(image.layer)))).toEqual(image.layer)
    expect(fs.readFileSync(path.join(back, 'blobs', 'sha256', sha256(image.manifest)))).toEqual(image.manifest)
    expect(fs.readFileSync(path.join(back, 'blobs', 'sha256', sha256(image.config)))).toEqual(image.config)
  }, 120_000)
})
