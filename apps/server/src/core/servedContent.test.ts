import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, grantRepos } from '../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp } from '../../test/testApp.js'
import { ADMIN_API } from '../identity/access/testUsers.js'
import { FILE_CSP } from './servedContent.js'

/**
 * A file in a repository is someone's upload: whatever its type, a browser that opens it must not
 * run it in the console's origin (finding 1 of the security probe: a deploy-only user's evil.html
 * made an admin's visit promote them). The browser side of this is e2e/tests/servedContent.spec.ts.
 */
const ACTIVE: Record<string, string> = {
  'evil.html': '<script>alert(1)</script>',
  'evil.htm': '<script>alert(1)</script>',
  'evil.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
  'evil.xhtml': '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
  'evil.xml': '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>',
  'evil.js': 'alert(1)',
  'evil.mjs': 'alert(1)',
  'evil.pdf': '%PDF-1.4',
  'evil.swf': 'FWS',
  'evil.unknownext': '<script>alert(1)</script>',
  noextension: '<script>alert(1)</script>',
}
const INERT: Record<string, string> = { 'notes.txt': '<script>alert(1)</script>', 'logo.png': '\x89PNG' }

let t: TestApp
let admin: Session
let deployer: Session
const cookieOf = (s: Session) => ({ cookie: s.cookie })

beforeAll(async () => {
  t = await createTestApp({ TROVE_DOWNLOAD_BASE_URL: 'http://files.trove.test:8080' })
  admin = await signIn(t.fastify)
  await createRepo(t.fastify, admin, 'site', { rclass: 'local', packageType: 'generic' })
  await createRepo(t.fastify, admin, 'site-v', { rclass: 'virtual', packageType: 'generic', repositories: ['site'] })
  const created = await t.fastify.inject({
    method: 'POST',
    url: `${ADMIN_API}/users`,
    headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
    payload: { name: 'mallory', password: 'mallory-password-1', email: 'mallory@example.com' },
  })
  expect(created.statusCode).toBe(201)
  await grantRepos(t.fastify, admin, 'mallory-deploys', { repos: ['site'], user: 'mallory', actions: ['read', 'deploy'] })
  deployer = await signIn(t.fastify, 'mallory', 'mallory-password-1')
  for (const [name, body] of Object.entries({ ...ACTIVE, ...INERT })) {
    const res = await t.fastify.inject({
      method: 'PUT',
      url: `/artifactory/site/pages/${name}`,
      headers: { cookie: deployer.cookie, 'x-csrf-token': deployer.csrf },
      payload: Buffer.from(body, 'latin1'),
    })
    expect(res.statusCode, `${name}: ${res.body}`).toBe(201)
  }
})
afterAll(() => t.close())

/** Every way the console and clients fetch a stored file. */
const ways = (name: string) => [
  `/artifactory/site/pages/${name}`,
  `/artifactory/site-v/pages/${name}`,
  `/ui/api/v1/download?repoKey=site&path=pages/${name}`,
]

