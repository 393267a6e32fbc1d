import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { UPSTREAM_SOCKETS } from './upstreamFetch.js'

/**
 * Remote repositories and server-side request forgery: an upstream, or a redirect from it, that
 * leads to a link-local or metadata address (where cloud metadata services answer with
 * credentials) is refused, when the repository is saved and on every fetch. Loopback stays
 * allowed: every upstream here listens on 127.0.0.1.
 */
const METADATA = 'http://169.254.169.254/latest/meta-data'

/** An upstream that answers each path with a redirect or a body, and records what it was sent. */
class Upstream {
  readonly redirects = new Map<string, string>()
  readonly bodies = new Map<string, { type: string; body: string }>()
  readonly seen: { path: string; authorization?: string }[] = []
  private readonly server = http.createServer((req, res) => {
    const path = req.url ?? ''
    this.seen.push({ path, authorization: req.headers.authorization })
    const to = this.redirects.get(path)
    if (to) {
      res.writeHead(302, { location: to }).end()
      return
    }
    const found = this.bodies.get(path)
    if (found) res.writeHead(200, { 'content-type': found.type }).end(found.body)
    else res.writeHead(404).end('not found')
  })
  url = ''
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

let t: TestApp
let admin: Session
const upstream = new Upstream()
const other = new Upstream()

beforeAll(async () => {
  await upstream.start()
  await other.start()
  t = await createTestApp()
  admin = await signIn(t.fastify)
})
afterAll(async () => {
  await t.close()
  await upstream.stop()
  await other.stop()
})

const saveRepo = (key: string, body: Record<string, unknown>, method: 'PUT' | 'POST' = 'PUT') =>
  t.fastify.inject({ method, url: `/api/repositories/${key}`, headers: sessionHeaders(admin), payload: body })

describe('saving a remote repository', () => {
  it.each([
    ['http://169.254.169.254/', '169.254.169.254'],
    ['http://169.254.170.2/v2/credentials', '169.254.170.2'],
    ['http://[fe80::1]/', 'fe80::1'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    // The same metadata address, spelt as an IPv4-mapped IPv6 address and as one hexadecimal number.
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
    ['http://0xa9fea9fe/', '169.254.169.254'],
    ['http://0.0.0.0:8081/', '0.0.0.0'],
  ])('refuses the upstream %s with 400', async (url, address) => {
    const res = await saveRepo('ssrf-remote', { rclass: 'remote', packageType: 'generic', url })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toBe(`url: ${address} resolves to ${address}, a link-local or metadata address`)
  })

  it('refuses an upstream that is not http(s), or carries credentials in its URL', async () => {
    const ftp = await saveRepo('ssrf-remote', { rclass: 'remote', packageType: 'generic', url: 'file:///etc/passwd' })
    expect(ftp.statusCode).toBe(400)
    expect(ftp.json().errors[0].message).toMatch(/url/)
    const withCredentials = await saveRepo('ssrf-remote', {
      rclass: 'remote',
      packageType: 'generic',
      url: 'http://user:secret@127.0.0.1:1/',
    })
    expect(withCredentials.statusCode).toBe(400)
    expect(withCredentials.json().errors[0].message).toBe('url: credentials belong in the user name and token fields')
  })

  it('takes a loopback upstream, and refuses an update to a metadata address', async () => {
    await createRepo(t.fastify, admin, 'loop-remote', { rclass: 'remote', packageType: 'generic', url: upstream.url })
    const updated = await saveRepo('loop-remote', { url: METADATA }, 'POST')
    expect(updated.statusCode).toBe(400)
    expect(updated.json().errors[0].message).toMatch(/^url: 169\.254\.169\.254 resolves to .*link-local or metadata/)
    const kept = await t.fastify.inject({ url: '/api/repositories/loop-remote', headers: { cookie: admin.cookie } })
    expect(kept.json().url).toBe(upstream.url)
  })

  it('refuses a metadata address as a quick setup upstream', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/onboarding/quickSetup',
      headers: sessionHeaders(admin),
      payload: { packageTypes: ['npm'], upstreams: { npm: METADATA } },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/^url: 169\.254\.169\.254 resolves to .*link-local or metadata/)
  })
})

