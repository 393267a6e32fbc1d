import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, skopeoPull, skopeoPush } from '../../test/clients.js'
import { writeOciImage } from '../../test/ociImage.js'
import { bucketKeys, s3Client, s3Env, startS3, stopS3 } from '../../test/s3.js'
import { ADMIN_PASSWORD, createTestApp, signIn, type TestApp, tempDir } from '../../test/testApp.js'
import { buildApp } from '../app.js'
import { BlobStore } from './blobStore.js'
import { ConfigError, loadConfig, type S3Settings } from './config.js'
import { BlobStoreUnavailable } from './errors.js'
import { bucketFault, S3Objects } from './s3Objects.js'

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/**
 * The requests `objects` sends through its two clients, in order: the test app's own store sweeps
 * the same bucket meanwhile, through clients of its own, whose requests are left out.
 */
function requestsOf(objects: S3Objects) {
  const spy = vi.spyOn(S3Client.prototype, 'send')
  const mine = new Set<unknown>([objects.client, objects.streamClient])
  return {
    get mock() {
      return { calls: spy.mock.calls.filter((_, i) => mine.has(spy.mock.contexts[i])) }
    },
    mockClear: () => spy.mockClear(),
    mockRestore: () => spy.mockRestore(),
  }
}

/**
 * Blobs in an S3-compatible bucket (s3rver, started here): uploads stream through multipart uploads
 * under a temp key and are copied under their sha256 once verified; downloads stream whole or by
 * range, large ones by a presigned redirect; the GC deletes objects; nothing of a blob is left on
 * the local disk; a misconfigured bucket stops the start; an object whose content is not its name
 * is never served; an upload cut by the server's restart leaves nothing, and its retry succeeds.
 */
