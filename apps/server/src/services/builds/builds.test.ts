import crypto from 'node:crypto'
import { BUILDS_PATHS } from '@trove/contracts/builds'
import { CONSOLE_API_BASE } from '@trove/contracts/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { ADMIN_API, userWithToken } from '../../identity/access/testUsers.js'
import { diffModules, modulesOf, propertiesOf, runStatus } from './buildInfoDoc.js'

const hash = (algorithm: string, data: string) => crypto.createHash(algorithm).update(data).digest('hex')
const sums = (data: string) => ({ sha1: hash('sha1', data), sha256: hash('sha256', data), md5: hash('md5', data) })
const api = (path: string) => `${CONSOLE_API_BASE}${path}`

/** The Builds screens' calls against stored build info, files deployed for real and real permissions. */
describe('builds screens', () => {
  let t: TestApp
  let admin: Session
  let adminHeaders: Record<string, string>
  let reader: { authorization: string }
  let deleter: { authorization: string }
  let outsider: { authorization: string }
  const JAR = 'the jar of app 1.0\n'
  const JAR2 = 'the jar of app 1.1\n'
  const LIB = 'a library app depends on\n'
  const SECRET = 'a file in a repository the reader may not read\n'

  const get = (url: string, headers: Record<string, string> = adminHeaders) => t.fastify.inject({ url, headers })
  const del = (url: string, headers: Record<string, string> = adminHeaders) =>
    t.fastify.inject({ method: 'DELETE', url, headers })
  const publish = async (body: Record<string, unknown>) => {
    const res = await t.fastify.inject({ method: 'PUT', url: '/api/build', headers: adminHeaders, payload: body })
    expect(res.statusCode, res.body).toBe(204)
  }
  const deploy = async (repo: string, path: string, content: string) => {
    const res = await t.fastify.inject({
      method: 'PUT',
      url: `/artifactory/${repo}/${path}`,
      headers: { ...adminHeaders, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(content),
    })
    expect(res.statusCode, res.body).toBe(201)
  }
  const permit = async (name: string, body: Record<string, unknown>) => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ADMIN_API}/permissions`,
      headers: adminHeaders,
      payload: { name, ...body },
    })
    expect(res.statusCode, res.body).toBe(201)
  }
  const run = (number: string, started: string, modules: unknown[], extra: Record<string, unknown> = {}) => ({
    version: '1.0.1',
    name: 'app',
    number,
    started,
    url: `https://ci.example.com/app/${number}`,
    agent: { name: 'GitHub Actions', version: '2.3' },
    modules,
    ...extra,
  })

  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
    adminHeaders = sessionHeaders(admin)
    await createRepo(t.fastify, admin, 'generic-local', { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'generic-secret', { rclass: 'local', packageType: 'generic' })
    await deploy('generic-local', 'com/acme/app/1.0/app-1.0.jar', JAR)
    await deploy('generic-local', 'libs/lib-2.0.jar', LIB)
    await deploy('generic-secret', 'hidden/secret.bin', SECRET)
    reader = await userWithToken(t.fastify, adminHeaders, 'build-reader')
    deleter = await userWithToken(t.fastify, adminHeaders, 'build-deleter')
    outsider = await userWithToken(t.fastify, adminHeaders, 'build-outsider')
    await permit('app-builds', {
      builds: {
        resources: { names: [], include: ['app*'], exclude: [] },
        grants: [
          { kind: 'user', name: 'build-reader', actions: ['read'] },
          { kind: 'user', name: 'build-deleter', actions: ['read', 'delete'] },
        ],
      },
      repositories: {
        resources: { names: ['generic-local'], include: [], exclude: [] },
        grants: [{ kind: 'user', name: 'build-reader', actions: ['read'] }],
      },
    })

    await publish(
      run(
        '1',
        '2026-03-01T10:00:00.000+0000',
        [
          {
            id: 'com.acme:app:1.0',
            artifacts: [{ type: 'jar', name: 'app-1.0.jar', ...sums(JAR) }],
            dependencies: [
              { type: 'jar', id: 'com.acme:lib:2.0', ...sums(LIB), scopes: ['compile'] },
              { type: 'bin', id: 'com.acme:secret:1', ...sums(SECRET) },
              { type: 'jar', id: 'org.gone:old:1', sha1: hash('sha1', 'old') },
            ],
          },
        ],
        {
          durationMillis: 65_000,
          vcs: [{ revision: 'abc123', url: 'https://git.example.com/app.git' }],
          properties: { 'buildInfo.env.JAVA_HOME': '/opt/java', 'buildInfo.env.CI': 'true', 'release.stage': 'qa' },
        },
      ),
    )
    await publish(
      run(
        '2',
        '2026-03-02T10:00:00.000+0000',
        [
          {
            id: 'com.acme:app:1.0',
            artifacts: [{ type: 'jar', name: 'app-1.0.jar', ...sums(JAR2) }],
            dependencies: [
              { type: 'jar', id: 'com.acme:lib:2.0', ...sums(LIB) },
              { type: 'bin', id: 'com.acme:secret:1', ...sums(SECRET) },
              { type: 'jar', id: 'org.new:fresh:1', sha1: hash('sha1', 'fresh') },
            ],
          },
          { id: 'com.acme:docs:1.0', artifacts: [{ type: 'zip', name: 'docs.zip', sha1: hash('sha1', 'docs') }] },
        ],
        { statuses: [{ status: 'Staged', timestamp: '2026-03-02T11:00:00.000+0000', repository: 'generic-local' }] },
      ),
    )
    await publish({ name: 'zeta-tool', number: '7', started: '2026-02-01T00:00:00Z', status: 'passed' })
  })
  afterAll(() => t?.close())

  it('lists every build the caller may read with its last run, status and number of runs', async () => {
    const res = await get(api(BUILDS_PATHS.list))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      builds: [
        { name: 'app', lastNumber: '2', lastStarted: '2026-03-02T10:00:00.000Z', status: 'Staged', runs: 2 },
        { name: 'zeta-tool', lastNumber: '7', lastStarted: '2026-02-01T00:00:00.000Z', status: 'passed', runs: 1 },
      ],
    })
    // The reader may read app* only; the outsider nothing; anonymous callers are asked to sign in.
    expect((await get(api(BUILDS_PATHS.list), reader)).json().builds.map((b: { name: string }) => b.name)).toEqual(['app'])
    expect((await get(api(BUILDS_PATHS.list), outsider)).json()).toEqual({ builds: [] })
    expect((await get(api(BUILDS_PATHS.list), {})).statusCode).toBe(401)
  })

  it('lists the runs of a build, newest first; an unreadable or unknown build is 404 alike', async () => {
    const res = await get(api(BUILDS_PATHS.runs('app')), reader)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      name: 'app',
      canDelete: false,
      runs: [
        {
          number: '2',
          started: '2026-03-02T10:00:00.000Z',
          agent: 'GitHub Actions/2.3',
          url: 'https://ci.example.com/app/2',
          publishedBy: 'admin',
          status: 'Staged',
        },
        {
          number: '1',
          started: '2026-03-01T10:00:00.000Z',
          agent: 'GitHub Actions/2.3',
          url: 'https://ci.example.com/app/1',
          publishedBy: 'admin',
          status: null,
        },
      ],
    })
    expect((await get(api(BUILDS_PATHS.runs('app')), deleter)).json().canDelete).toBe(true)
    const hidden = await get(api(BUILDS_PATHS.runs('zeta-tool')), reader)
    const unknown = await get(api(BUILDS_PATHS.runs('no-such-build')), reader)
    expect(hidden.statusCode).toBe(404)
    expect(unknown.statusCode).toBe(404)
    expect(hidden.json()).toEqual({ errors: [{ status: 404, message: 'Build not found: zeta-tool' }] })
    expect(unknown.json().errors[0].message).toBe('Build not found: no-such-build')
    expect((await get(api(BUILDS_PATHS.runs('app')), {})).statusCode).toBe(401)
    const long = await get(api(BUILDS_PATHS.runs('x'.repeat(256))))
    expect(long.statusCode).toBe(400)
    expect(long.json().errors[0]).toMatchObject({ status: 400, message: expect.stringMatching(/params\.name.*255/) })
  })

  it('shows one run: modules with each item linked to a stored file the caller may read, environment and properties', async () => {
    const res = await get(api(BUILDS_PATHS.run('app', '1')), reader)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({
      name: 'app',
      number: '1',
      started: '2026-03-01T10:00:00.000Z',
      durationMillis: 65_000,
      agent: 'GitHub Actions/2.3',
      url: 'https://ci.example.com/app/1',
      publishedBy: 'admin',
      status: null,
      vcsRevision: 'abc123',
      canDelete: false,
      environment: [
        { name: 'CI', value: 'true' },
        { name: 'JAVA_HOME', value: '/opt/java' },
      ],
      properties: [{ name: 'release.stage', value: 'qa' }],
    })
    expect(body.info).toMatchObject({ name: 'app', number: '1', agent: { name: 'GitHub Actions' } })
    expect(body.modules).toHaveLength(1)
    const [module] = body.modules
    expect(module.id).toBe('com.acme:app:1.0')
    expect(module.artifacts).toEqual([
      {
        name: 'app-1.0.jar',
        type: 'jar',
        ...sums(JAR),
        scopes: [],
        file: { repoKey: 'generic-local', path: 'com/acme/app/1.0/app-1.0.jar' },
      },
    ])
    const deps = Object.fromEntries(module.dependencies.map((d: { name: string; file: unknown }) => [d.name, d.file]))
    expect(deps).toEqual({
      'com.acme:lib:2.0': { repoKey: 'generic-local', path: 'libs/lib-2.0.jar' },
      // Stored, but where the reader may not read: no link, and nothing tells that it exists.
      'com.acme:secret:1': null,
      'org.gone:old:1': null,
    })
    expect(module.dependencies[0].scopes).toEqual(['compile'])
    // The admin reads every repository.
    const asAdmin = (await get(api(BUILDS_PATHS.run('app', '1')))).json()
    expect(asAdmin.modules[0].dependencies[1].file).toEqual({ repoKey: 'generic-secret', path: 'hidden/secret.bin' })

    expect((await get(api(BUILDS_PATHS.run('app', '9')), reader)).json()).toEqual({
      errors: [{ status: 404, message: 'Build not found: app #9' }],
    })
    expect((await get(api(BUILDS_PATHS.run('zeta-tool', '7')), reader)).statusCode).toBe(404)
    expect((await get(api(BUILDS_PATHS.run('zeta-tool', '7')), {})).statusCode).toBe(401)
  })

  it('diffs two runs: artifacts and dependencies added, removed and changed by checksum, per module', async () => {
    const res = await get(api(BUILDS_PATHS.diff('app', '2', '1')), reader)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body.base).toEqual({ number: '1', started: '2026-03-01T10:00:00.000Z' })
    expect(body.compared).toEqual({ number: '2', started: '2026-03-02T10:00:00.000Z' })
    expect(body.artifacts).toEqual([
      {
        module: 'com.acme:app:1.0',
        name: 'app-1.0.jar',
        type: 'jar',
        change: 'changed',
        before: { sha1: sums(JAR).sha1, sha256: sums(JAR).sha256 },
        after: { sha1: sums(JAR2).sha1, sha256: sums(JAR2).sha256 },
      },
      {
        module: 'com.acme:docs:1.0',
        name: 'docs.zip',
        type: 'zip',
        change: 'added',
        before: null,
        after: { sha1: hash('sha1', 'docs'), sha256: null },
      },
    ])
    expect(body.dependencies.map((d: { name: string; change: string }) => `${d.change} ${d.name}`)).toEqual([
      'added org.new:fresh:1',
      'removed org.gone:old:1',
    ])
    const same = await get(api(BUILDS_PATHS.diff('app', '1', '1')), reader)
    expect(same.statusCode).toBe(400)
    expect(same.json().errors[0].message).toMatch(/two different runs/)
    expect((await get(api(BUILDS_PATHS.diff('app', '2', '5')), reader)).json().errors[0].message).toBe('Build not found: app #5')
    expect((await get(api(BUILDS_PATHS.diff('zeta-tool', '7', '7')), outsider)).statusCode).toBe(400)
  })

  it('deletes a run with the delete permission only; readers get 403, others 404, anonymous 401', async () => {
    await publish(run('3', '2026-03-03T10:00:00.000+0000', []))
    await publish(run('4', '2026-03-04T10:00:00.000+0000', []))
    const url = api(BUILDS_PATHS.run('app', '3'))
    const refused = await del(url, reader)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().errors[0].message).toMatch(/may not delete/)
    expect((await del(url, outsider)).statusCode).toBe(404)
    expect((await del(url, {})).statusCode).toBe(401)
    expect((await del(api(BUILDS_PATHS.run('app', '99')), deleter)).statusCode).toBe(404)
    expect((await del(url, deleter)).statusCode).toBe(204)
    expect((await get(url)).statusCode).toBe(404)
    const items = await t.app.db.kysely
      .selectFrom('builds')
      .select('number')
      .where('name', '=', 'app')
      .orderBy('number')
      .execute()
    expect(items.map((r) => r.number)).toEqual(['1', '2', '4'])
    // Its build items went with it: the artifact's builds tab no longer names run 3.
    const orphans = await t.app.db.kysely
      .selectFrom('build_items')
      .leftJoin('builds', 'builds.id', 'build_items.build_id')
      .select('build_items.build_id')
      .where('builds.id', 'is', null)
      .execute()
    expect(orphans).toEqual([])
  })

  it("publishes with a CI's deploy-scoped token; a read token is refused, and replacing a run still needs delete", async () => {
    const scoped = async (scope: 'deploy' | 'read') => {
      const res = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/userIdentifyToken/admin',
        headers: adminHeaders,
        payload: { expiresIn: 3600, scope },
      })
      expect(res.statusCode, res.body).toBe(200)
      return { authorization: `Bearer ${(res.json() as { access_token: string }).access_token}` }
    }
    const put = (headers: Record<string, string>, number: string) =>
      t.fastify.inject({
        method: 'PUT',
        url: '/api/build',
        headers,
        payload: { name: 'ci-scoped', number, started: '2026-01-01T00:00:00.000+0000', modules: [] },
      })
    const deployToken = await scoped('deploy')
    expect((await put(deployToken, '1')).statusCode).toBe(204)
    expect((await get('/api/build/ci-scoped/1')).statusCode).toBe(200)
    // A deploy token holds no delete: it may not overwrite a run it published.
    const again = await put(deployToken, '1')
    expect(again.statusCode).toBe(403)
    expect(again.body).toContain('needs the delete permission')
    const read = await put(await scoped('read'), '2')
    expect(read.statusCode).toBe(403)
    expect(read.body).toContain('You may not publish builds named ci-scoped')
    expect((await get('/api/build/ci-scoped/2')).statusCode).toBe(404)
  })

  it('deletes runs through DELETE /api/build/{name}?buildNumbers= (and /artifactory/api), all or nothing', async () => {
    await publish(run('5', '2026-03-05T10:00:00.000+0000', []))
    await publish(run('6', '2026-03-06T10:00:00.000+0000', []))
    const missing = await del('/api/build/app?buildNumbers=5,77', deleter)
    expect(missing.statusCode).toBe(404)
    expect(missing.json().errors[0].message).toBe('Build not found: app #77')
    expect((await del('/api/build/app', deleter)).statusCode).toBe(400)
    expect((await del('/api/build/app?buildNumbers=5', reader)).statusCode).toBe(403)
    expect((await del('/api/build/app?buildNumbers=5', {})).statusCode).toBe(401)
    expect((await del('/artifactory/api/build/app?buildNumbers=5,%206', deleter)).statusCode).toBe(204)
    const left = (await get(api(BUILDS_PATHS.runs('app')))).json().runs.map((r: { number: string }) => r.number)
    expect(left).toEqual(['4', '2', '1'])
    await publish({ name: 'scratch', number: '1', started: '2026-01-01T00:00:00Z' })
    await publish({ name: 'scratch', number: '2', started: '2026-01-02T00:00:00Z' })
    expect((await del('/api/build/scratch?deleteAll=1')).statusCode).toBe(204)
    expect((await get(api(BUILDS_PATHS.runs('scratch')))).statusCode).toBe(404)
  })
})