describe('fetching from an upstream', () => {
  it('refuses a redirect to a metadata address before asking it, with 502 naming the refusal', async () => {
    upstream.redirects.set('/files/a.txt', `${METADATA}/iam/security-credentials/`)
    await createRepo(t.fastify, admin, 'gen-remote', { rclass: 'remote', packageType: 'generic', url: `${upstream.url}/files` })
    const res = await t.fastify.inject({ url: '/artifactory/gen-remote/a.txt', headers: { cookie: admin.cookie } })
    expect(res.statusCode).toBe(502)
    expect(res.json().errors[0].message).toBe(
      'The upstream of gen-remote is refused: url: 169.254.169.254 resolves to 169.254.169.254, a link-local or metadata address',
    )
    expect(upstream.seen.map((s) => s.path)).toContain('/files/a.txt')
  })

  it('refuses an upstream stored before the check existed', async () => {
    await createRepo(t.fastify, admin, 'old-remote', { rclass: 'remote', packageType: 'generic', url: upstream.url })
    await t.app.db.kysely.updateTable('repositories').set({ url: METADATA }).where('key', '=', 'old-remote').execute()
    // A write through the API drops the node's repository cache; it leaves the stored URL as it is.
    expect((await saveRepo('old-remote', { description: 'stored earlier' }, 'POST')).statusCode).toBe(200)
    const res = await t.fastify.inject({ url: '/artifactory/old-remote/x.txt', headers: { cookie: admin.cookie } })
    expect(res.statusCode).toBe(502)
    expect(res.json().errors[0].message).toMatch(/^The upstream of old-remote is refused: url: 169\.254\.169\.254/)
  })

  it('follows a redirect to another loopback upstream, without the credentials meant for the first', async () => {
    upstream.redirects.set('/files/moved.txt', `${other.url}/elsewhere/moved.txt`)
    other.bodies.set('/elsewhere/moved.txt', { type: 'text/plain', body: 'moved here' })
    await createRepo(t.fastify, admin, 'cred-remote', {
      rclass: 'remote',
      packageType: 'generic',
      url: `${upstream.url}/files`,
      username: 'mirror',
      password: 's3cret',
    })
    const res = await t.fastify.inject({ url: '/artifactory/cred-remote/moved.txt', headers: { cookie: admin.cookie } })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('moved here')
    expect(upstream.seen.find((s) => s.path === '/files/moved.txt')?.authorization).toMatch(/^Basic /)
    expect(other.seen.find((s) => s.path === '/elsewhere/moved.txt')?.authorization).toBeUndefined()
  })

  it('refuses an npm packument that redirects to a metadata address', async () => {
    upstream.redirects.set('/npm/left-pad', `${METADATA}/`)
    await createRepo(t.fastify, admin, 'npm-remote', { rclass: 'remote', packageType: 'npm', url: `${upstream.url}/npm` })
    const res = await t.fastify.inject({ url: '/api/npm/npm-remote/left-pad', headers: { cookie: admin.cookie } })
    expect(res.statusCode).toBe(502)
    expect(res.json().errors[0].message).toMatch(/^The upstream of npm-remote is refused: url: 169\.254\.169\.254/)
  })

  it('sends an npm upstream’s credentials only to its own origin, not to a tarball URL elsewhere', async () => {
    const tarball = `${other.url}/tarballs/tiny-1.0.0.tgz`
    upstream.bodies.set('/npm2/tiny', {
      type: 'application/json',
      body: JSON.stringify({
        name: 'tiny',
        'dist-tags': { latest: '1.0.0' },
        versions: { '1.0.0': { name: 'tiny', version: '1.0.0', dist: { tarball } } },
      }),
    })
    await createRepo(t.fastify, admin, 'npm-cred', {
      rclass: 'remote',
      packageType: 'npm',
      url: `${upstream.url}/npm2`,
      username: 'mirror',
      password: 's3cret',
    })
    await t.fastify.inject({ url: '/api/npm/npm-cred/tiny/-/tiny-1.0.0.tgz', headers: { cookie: admin.cookie } })
    expect(upstream.seen.find((s) => s.path === '/npm2/tiny')?.authorization).toMatch(/^Basic /)
    const asked = other.seen.find((s) => s.path === '/tarballs/tiny-1.0.0.tgz')
    expect(asked).toBeDefined()
    expect(asked?.authorization).toBeUndefined()
  })

  it('refuses a Docker upstream whose token realm is a metadata address', async () => {
    const registry = http.createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': `Bearer realm="${METADATA}/token",service="registry"` }).end('{"errors":[]}')
    })
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve))
    try {
      const port = (registry.address() as AddressInfo).port
      await createRepo(t.fastify, admin, 'docker-remote', {
        rclass: 'remote',
        packageType: 'docker',
        url: `http://127.0.0.1:${port}`,
      })
      const res = await t.fastify.inject({
        url: '/v2/docker-remote/library/alpine/manifests/latest',
        headers: { authorization: `Basic ${Buffer.from(`admin:correct-horse-battery`).toString('base64')}` },
      })
      expect(res.statusCode).toBe(502)
      expect(res.json().errors[0].message).toMatch(/^The upstream of docker-remote is refused: url: 169\.254\.169\.254/)
    } finally {
      await new Promise<void>((resolve) => registry.close(() => resolve()))
    }
  })
})

