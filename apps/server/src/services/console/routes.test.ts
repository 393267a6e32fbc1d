import fs from 'node:fs'
import path from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp, tempDir } from '../../../test/testApp.js'

let t: TestApp
const web = tempDir('trove-web-')
const INDEX = '<!doctype html><div id="root"></div><script type="module" src="/ui/assets/index-abc123.js"></script>'
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))})`

beforeAll(async () => {
  fs.mkdirSync(path.join(web, 'assets'))
  fs.writeFileSync(path.join(web, 'index.html'), INDEX)
  fs.writeFileSync(path.join(web, 'favicon.svg'), '<svg/>')
  fs.writeFileSync(path.join(web, 'assets', 'index-abc123.js'), SCRIPT)
  fs.writeFileSync(path.join(web, 'assets', 'index-abc123.js.br'), brotliCompressSync(SCRIPT))
  t = await createTestApp({ TROVE_WEB_DIR: web })
})
afterAll(() => t.close())

describe('the console', () => {
  it('is where / leads', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/' })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/ui/')
  })

  it.each(['/ui/', '/ui/login', '/ui/overview', '/ui/packages/npm%3A%2F%2Fleft-pad/1.3.0', '/ui/some/unknown/path?x=1'])(
    'answers the history-mode path %s with index.html, never cached',
    async (url) => {
      const res = await t.fastify.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toBe(INDEX)
    },
  )

  it('serves hashed assets cached for a year, precompressed when the client accepts it', async () => {
    const plain = await t.fastify.inject({ method: 'GET', url: '/ui/assets/index-abc123.js' })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(plain.body).toBe(SCRIPT)
    const br = await t.fastify.inject({ method: 'GET', url: '/ui/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } })
    expect(br.headers['content-encoding']).toBe('br')
  })

  it('serves other files without long caching', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/ui/favicon.svg' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('answers a missing asset with a real 404, so a failed chunk is seen as missing', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/ui/assets/gone-123.js' })
    expect(res.statusCode).toBe(404)
    expect(res.json().errors[0].status).toBe(404)
  })

  it('answers an unknown console API call with a JSON 404, not the page', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/ui/api/v1/unknown' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/application\/json/)
  })
})

describe('without a built console', () => {
  it('says how to build it', async () => {
    const bare = await createTestApp()
    try {
      const res = await bare.fastify.inject({ method: 'GET', url: '/ui/overview' })
      expect(res.statusCode).toBe(503)
      expect(res.body).toContain('npm run build')
    } finally {
      await bare.close()
    }
  })
})