describe('reading a build-info document', () => {
  it('takes the latest promotion status, else the status as published, else none', () => {
    expect(
      runStatus({
        statuses: [
          { status: 'Released', timestamp: '2026-01-03T00:00:00.000+0000' },
          { status: 'Staged', timestamp: '2026-01-02T00:00:00.000+0000' },
        ],
        status: 'passed',
      }),
    ).toBe('Released')
    expect(runStatus({ statuses: [{ status: 'A' }, { status: 'B' }] })).toBe('B')
    expect(runStatus({ statuses: 'nonsense', status: ' failed ' })).toBe('failed')
    expect(runStatus({})).toBeNull()
  })

  it('reads modules and properties whatever shape a tool gave them', () => {
    expect(modulesOf({ modules: [{ artifacts: [{ name: 'a', sha1: 'NOT-A-SUM' }, 'junk'] }, null] })).toEqual([
      {
        id: 'module 1',
        artifacts: [{ key: 'a', name: 'a', type: null, sha1: null, sha256: null, md5: null, scopes: [] }],
        dependencies: [],
      },
    ])
    expect(propertiesOf({ properties: { 'buildInfo.env.N': 3, b: { x: 1 } } })).toEqual({
      environment: [{ name: 'N', value: '3' }],
      properties: [{ name: 'b', value: '{"x":1}' }],
    })
  })

  it('pairs a module whose id changed only in its version with its predecessor', () => {
    const dep = (id: string, sha1: string) => ({ id, sha1: sha1.repeat(40) })
    const base = modulesOf({
      modules: [
        { id: 'com.acme:app:1.0', artifacts: [{ name: 'app-1.0.jar', sha1: 'a'.repeat(40) }], dependencies: [dep('lib:1', 'c')] },
        { id: 'com.acme:gone:1.0', artifacts: [{ name: 'gone.jar', sha1: 'd'.repeat(40) }] },
      ],
    })
    const compared = modulesOf({
      modules: [
        { id: 'com.acme:app:1.1', artifacts: [{ name: 'app-1.1.jar', sha1: 'b'.repeat(40) }], dependencies: [dep('lib:1', 'c')] },
      ],
    })
    const diff = diffModules(base, compared)
    expect(diff.artifacts.map((a) => `${a.module} ${a.change} ${a.name}`)).toEqual([
      'com.acme:app:1.1 added app-1.1.jar',
      'com.acme:app:1.1 removed app-1.0.jar',
      'com.acme:gone:1.0 removed gone.jar',
    ])
    // The unchanged dependency of the renamed module is not reported.
    expect(diff.dependencies).toEqual([])
  })

  it('counts an item listed twice under one name as two', () => {
    const item = (sha1: string) => ({ name: 'same.jar', sha1: sha1.repeat(40) })
    const diff = diffModules(
      modulesOf({ modules: [{ id: 'm', artifacts: [item('a')] }] }),
      modulesOf({ modules: [{ id: 'm', artifacts: [item('a'), item('b')] }] }),
    )
    expect(diff.artifacts.map((a) => a.change)).toEqual(['added'])
    expect(diff.dependencies).toEqual([])
  })
})
