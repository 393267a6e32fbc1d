import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { allKept, beingKept } from '../kit/keepLater.js'

/**
 * A remote's first fetch of a tarball is answered from what the upstream sent and kept after
 * (kit/keepLater.ts): the client gets the upstream's bytes with the headers the stored copy will
 * have, the copy is stored and counted once, and a tarball whose bytes are not the packument's
 * is refused and never kept.
 */
describe('an npm remote answers a first fetch first and keeps it after', () => {
  let t: TestApp
  let admin: Session
  let url: string
  let upstream: http.Server
  const files = new Map<string, Buffer>()
  const asked = new Map<string, number>()
  let hold: Promise<void> | undefined
  const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('hex')
  const db = () => t.app.db.kysely

  const publish = (name: string, body: Buffer, shasum = sha1(body)) => {
    const file = `/${name}/-/${name}-1.0.0.tgz`
    files.set(file, body)
    files.set(
      `/${name}`,
      Buffer.from(
        JSON.stringify({
          name,
          'dist-tags': { latest: '1.0.0' },
          versions: { '1.0.0': { name, version: '1.0.0', dist: { tarball: `${url}${file}`, shasum } } },
        }),
      ),
    )
  }

  beforeAll(async () => {
    url = await new Promise<string>((resolve) => {
      upstream = http.createServer(async (req, res) => {
        asked.set(req.url ?? '', (asked.get(req.url ?? '') ?? 0) + 1)
        if (req.url?.endsWith('.tgz')) await hold
        const body = files.get(req.url ?? '')
        if (!body) return res.writeHead(404).end('{}')
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body)
      })
      upstream.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`))
    })
    t = await createTestApp()
    admin = await signIn(t.fastify)
    await createRepo(t.fastify, admin, 'npm-first', { rclass: 'remote', packageType: 'npm', url })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    upstream?.close()
  })

  const get = (path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.fastify.inject({ method, url: `/api/npm/npm-first/${path}`, headers: { ...sessionHeaders(admin), ...headers } })

  it('answers the upstream’s bytes with their sums, asks the upstream once however many ask, and counts one download each once kept', async () => {
    const body = crypto.randomBytes(40_000)
    publish('cold', body)
    let release = () => {}
    hold = new Promise((resolve) => {
      release = resolve
    })
    const answers = Promise.all([get('cold/-/cold-1.0.0.tgz'), get('cold/-/cold-1.0.0.tgz'), get('cold/-/cold-1.0.0.tgz')])
    await vi.waitFor(() => expect(asked.get('/cold/-/cold-1.0.0.tgz')).toBe(1))
    release()
    for (const res of await answers) {
      expect(res.statusCode, res.body).toBe(200)
      expect(res.rawPayload.equals(body)).toBe(true)
      expect(res.headers['content-length']).toBe(String(body.length))
      expect(res.headers['x-checksum-sha1']).toBe(sha1(body))
      expect(res.headers['x-checksum-sha256']).toBe(crypto.createHash('sha256').update(body).digest('hex'))
      expect(res.headers.etag).toBe(`"${sha1(body)}"`)
    }
    // While it is kept, a further request is answered from memory, not from the upstream.
    const again = await get('cold/-/cold-1.0.0.tgz')
    expect(again.rawPayload.equals(body)).toBe(true)
    await allKept()
    expect(beingKept('npm\0npm-first\0cold/-/cold-1.0.0.tgz')).toBeUndefined()
    expect(asked.get('/cold/-/cold-1.0.0.tgz')).toBe(1)

    const stored = await t.fastify.inject({ url: '/api/storage/npm-first/cold/-/cold-1.0.0.tgz', headers: sessionHeaders(admin) })
    expect(stored.statusCode, stored.body).toBe(200)
    expect(stored.json()).toMatchObject({ size: String(body.length), checksums: { sha1: sha1(body) } })
    // Counts are written in batches, within a second.
    await vi.waitFor(async () => {
      const row = await db()
        .selectFrom('files')
        .select('download_count')
        .where('repo_key', '=', 'npm-first')
        .where('path', '=', 'cold/-/cold-1.0.0.tgz')
        .executeTakeFirstOrThrow()
      expect(Number(row.download_count)).toBe(4)
    }, 3000)

    // Served from the stored copy now: the same bytes and headers.
    const warm = await get('cold/-/cold-1.0.0.tgz')
    expect(warm.rawPayload.equals(body)).toBe(true)
    expect(warm.headers.etag).toBe(`"${sha1(body)}"`)
    expect(asked.get('/cold/-/cold-1.0.0.tgz')).toBe(1)
  })

  it('answers a HEAD, a range and a revalidation of a first fetch from the stored copy', async () => {
    const body = crypto.randomBytes(10_000)
    publish('ranged', body)
    const head = await get('ranged/-/ranged-1.0.0.tgz', {}, 'HEAD')
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(String(body.length))
    await allKept()
    publish('ranged2', body)
    const range = await get('ranged2/-/ranged2-1.0.0.tgz', { range: 'bytes=0-99' })
    expect(range.statusCode).toBe(206)
    expect(range.rawPayload.equals(body.subarray(0, 100))).toBe(true)
    publish('revalidated', body)
    const revalidated = await get('revalidated/-/revalidated-1.0.0.tgz', { 'if-none-match': `"${sha1(body)}"` })
    expect(revalidated.statusCode).toBe(304)
  })

  it('refuses a tarball whose bytes are not the packument’s (502) and keeps nothing of it', async () => {
    const body = crypto.randomBytes(5_000)
    publish('tampered', body, sha1(Buffer.from('something else')))
    const res = await get('tampered/-/tampered-1.0.0.tgz')
    expect(res.statusCode).toBe(502)
    expect(res.json().errors[0].message).toMatch(/sha1/)
    await allKept()
    const stored = await t.fastify.inject({
      url: '/api/storage/npm-first/tampered/-/tampered-1.0.0.tgz',
      headers: sessionHeaders(admin),
    })
    expect(stored.statusCode).toBe(404)
    const rows = await db().selectFrom('files').select('id').where('path', 'like', 'tampered/%').execute()
    expect(rows).toEqual([])
  })
})