/** An upstream that takes its time, and counts its connections and the requests for each path. */
class SlowUpstream {
  connections = 0
  readonly asked = new Map<string, number>()
  readonly bodies = new Map<string, { type: string; body: Buffer | string }>()
  private readonly server = http.createServer((req, res) => {
    const path = req.url ?? ''
    this.asked.set(path, (this.asked.get(path) ?? 0) + 1)
    setTimeout(() => {
      const found = this.bodies.get(path)
      if (found) res.writeHead(200, { 'content-type': found.type }).end(found.body)
      else res.writeHead(404).end('not found')
    }, 200)
  })
  url = ''
  async start() {
    this.server.on('connection', () => this.connections++)
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }
  stop() {
    this.server.closeAllConnections()
    return new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

describe('many clients, one upstream', () => {
  const slow = new SlowUpstream()
  beforeAll(() => slow.start())
  afterAll(() => slow.stop())

  it('fetches a file 60 clients miss at once from the upstream once, and every client gets it', async () => {
    slow.bodies.set('/big.bin', { type: 'application/octet-stream', body: Buffer.alloc(300_000, 7) })
    await createRepo(t.fastify, admin, 'generic-slow', { rclass: 'remote', packageType: 'generic', url: slow.url })
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        t.fastify.inject({ method: 'GET', url: '/artifactory/generic-slow/big.bin', headers: sessionHeaders(admin) }),
      ),
    )
    expect(answers.map((a) => a.statusCode)).toEqual(Array(60).fill(200))
    expect(answers.every((a) => a.rawPayload.length === 300_000)).toBe(true)
    expect(slow.asked.get('/big.bin')).toBe(1)
  })

  it('fetches an npm tarball 60 installs miss at once once, and its packument once', async () => {
    const packument = {
      name: 'slow-pkg',
      'dist-tags': { latest: '1.0.0' },
      versions: {
        '1.0.0': { name: 'slow-pkg', version: '1.0.0', dist: { tarball: `${slow.url}/slow-pkg/-/slow-pkg-1.0.0.tgz` } },
      },
    }
    slow.bodies.set('/slow-pkg', { type: 'application/json', body: JSON.stringify(packument) })
    slow.bodies.set('/slow-pkg/-/slow-pkg-1.0.0.tgz', { type: 'application/octet-stream', body: Buffer.alloc(50_000, 1) })
    await createRepo(t.fastify, admin, 'npm-slow', { rclass: 'remote', packageType: 'npm', url: slow.url })
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        t.fastify.inject({
          method: 'GET',
          url: '/api/npm/npm-slow/slow-pkg/-/slow-pkg-1.0.0.tgz',
          headers: sessionHeaders(admin),
        }),
      ),
    )
    expect(answers.map((a) => a.statusCode)).toEqual(Array(60).fill(200))
    expect(slow.asked.get('/slow-pkg/-/slow-pkg-1.0.0.tgz')).toBe(1)
    expect(slow.asked.get('/slow-pkg')).toBe(1)
  })

  it('keeps its connections to an upstream alive, and opens at most UPSTREAM_SOCKETS however many files are missed at once', async () => {
    for (let i = 0; i < 80; i++) slow.bodies.set(`/many/${i}.txt`, { type: 'text/plain', body: `file ${i}` })
    const before = slow.connections
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        t.fastify.inject({ method: 'GET', url: `/artifactory/generic-slow/many/${i}.txt`, headers: sessionHeaders(admin) }),
      ),
    )
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 80 }, (_, i) => `file ${i}`))
    expect(slow.connections - before).toBeLessThanOrEqual(UPSTREAM_SOCKETS)
    // One after another, the connections left open are used again.
    for (let i = 0; i < 10; i++) slow.bodies.set(`/seq/${i}.txt`, { type: 'text/plain', body: `file ${i}` })
    const opened = slow.connections
    for (let i = 0; i < 10; i++) {
      const res = await t.fastify.inject({
        method: 'GET',
        url: `/artifactory/generic-slow/seq/${i}.txt`,
        headers: sessionHeaders(admin),
      })
      expect(res.body).toBe(`file ${i}`)
    }
    expect(slow.connections).toBe(opened)
  })
})
