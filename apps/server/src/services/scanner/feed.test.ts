import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import archiver from 'archiver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')

/** The feed's zip as osv.dev publishes one: a record per file, in one folder. */
async function feedZip(names: string[]): Promise<Buffer> {
  const archive = archiver('zip')
  const chunks: Buffer[] = []
  archive.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise((resolve, reject) => {
    archive.on('end', resolve)
    archive.on('error', reject)
  })
  for (const name of names) archive.file(path.join(FIXTURES, `${name}.json`), { name: `npm/${name}.json` })
  await archive.finalize()
  await done
  return Buffer.concat(chunks)
}

/** The advisory feed an administrator sets: synced on request and when due, hop by hop checked. */
describe('the advisory feed', () => {
  let t: TestApp
  let admin: Session
  let feed: http.Server
  let feedUrl: string
  let requests: string[]
  let zip: Buffer

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.fastify.inject({ method, url: `/ui/api/v1/xray/ui/admin/database${url}`, headers: sessionHeaders(admin), payload })

  beforeAll(async () => {
    zip = await feedZip(['GHSA-35jh-r3h4-6jhm', 'GHSA-xvch-5gv4-984h'])
    requests = []
    feed = http.createServer((req, res) => {
      requests.push(req.url ?? '')
      if (req.url === '/all.zip') res.writeHead(200, { 'content-type': 'application/zip' }).end(zip)
      else if (req.url === '/moved') res.writeHead(302, { location: '/all.zip' }).end()
      else if (req.url === '/metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
      else if (req.url === '/broken.json') res.writeHead(200, { 'content-type': 'application/json' }).end('[{"id": "X-1"}]')
      else res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve))
    feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    admin = await signIn(t.fastify)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await new Promise((resolve) => feed?.close(resolve))
  })

  it('has no feed on a new instance, so nothing is fetched', async () => {
    expect((await call('GET', '')).json().feed).toEqual({ url: '', intervalHours: 24 })
    const sync = await call('POST', '/sync')
    expect(sync.statusCode).toBe(400)
    expect(sync.json().errors[0].message).toMatch(/No advisory feed is set/)
    await t.app.scanner.syncIfDue()
    expect(requests).toEqual([])
  })

  it('refuses a feed URL that is not http(s)', async () => {
    const res = await call('PUT', '/feed', { url: 'file:///etc/passwd', intervalHours: 24 })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/url/)
  })

  it('syncs the feed on request, following a redirect, and records the import', async () => {
    expect((await call('PUT', '/feed', { url: `${feedUrl}/moved`, intervalHours: 6 })).statusCode).toBe(200)
    const sync = await call('POST', '/sync')
    expect(sync.statusCode, sync.body).toBe(200)
    expect(sync.json().records).toBe(2)
    expect(requests).toEqual(['/moved', '/all.zip'])
    const status = (await call('GET', '')).json()
    expect(status.advisories).toBe(2)
    expect(status.imports[0]).toMatchObject({ source: `${feedUrl}/moved`, state: 'done', records: 2 })
  })

  it('syncs again only when the interval has passed', async () => {
    requests.length = 0
    await t.app.scanner.syncIfDue()
    expect(requests).toEqual([])
    // The last sync, moved seven hours back: the six-hour interval has passed.
    await t.app.db.kysely
      .updateTable('advisory_imports')
      .set({ started_at: Date.now() - 7 * 3600_000 })
      .where('source', '=', `${feedUrl}/moved`)
      .execute()
    await t.app.scanner.syncIfDue()
    expect(requests).toEqual(['/moved', '/all.zip'])
  })

  it('refuses a redirect to a link-local (metadata) address before asking it', async () => {
    await call('PUT', '/feed', { url: `${feedUrl}/metadata`, intervalHours: 6 })
    const sync = await call('POST', '/sync')
    expect(sync.statusCode).toBe(400)
    expect(sync.json().errors[0].message).toMatch(/169\.254\.169\.254.*link-local or metadata/)
  })

  it('imports nothing from a feed with a malformed record, and says which', async () => {
    const before = (await call('GET', '')).json().advisories
    await call('PUT', '/feed', { url: `${feedUrl}/broken.json`, intervalHours: 6 })
    const sync = await call('POST', '/sync')
    expect(sync.statusCode).toBe(400)
    // The record is named by the feed's file, not by the temporary copy the server read.
    expect(sync.json().errors[0].message).toMatch(/X-1.*broken\.json|broken\.json.*X-1/)
    const after = (await call('GET', '')).json()
    expect(after.advisories).toBe(before)
    expect(after.imports[0]).toMatchObject({ source: `${feedUrl}/broken.json`, state: 'failed' })
  })

  it('answers 502 when the feed answers an error', async () => {
    await call('PUT', '/feed', { url: `${feedUrl}/gone.zip`, intervalHours: 6 })
    const sync = await call('POST', '/sync')
    expect(sync.statusCode).toBe(502)
    expect(sync.json().errors[0].message).toBe('The advisory feed answered 404')
  })
})
