import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

interface Answer {
  status: number
  type?: string
  body: string
}

/** An upstream registry that answers what the test sets per path, and counts what it is asked. */
class Upstream {
  readonly answers = new Map<string, Answer>()
  readonly hits = new Map<string, number>()
  readonly headers: http.IncomingHttpHeaders[] = []
  private readonly server = http.createServer((req, res) => {
    const path = req.url ?? ''
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1)
    this.headers.push(req.headers)
    const answer = this.answers.get(path) ?? { status: 404, body: 'not found' }
    res.writeHead(answer.status, { 'content-type': answer.type ?? 'text/plain' })
    res.end(answer.body)
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

const PYPI_JSON = 'application/vnd.pypi.simple.v1+json'
const pypiPage = (name: string, files: string[]) =>
  JSON.stringify({
    meta: { 'api-version': '1.0' },
    name,
    files: files.map((filename) => ({ filename, url: `../../packages/${filename}`, hashes: { sha256: 'a'.repeat(64) } })),
  })

describe('documents of a remote repository’s upstream', () => {
  let t: TestApp
  let admin: Session
  const upstream = new Upstream()

  beforeAll(async () => {
    await upstream.start()
    t = await createTestApp()
    admin = await signIn(t.fastify)
    // Metadata always fetched again (lifetime 0), misses remembered for a minute.
    const cache = { retrievalCachePeriodSecs: 0, missedRetrievalCachePeriodSecs: 60, username: 'mirror', password: 's3cret' }
    await createRepo(t.fastify, admin, 'py-remote', {
      rclass: 'remote',
      packageType: 'pypi',
      url: `${upstream.url}/pypi/simple`,
      ...cache,
    })
    for (const [type, url] of [
      ['go', `${upstream.url}/go`],
      ['cargo', `${upstream.url}/cargo/index`],
    ]) {
      await createRepo(t.fastify, admin, `${type}-remote`, { rclass: 'remote', packageType: type, url, ...cache })
      await createRepo(t.fastify, admin, `${type}-virtual`, {
        rclass: 'virtual',
        packageType: type,
        repositories: [`${type}-remote`],
      })
    }
    await createRepo(t.fastify, admin, 'npm-remote', {
      rclass: 'remote',
      packageType: 'npm',
      url: `${upstream.url}/npm`,
      ...cache,
    })
  })

  afterAll(async () => {
    await t?.close()
    await upstream.stop()
  })

  const get = (url: string, accept = '*/*') =>
    t.fastify.inject({ method: 'GET', url, headers: { ...sessionHeaders(admin), accept } })
  const projectPage = (name: string) => get(`/api/pypi/py-remote/simple/${name}/`, PYPI_JSON)

  it('asks the upstream with the repository’s credentials, and answers a stale copy while the upstream fails', async () => {
    upstream.answers.set('/pypi/simple/demo/', {
      status: 200,
      type: PYPI_JSON,
      body: pypiPage('demo', ['demo-1.0-py3-none-any.whl']),
    })
    const fresh = await projectPage('demo')
    expect(fresh.statusCode).toBe(200)
    expect(fresh.json().files.map((f: { filename: string }) => f.filename)).toEqual(['demo-1.0-py3-none-any.whl'])
    const sent = upstream.headers.at(-1)
    expect(sent?.authorization).toBe(`Basic ${Buffer.from('mirror:s3cret').toString('base64')}`)
    expect(sent?.['user-agent']).toMatch(/^Trove\//)
    expect(sent?.accept).toContain(PYPI_JSON)

    upstream.answers.set('/pypi/simple/demo/', { status: 503, body: 'down for maintenance' })
    const stale = await projectPage('demo')
    expect(upstream.hits.get('/pypi/simple/demo/')).toBe(2)
    expect(stale.statusCode).toBe(200)
    expect(stale.json().files.map((f: { filename: string }) => f.filename)).toEqual(['demo-1.0-py3-none-any.whl'])
  })

  it('remembers a miss for the missed cache lifetime', async () => {
    expect((await projectPage('absent')).statusCode).toBe(404)
    expect((await projectPage('absent')).statusCode).toBe(404)
    expect(upstream.hits.get('/pypi/simple/absent/')).toBe(1)
    const row = await t.app.db.kysely
      .selectFrom('remote_cache')
      .selectAll()
      .where('repo_key', '=', 'py-remote')
      .where('path', '=', 'simple/absent/')
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 404, sha256: null })
  })

  it('answers from its copy without asking the upstream while offline', async () => {
    upstream.answers.set('/pypi/simple/demo/', {
      status: 200,
      type: PYPI_JSON,
      body: pypiPage('demo', ['demo-2.0-py3-none-any.whl']),
    })
    const update = await t.fastify.inject({
      method: 'POST',
      url: '/api/repositories/py-remote',
      headers: sessionHeaders(admin),
      payload: { offline: true },
    })
    expect(update.statusCode).toBe(200)
    const before = upstream.hits.get('/pypi/simple/demo/')
    const offline = await projectPage('demo')
    expect(offline.statusCode).toBe(200)
    expect(offline.json().files.map((f: { filename: string }) => f.filename)).toEqual(['demo-1.0-py3-none-any.whl'])
    expect(upstream.hits.get('/pypi/simple/demo/')).toBe(before)
  })

  it('answers 502 for an upstream error without a copy, and for a document it cannot read; keeps nothing of either', async () => {
    upstream.answers.set('/npm/broken', { status: 500, body: 'internal error' })
    const failed = await get('/api/npm/npm-remote/broken', 'application/json')
    expect(failed.statusCode).toBe(502)
    expect(failed.json().error).toMatch(/The upstream of npm-remote answered 500 for broken/)

    upstream.answers.set('/npm/garbled', { status: 200, type: 'application/json', body: '<html>not a packument</html>' })
    const garbled = await get('/api/npm/npm-remote/garbled', 'application/json')
    expect(garbled.statusCode).toBe(502)
    expect(garbled.json().error).toMatch(/not JSON/)

    const rows = await t.app.db.kysely.selectFrom('remote_cache').select('path').where('repo_key', '=', 'npm-remote').execute()
    expect(rows).toEqual([])
  })

  it('serves a fetched packument with its tarball links pointing at the remote repository', async () => {
    const packument = {
      name: 'left-pad',
      'dist-tags': { latest: '1.3.0' },
      versions: {
        '1.3.0': { name: 'left-pad', version: '1.3.0', dist: { tarball: `${upstream.url}/npm/left-pad/-/left-pad-1.3.0.tgz` } },
      },
    }
    upstream.answers.set('/npm/left-pad', { status: 200, type: 'application/json', body: JSON.stringify(packument) })
    const res = await get('/api/npm/npm-remote/left-pad', 'application/json')
    expect(res.statusCode).toBe(200)
    expect(res.json().versions['1.3.0'].dist.tarball).toMatch(/\/api\/npm\/npm-remote\/left-pad\/-\/left-pad-1\.3\.0\.tgz$/)
    expect(upstream.hits.get('/npm/left-pad')).toBe(1)
  })

  it('answers Go’s and Cargo’s index from the upstream each time when the retrieval period is 0, through a virtual too', async () => {
    const crate = (vers: string) =>
      JSON.stringify({ name: 'fresh', vers, deps: [], cksum: 'a'.repeat(64), features: {}, yanked: false })
    upstream.answers.set('/go/example.com/fresh/@v/list', { status: 200, body: 'v1.0.0\n' })
    upstream.answers.set('/cargo/index/fr/es/fresh', { status: 200, body: `${crate('1.0.0')}\n` })
    for (const repo of ['go-remote', 'go-virtual']) {
      expect((await get(`/api/go/${repo}/example.com/fresh/@v/list`)).body).toBe('v1.0.0\n')
    }
    for (const repo of ['cargo-remote', 'cargo-virtual']) {
      expect((await get(`/api/cargo/${repo}/index/fr/es/fresh`)).body).toContain('"vers":"1.0.0"')
    }
    // A new version upstream, within the 2 s a local repository's answers are kept.
    upstream.answers.set('/go/example.com/fresh/@v/list', { status: 200, body: 'v1.0.0\nv1.1.0\n' })
    upstream.answers.set('/cargo/index/fr/es/fresh', { status: 200, body: `${crate('1.0.0')}\n${crate('1.1.0')}\n` })
    for (const repo of ['go-remote', 'go-virtual']) {
      expect((await get(`/api/go/${repo}/example.com/fresh/@v/list`)).body).toBe('v1.0.0\nv1.1.0\n')
    }
    for (const repo of ['cargo-remote', 'cargo-virtual']) {
      expect((await get(`/api/cargo/${repo}/index/fr/es/fresh`)).body).toContain('"vers":"1.1.0"')
    }
  })
})
