import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, npmPublishBody } from '../../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp } from '../../../test/testApp.js'

/**
 * Package clients revalidate what they cached: every format's metadata answer carries a validator,
 * and a request that names it is answered 304 without the body, until the metadata changes.
 */
let t: TestApp
let admin: Session
let bearer: Record<string, string>

beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  bearer = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
  await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
  await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
  await createRepo(t.fastify, admin, 'helm-local', { rclass: 'local', packageType: 'helm' })
  await createRepo(t.fastify, admin, 'generic-local', { rclass: 'local', packageType: 'generic' })
})
afterAll(() => t.close())

const get = (url: string, headers: Record<string, string> = {}) =>
  t.fastify.inject({ method: 'GET', url, headers: { ...bearer, ...headers } })

async function publish(version: string) {
  const { body } = await npmPublishBody('http://localhost', 'npm-local', {
    name: 'revalidated',
    version,
    description: 'x'.repeat(2000),
  })
  const res = await t.fastify.inject({ method: 'PUT', url: '/api/npm/npm-local/revalidated', headers: bearer, payload: body })
  expect(res.statusCode).toBe(201)
}

describe('metadata validators', () => {
  it('answers 304 to a packument request naming its ETag, and a new ETag once a version is published', async () => {
    await publish('1.0.0')
    const first = await get('/api/npm/npm-local/revalidated')
    expect(first.statusCode).toBe(200)
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/"[\w-]+"$/)
    expect(first.headers['cache-control']).toBe('private, no-cache')
    const again = await get('/api/npm/npm-local/revalidated', { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    // A compressed answer is revalidated by its own validator.
    const brotli = await get('/api/npm/npm-local/revalidated', { 'accept-encoding': 'br' })
    expect(brotli.headers['content-encoding']).toBe('br')
    const brEtag = brotli.headers.etag as string
    expect(brEtag).toMatch(/^W\/"/)
    const brAgain = await get('/api/npm/npm-local/revalidated', { 'accept-encoding': 'br', 'if-none-match': brEtag })
    expect(brAgain.statusCode).toBe(304)
    expect(brAgain.rawPayload.length).toBe(0)
    // A list of validators, one of them current; and `*`.
    expect((await get('/api/npm/npm-local/revalidated', { 'if-none-match': `"stale", ${etag}` })).statusCode).toBe(304)
    expect((await get('/api/npm/npm-local/revalidated', { 'if-none-match': '*' })).statusCode).toBe(304)

    await publish('1.1.0')
    const changed = await get('/api/npm/npm-local/revalidated', { 'if-none-match': etag })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers.etag).not.toBe(etag)
    expect((JSON.parse(changed.body) as { versions: Record<string, unknown> }).versions).toHaveProperty('1.1.0')
  })

  it('validates PyPI simple pages and Helm indexes the same way', async () => {
    for (const url of ['/api/pypi/pypi-local/simple/', '/artifactory/api/helm/helm-local/index.yaml']) {
      const first = await get(url)
      expect(first.statusCode, url).toBe(200)
      const etag = first.headers.etag as string
      expect(etag, url).toBeTruthy()
      expect((await get(url, { 'if-none-match': etag })).statusCode, url).toBe(304)
      expect((await get(url, { 'if-none-match': 'W/"other"' })).statusCode, url).toBe(200)
    }
  })

  it('leaves a stored file its own ETag and answers 304 for it', async () => {
    const put = await t.fastify.inject({
      method: 'PUT',
      url: '/artifactory/generic-local/a/file.txt',
      headers: bearer,
      payload: 'content',
    })
    expect(put.statusCode).toBe(201)
    const first = await get('/artifactory/generic-local/a/file.txt')
    const etag = first.headers.etag as string
    expect(etag).toBeTruthy()
    expect((await get('/artifactory/generic-local/a/file.txt', { 'if-none-match': etag })).statusCode).toBe(304)
  })
})