describe('stored files on the console’s origin', () => {
  it('go out as attachments, sandboxed and unsniffed, whatever type a browser would render actively', async () => {
    const wrong: string[] = []
    for (const name of Object.keys(ACTIVE)) {
      for (const url of ways(name)) {
        const res = await t.fastify.inject({ url, headers: cookieOf(admin) })
        if (res.statusCode !== 200) wrong.push(`${url} → ${res.statusCode}`)
        if (!String(res.headers['content-disposition']).startsWith('attachment;')) wrong.push(`${url}: not an attachment`)
        if (res.headers['content-security-policy'] !== FILE_CSP)
          wrong.push(`${url}: CSP ${res.headers['content-security-policy']}`)
        if (res.headers['x-content-type-options'] !== 'nosniff') wrong.push(`${url}: sniffable`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('name the file in the attachment, escaped', async () => {
    const res = await t.fastify.inject({ url: '/artifactory/site/pages/evil.html', headers: cookieOf(admin) })
    expect(res.headers['content-disposition']).toBe(`attachment; filename="evil.html"; filename*=UTF-8''evil.html`)
  })

  it('show inline only types that cannot run anything, still sandboxed', async () => {
    for (const name of Object.keys(INERT)) {
      const res = await t.fastify.inject({ url: `/artifactory/site/pages/${name}`, headers: cookieOf(admin) })
      expect(res.headers['content-disposition']).toBe('inline')
      expect(res.headers['content-security-policy']).toBe(FILE_CSP)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
    }
  })

  it('keep the sandbox on a range and on a HEAD', async () => {
    const range = await t.fastify.inject({
      url: '/artifactory/site/pages/evil.html',
      headers: { ...cookieOf(admin), range: 'bytes=0-3' },
    })
    expect(range.statusCode).toBe(206)
    const head = await t.fastify.inject({ method: 'HEAD', url: '/artifactory/site/pages/evil.svg', headers: cookieOf(admin) })
    for (const res of [range, head]) {
      expect(res.headers['content-disposition']).toMatch(/^attachment;/)
      expect(res.headers['content-security-policy']).toBe(FILE_CSP)
    }
  })

  it('are sandboxed wherever they are listed or described too: no answer but Trove’s pages may run script', async () => {
    for (const url of ['/artifactory/list/site/pages/', '/api/storage/site/pages/evil.html', '/artifactory/api/nope']) {
      const res = await t.fastify.inject({ url, headers: cookieOf(admin) })
      expect(res.headers['content-security-policy'], url).toBe(FILE_CSP)
    }
  })
})

describe('the console’s own page', () => {
  it('allows scripts only from the console’s folder, never from a repository path of the same origin', async () => {
    const res = await t.fastify.inject({ url: '/ui/packages', headers: { host: 'trove.test:8080' } })
    const csp = String(res.headers['content-security-policy'])
    const scripts = csp.split(';').find((d) => d.startsWith('script-src')) ?? ''
    const sources = scripts.split(' ').slice(1)
    expect(sources).toEqual([
      'trove.test:8080/ui/assets/',
      'trove.test:8080/ui/plugins/',
      'trove.test:8080/ui/demo/',
      'trove.test:8080/api/docs/static/',
      'trove.test:8080/metadata/api/v1/graphiql/',
    ])
    // The console's own download call sends stored files: no source may cover it.
    for (const path of ['/ui/api/v1/download', '/artifactory/site/pages/evil.js', '/api/npm/x/-/x.js']) {
      expect(
        sources.filter((s) => `trove.test:8080${path}`.startsWith(s)),
        path,
      ).toEqual([])
    }
  })

  it('the API reference is a page too (its scripts run), under its own path', async () => {
    const res = await t.fastify.inject({ url: '/api/docs/', headers: { host: 'trove.test:8080' } })
    expect(res.statusCode).toBe(200)
    expect(String(res.headers['content-security-policy'])).toContain('trove.test:8080/api/docs/static/')
  })
})

describe('the download origin (TROVE_DOWNLOAD_BASE_URL)', () => {
  const onFiles = { host: 'files.trove.test:8080' }
  it('shows files inline there, with scripts held in an opaque origin', async () => {
    const res = await t.fastify.inject({ url: '/artifactory/site/pages/evil.html', headers: onFiles })
    // Anonymous access is off: the download origin authorizes like any other.
    expect(res.statusCode).toBe(401)
    const token = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      payload: { expiresIn: 600 },
    })
    const shown = await t.fastify.inject({
      url: '/artifactory/site/pages/evil.html',
      headers: { ...onFiles, authorization: `Bearer ${token.json().access_token}` },
    })
    expect(shown.statusCode).toBe(200)
    expect(shown.headers['content-disposition']).toBe('inline')
    expect(String(shown.headers['content-security-policy'])).toMatch(/^sandbox allow-scripts/)
    expect(String(shown.headers['content-security-policy'])).not.toContain('allow-same-origin')
  })

  it('is where the console’s View link points, beside Download', async () => {
    const info = await t.fastify.inject({
      url: '/ui/api/v1/ui/artifacts/info?repoKey=site&path=pages/evil.html',
      headers: cookieOf(admin),
    })
    expect(info.statusCode).toBe(200)
    expect(info.json().viewUri).toBe('http://files.trove.test:8080/artifactory/site/pages/evil.html')
  })

  it('serves nothing else: no console, no sign-in, no change', async () => {
    for (const [method, url] of [
      ['GET', '/ui/'],
      ['GET', '/ui/packages'],
      ['POST', '/ui/api/v1/ui/auth/login'],
      ['PUT', '/artifactory/site/pages/x.html'],
      ['GET', '/access/api/v1/tokens'],
    ] as const) {
      const res = await t.fastify.inject({ method, url, headers: onFiles, payload: method === 'GET' ? undefined : {} })
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(res.json().errors[0].message).toBe('The download origin serves stored files only')
    }
  })
})