describe('blobs in an S3-compatible bucket', () => {
  let s3dir: string
  let s3: Awaited<ReturnType<typeof startS3>>
  let t: TestApp
  let base: string
  let auth: { authorization: string }
  const env = (extra: Record<string, string> = {}) => s3Env(s3.endpoint, 'cluster-a', { TROVE_S3_PRESIGN_ABOVE: '30m', ...extra })
  const client = () => s3Client(s3.endpoint)
  const keys = () => bucketKeys(s3.endpoint)
  const put = (p: string, body: Buffer) =>
    fetch(`${base}/artifactory/files/${p}`, { method: 'PUT', headers: auth, body: new Uint8Array(body) })

  beforeAll(async () => {
    s3dir = tempDir('trove-s3-')
    s3 = await startS3(s3dir)
    t = await createTestApp(env())
    base = await listen(t.fastify)
    const admin = await signIn(t.fastify)
    auth = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
    await createRepo(t.fastify, admin, 'files', { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'go', { rclass: 'local', packageType: 'go' })
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    if (s3) await stopS3(s3.server)
    fs.rmSync(s3dir, { recursive: true, force: true })
  })

  it('streams an upload, of a known length or sent chunked, into the bucket and keeps it under its sha256; reads whole, by range and by redirect', async () => {
    const big = crypto.randomBytes(40 * 1024 * 1024 + 7)
    const small = Buffer.from('a small file\n')
    const chunked = crypto.randomBytes(40 * 1024 * 1024 + 9) // three 16 MB parts
    expect((await put('big.bin', big)).status).toBe(201)
    expect((await put('dir/small.txt', small)).status).toBe(201)
    // No Content-Length: sent chunked, as a client streaming what it makes.
    const stream = new ReadableStream({
      start(controller) {
        for (let at = 0; at < chunked.length; at += 1 << 20) controller.enqueue(chunked.subarray(at, at + (1 << 20)))
        controller.close()
      },
    })
    const streamed = await fetch(`${base}/artifactory/files/chunked.bin`, {
      method: 'PUT',
      headers: auth,
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(201)
    const blobKey = (h: string) => `cluster-a/blobs/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`
    expect(await keys()).toEqual([sha256(big), sha256(small), sha256(chunked)].map(blobKey).sort())
    // Nothing of the blobs on the local disk: no blob files, no temp files.
    const local = fs.readdirSync(path.join(t.dataDir, 'blobs'), { recursive: true }).map(String)
    expect(local.filter((f) => /[0-9a-f]{64}/.test(f))).toEqual([])
    expect(fs.readdirSync(path.join(t.dataDir, 'blobs', 'tmp'))).toEqual([])

    const whole = await fetch(`${base}/artifactory/files/dir/small.txt`, { headers: auth })
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(small)
    const range = await fetch(`${base}/artifactory/files/big.bin`, { headers: { ...auth, range: 'bytes=1000-1999999' } })
    expect(range.status).toBe(206)
    expect(Buffer.from(await range.arrayBuffer())).toEqual(big.subarray(1000, 2_000_000))
    // Over TROVE_S3_PRESIGN_ABOVE a client that reached Trove by another host name than the
    // bucket's (localhost; the bucket is at 127.0.0.1) is sent to the bucket with a presigned URL.
    const elsewhere = base.replace('127.0.0.1', 'localhost')
    const redirect = await fetch(`${elsewhere}/artifactory/files/big.bin`, { headers: auth, redirect: 'manual' })
    expect(redirect.status).toBe(302)
    const location = redirect.headers.get('location') as string
    expect(location.startsWith(`${s3.endpoint}/trove/cluster-a/blobs/`)).toBe(true)
    expect(sha256(Buffer.from(await (await fetch(location)).arrayBuffer()))).toBe(sha256(big))
    // One on the bucket's own host would send its credentials along: it is served the file.
    const sameHost = await fetch(`${base}/artifactory/files/big.bin`, { headers: auth, redirect: 'manual' })
    expect(sameHost.status).toBe(200)
    expect(sha256(Buffer.from(await sameHost.arrayBuffer()))).toBe(sha256(big))
  }, 60_000)

  it('sends a registry client to the bucket for a large blob when the bucket is on another host, and streams it, checked, when not', async () => {
    const registry = (method: string, url: string, body?: Buffer, at = base) =>
      fetch(`${at}${url}`, {
        method,
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        ...(body ? { body: new Uint8Array(body) } : {}),
        redirect: 'manual',
      })
    const elsewhere = base.replace('127.0.0.1', 'localhost')
    const large = crypto.randomBytes(31 * 1024 * 1024)
    const small = crypto.randomBytes(200_000)
    for (const blob of [large, small]) {
      expect((await registry('POST', `/v2/docker-local/app/blobs/uploads/?digest=sha256:${sha256(blob)}`, blob)).status).toBe(201)
      const res = await registry('GET', `/v2/docker-local/app/blobs/sha256:${sha256(blob)}`)
      expect(res.status).toBe(200)
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(blob))
    }
    const redirect = await registry('GET', `/v2/docker-local/app/blobs/sha256:${sha256(large)}`, undefined, elsewhere)
    expect(redirect.status).toBe(307)
    const location = redirect.headers.get('location') as string
    expect(location.startsWith(`${s3.endpoint}/trove/cluster-a/blobs/`)).toBe(true)
    // Read without Trove's token, as a client following the redirect to another host does.
    expect(sha256(Buffer.from(await (await fetch(location)).arrayBuffer()))).toBe(sha256(large))
    const below = await registry('GET', `/v2/docker-local/app/blobs/sha256:${sha256(small)}`, undefined, elsewhere)
    expect(below.status).toBe(200)
    expect(sha256(Buffer.from(await below.arrayBuffer()))).toBe(sha256(small))
    const head = await registry('HEAD', `/v2/docker-local/app/blobs/sha256:${sha256(large)}`)
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(large.length))
  })

  it('skopeo follows the redirect to a bucket on another host without its token, and is streamed the layer where the bucket shares its host', async () => {
    const work = tempDir('trove-oci-')
    const direct = vi.spyOn(BlobStore.prototype, 'directUrl')
    try {
      // Random text gzips to about three quarters: a layer over the 30 MB of TROVE_S3_PRESIGN_ABOVE.
      const image = writeOciImage(work, { content: crypto.randomBytes(32 * 1024 * 1024).toString('base64'), tag: '1.0' })
      expect(image.layer.length).toBeGreaterThan(30 * 1024 * 1024)
      const pushed = await skopeoPush(
        work,
        image.layout,
        `docker://${base.replace('http://', '')}/docker-local/large:1.0`,
        `admin:${ADMIN_PASSWORD}`,
      )
      expect(pushed.code).toBe(0)
      // A clean pull of the image from Trove reached at `host`: the layer arrives whole.
      const pullsWhole = async (host: string, into: string) => {
        const pulled = await skopeoPull(
          work,
          `docker://${host}/docker-local/large:1.0`,
          path.join(work, into),
          `admin:${ADMIN_PASSWORD}`,
        )
        expect(pulled.stderr).toBe('')
        expect(pulled.code).toBe(0)
        expect(sha256(fs.readFileSync(path.join(work, into, 'blobs', 'sha256', sha256(image.layer))))).toBe(sha256(image.layer))
      }
      // Trove reached as localhost, the bucket at 127.0.0.1: the layer comes from the bucket.
      await pullsWhole(base.replace('http://127.0.0.1', 'localhost'), 'back')
      const urls = await Promise.all(direct.mock.results.map((r) => r.value as Promise<string | undefined>))
      expect(urls.filter((u) => u?.startsWith(`${s3.endpoint}/trove/cluster-a/blobs/`))).toHaveLength(1)
      // Reached at the bucket's own host name the layer is streamed: Go clients since 1.22 (skopeo 1.18,
      // not Debian 12's) send their token along on such a redirect, and the bucket refuses it.
      await pullsWhole(base.replace('http://', ''), 'again')
    } finally {
      direct.mockRestore()
      fs.rmSync(work, { recursive: true, force: true })
    }
  }, 120_000)

  it('reads archives a format needs as files through the spool (a Go module zip), and frees objects by GC', async () => {
    const { zipOf } = await import('../../test/zip.js')
    const zip = zipOf([
      { name: 'example.com/s3@v1.0.0/go.mod', data: Buffer.from('module example.com/s3\n') },
      { name: 'example.com/s3@v1.0.0/s3.go', data: Buffer.from('package s3\n') },
    ])
    const res = await fetch(`${base}/api/go/go/example.com/s3/@v/v1.0.0.zip`, {
      method: 'PUT',
      headers: auth,
      body: new Uint8Array(zip),
    })
    expect(res.status).toBe(201)
    const mod = await fetch(`${base}/api/go/go/example.com/s3/@v/v1.0.0.mod`, { headers: auth })
    expect(await mod.text()).toBe('module example.com/s3\n')
    const gone = await fetch(`${base}/artifactory/files/dir/small.txt`, { method: 'DELETE', headers: auth })
    expect(gone.status).toBe(204)
    const gc = await fetch(`${base}/api/system/storage/gc?graceSeconds=0`, { method: 'POST', headers: auth })
    expect(gc.status).toBe(200)
    expect((await keys()).some((k) => k.endsWith(sha256(Buffer.from('a small file\n'))))).toBe(false)
  }, 60_000)

  it('never serves an object whose content is not its name', async () => {
    const data = Buffer.from('the real content\n'.repeat(1000))
    expect((await put('tampered.txt', data)).status).toBe(201)
    const h = sha256(data)
    const c = client()
    await c.send(
      new PutObjectCommand({ Bucket: 'trove', Key: `cluster-a/blobs/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}`, Body: 'other' }),
    )
    c.destroy()
    const res = await fetch(`${base}/artifactory/files/tampered.txt`, { headers: auth })
    expect(res.status).toBe(500)
    expect(await res.text()).toMatch(/holds other content/)
    // The integrity check reports it.
    const doctor = await fetch(`${base}/api/system/doctor`, { method: 'POST', headers: auth })
    const report = (await doctor.json()) as { ok: boolean; corrupt: { sha256: string }[] }
    expect(report.ok).toBe(false)
    expect(report.corrupt.map((c) => c.sha256)).toEqual([h])
  })

  it('answers an upload or a read while the bucket server is down with 503 naming the blob store and keeps nothing; takes it once the server is back', async () => {
    const data = crypto.randomBytes(20 * 1024 * 1024)
    expect((await put('there.bin', Buffer.from('stored before'))).status).toBe(201)
    await stopS3(s3.server)
    try {
      for (const refused of [
        await put('down.bin', data),
        await fetch(`${base}/artifactory/files/there.bin`, { headers: auth }),
        // A registry upload answers in the registry's own error shape (code UNSUPPORTED, as for any 5xx).
        await fetch(`${base}/v2/docker-local/down/blobs/uploads/?digest=sha256:${sha256(data)}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: new Uint8Array(data),
        }),
      ]) {
        expect(refused.status).toBe(503)
        expect(refused.headers.get('retry-after')).toBe('5')
        expect(JSON.stringify(await refused.json())).toContain('The blob store is unavailable')
      }
    } finally {
      s3 = await startS3(s3dir, s3.port)
    }
    expect((await fetch(`${base}/artifactory/files/down.bin`, { headers: auth })).status).toBe(404)
    expect((await keys()).filter((k) => k.includes('/tmp/'))).toEqual([])
    expect((await put('down.bin', data)).status).toBe(201)
    const back = await fetch(`${base}/artifactory/files/down.bin`, { headers: auth })
    expect(sha256(Buffer.from(await back.arrayBuffer()))).toBe(sha256(data))
  }, 120_000)

  it('fails a request the bucket server takes and never answers, as the blob store being unavailable', async () => {
    // Accepts, reads, says nothing (a stalled service, a network that drops the answers).
    const sockets: net.Socket[] = []
    const silent = net.createServer((socket) => {
      sockets.push(socket)
      socket.resume()
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const endpoint = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`
    const objects = new S3Objects({ ...(t.config.repositories.s3 as S3Settings), endpoint }, 300)
    try {
      await expect(objects.size(objects.blobKey('0'.repeat(64)))).rejects.toBeInstanceOf(BlobStoreUnavailable)
      await expect(objects.upload(objects.tempKey('silent'), Readable.from([Buffer.alloc(1000)]), 1000)).rejects.toBeInstanceOf(
        BlobStoreUnavailable,
      )
      expect(sockets.length).toBeGreaterThan(0)
    } finally {
      objects.destroy()
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  }, 30_000)

  it('fails an upload the bucket server was killed and restarted in the middle of, keeps nothing of it, and takes its retry', async () => {
    const objects = new S3Objects(t.config.repositories.s3 as S3Settings)
    const store = new BlobStore(tempDir(), t.app.db.kysely, 1 << 30, undefined, 'restart', objects)
    try {
      const data = crypto.randomBytes(48 * 1024 * 1024)
      const body = new PassThrough()
      const put = store.put(body).then(
        () => 'stored',
        (error: Error) => error.message,
      )
      const write = async (from: number, to: number) => {
        for (let at = from; at < to; at += 1 << 20) {
          if (!body.write(data.subarray(at, at + (1 << 20)))) await new Promise((r) => body.once('drain', r))
        }
      }
      await write(0, 20 * 1024 * 1024)
      await stopS3(s3.server)
      s3 = await startS3(s3dir, s3.port)
      await write(20 * 1024 * 1024, data.length)
      body.end()
      expect(await put).not.toBe('stored')
      expect(await objects.size(objects.blobKey(sha256(data)))).toBeUndefined()
      expect((await keys()).filter((k) => k.includes('/tmp/'))).toEqual([])
      expect((await store.put(data)).sha256).toBe(sha256(data))
      expect(await objects.size(objects.blobKey(sha256(data)))).toBe(data.length)
    } finally {
      await store.close()
      objects.destroy()
    }
  }, 120_000)

  it('puts a small body straight under its sha256, in one request it sends again when the connection is cut', async () => {
    // In front of the bucket: cuts the connection of the first PUT as it arrives (a connection the
    // service closed as the client reused it).
    let cut = 0
    const proxy = net.createServer((client) => {
      const upstream = net.connect(s3.port, '127.0.0.1')
      client.on('error', () => upstream.destroy())
      upstream.on('error', () => client.destroy())
      upstream.pipe(client)
      client.on('data', (chunk: Buffer) => {
        if (cut === 0 && chunk.toString('latin1').startsWith('PUT ')) {
          cut++
          client.destroy()
          upstream.destroy()
        } else upstream.write(chunk)
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const endpoint = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`
    const objects = new S3Objects({ ...(t.config.repositories.s3 as S3Settings), endpoint })
    const store = new BlobStore(tempDir(), t.app.db.kysely, 1 << 30, undefined, 'small', objects)
    const send = requestsOf(objects)
    try {
      const data = crypto.randomBytes(64 * 1024)
      const md5 = crypto.createHash('md5').update(data).digest('hex')
      const info = await store.put(Readable.from([data]), { md5 }, { length: data.length })
      expect(info).toMatchObject({ sha256: sha256(data), md5, size: data.length })
      expect(cut).toBe(1)
      expect(send.mock.calls.map(([command]) => command.constructor.name)).toEqual(['HeadObjectCommand', 'PutObjectCommand'])
      expect(sha256(await objects.readBuffer(objects.blobKey(sha256(data))))).toBe(sha256(data))
      expect((await keys()).filter((k) => k.includes('/tmp/'))).toEqual([])
      // Content already stored is not sent again; a declared checksum that does not match keeps nothing.
      send.mockClear()
      await store.put(data)
      expect(send.mock.calls.map(([command]) => command.constructor.name)).toEqual(['HeadObjectCommand'])
      const other = crypto.randomBytes(1000)
      await expect(store.put(other, { sha256: '0'.repeat(64) })).rejects.toThrow('sha256')
      expect(await objects.size(objects.blobKey(sha256(other)))).toBeUndefined()
      // A body that ends short of its length keeps nothing either.
      await expect(store.put(Readable.from([other]), {}, { length: 2000 })).rejects.toThrow(
        'the body ended after 1000 of its 2000 bytes',
      )
      expect(await objects.size(objects.blobKey(sha256(other)))).toBeUndefined()
    } finally {
      send.mockRestore()
      await store.close()
      objects.destroy()
      proxy.close()
    }
  })

  it('sends a body of known length in one request, else in parts; fails at once, keeping nothing, one that ends short of its length or breaks off', async () => {
    const objects = new S3Objects(t.config.repositories.s3 as S3Settings)
    // Which requests the uploads make.
    const send = requestsOf(objects)
    const requests = () => send.mock.calls.map(([command]) => command.constructor.name)
    // The payload hash each request went out with, signed: the parts' are not computed (UNSIGNED-PAYLOAD).
    const payloads: string[] = []
    objects.client.middlewareStack.add(
      (next, context) => async (args) => {
        const headers = (args.request as { headers: Record<string, string> }).headers
        payloads.push(`${context.commandName} ${headers['x-amz-content-sha256']}`)
        return next(args)
      },
      { step: 'deserialize', name: 'payloadSeen' },
    )
    try {
      const data = crypto.randomBytes(40 * 1024 * 1024 + 3)
      const [one, parts] = [objects.tempKey('one'), objects.tempKey('parts')]
      await objects.upload(one, Readable.from([data]), data.length)
      expect(requests()).toEqual(['PutObjectCommand'])
      send.mockClear()
      await objects.upload(parts, Readable.from([data]))
      expect(requests()).toEqual([
        'CreateMultipartUploadCommand',
        'UploadPartCommand',
        'UploadPartCommand',
        'UploadPartCommand',
        'CompleteMultipartUploadCommand',
      ])
      expect(payloads.filter((p) => p.startsWith('UploadPart'))).toEqual(Array(3).fill('UploadPartCommand UNSIGNED-PAYLOAD'))
      expect(payloads.find((p) => p.startsWith('Complete'))).toMatch(/^CompleteMultipartUploadCommand [0-9a-f]{64}$/)
      send.mockRestore()
      for (const key of [one, parts]) {
        expect(sha256(await objects.readBuffer(key))).toBe(sha256(data))
        await objects.delete(key)
      }
      const short = objects.tempKey('short')
      await expect(objects.upload(short, Readable.from([Buffer.alloc(50)]), 100)).rejects.toThrow(
        'the body ended after 50 of its 100 bytes',
      )
      const broken = new PassThrough()
      const sent = objects.upload(objects.tempKey('broken'), broken, 1 << 20)
      broken.write(Buffer.alloc(1000))
      setTimeout(() => broken.destroy(new Error('the client went away')), 50)
      await expect(sent).rejects.toThrow()
      expect((await keys()).filter((k) => k.includes('/tmp/'))).toEqual([])
    } finally {
      send.mockRestore()
      objects.destroy()
    }
  })

  it('stops the start on a misconfigured bucket, naming the setting', async () => {
    const start = (extra: Record<string, string>) =>
      buildApp(
        loadConfig({
          TROVE_DATA_DIR: tempDir(),
          TROVE_LOG_STDOUT: 'false',
          TROVE_ADMIN_PASSWORD: 'admin-password-1',
          ...env(extra),
        }),
      )
    // The test server checks the key id (not the signature): an unknown one is refused.
    await expect(start({ TROVE_S3_ACCESS_KEY_ID: 'nobody' })).rejects.toThrow(
      /TROVE_S3_ACCESS_KEY_ID, TROVE_S3_SECRET_ACCESS_KEY: .* refused/,
    )
    await expect(start({ TROVE_BLOB_STORE: 's3://no-such-bucket' })).rejects.toThrow(
      /TROVE_BLOB_STORE: the bucket no-such-bucket .* does not exist/,
    )
    await expect(start({ TROVE_S3_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(ConfigError)
    await expect(start({ TROVE_S3_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(/TROVE_S3_ENDPOINT: .* cannot be reached/)
    expect(() => loadConfig({ TROVE_DATA_DIR: tempDir(), TROVE_BLOB_STORE: 'gs://x' })).toThrow(/TROVE_BLOB_STORE/)
  }, 60_000)
})

describe("the bucket's failures", () => {
  const answered = (status: number, name: string) =>
    new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } })
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' })

  it('are the blob store being unavailable when it cannot be reached, times out or answers 5xx; others stay as they are', () => {
    for (const error of [
      refused,
      new AggregateError([refused], 'connect failed'),
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      Object.assign(new Error('timed out'), { name: 'TimeoutError' }),
      answered(503, 'SlowDown'),
      answered(500, 'InternalError'),
    ]) {
      expect(bucketFault(error)).toBeInstanceOf(BlobStoreUnavailable)
    }
    for (const error of [
      answered(403, 'AccessDenied'),
      answered(404, 'NoSuchKey'),
      new Error('the body ended after 3 of its 5 bytes'),
    ]) {
      expect(bucketFault(error)).toBe(error)
    }
  })
})
