import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, npmPublishBody } from '../../test/clients.js'
import { uploadSdist } from '../../test/pypi.js'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { type App, buildApp } from '../app.js'
import { ClusterWrites } from './clusterWrites.js'
import { loadConfig } from './config.js'
import { type ChangedTables, WriteWatch } from './dbWrites.js'

/**
 * Two nodes on one PostgreSQL database tell each other their committed writes (LISTEN/NOTIFY): a
 * change made on node one drops node two's cached callers and answers as soon as node two hears
 * of it, well inside the caches' own lifetimes (2 s). Each check waits for node two to hear the
 * write, then asks node two at once: without the notification, its cache would still answer.
 */
const postgres = !!process.env.TROVE_TEST_DATABASE_URL
describe.runIf(postgres)('writes told across the nodes of a cluster', () => {
  let one: TestApp
  let two: App
  let admin: Session

  /** Resolves when node two hears, from another node, a write to one of `tables`. */
  const heardOnTwo = (tables: string[]) =>
    new Promise<ChangedTables>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop()
        reject(new Error(`node two heard no write to ${tables.join(', ')}`))
      }, 5000)
      const stop = two.db.writes.on((changed, fromSibling) => {
        if (!fromSibling || !tables.some((t) => changed.has(t))) return
        clearTimeout(timer)
        stop()
        resolve(changed)
      })
    })

  /** Publishes `name@version` to `repo` through node one; resolves, once node two has heard of it, with what it heard. */
  const publishOnOne = async (repo: string, name: string, version: string, bearer: { authorization: string }) => {
    const heard = heardOnTwo(['package_versions'])
    const { body } = await npmPublishBody('http://localhost', repo, { name, version })
    const res = await one.fastify.inject({ method: 'PUT', url: `/api/npm/${repo}/${name}`, headers: bearer, payload: body })
    expect(res.statusCode, res.body).toBe(201)
    return heard
  }

  beforeAll(async () => {
    one = await createTestApp({ TROVE_NODE_ID: 'node-one' })
    two = await buildApp(
      loadConfig({
        TROVE_DATA_DIR: one.dataDir,
        TROVE_DATABASE_URL: one.config.databaseUrl,
        TROVE_LOG_STDOUT: 'false',
        TROVE_LOG_DIR: path.join(one.dataDir, 'logs', 'node-two'),
        TROVE_WEB_DIR: path.join(one.dataDir, 'no-console'),
        TROVE_NODE_ID: 'node-two',
        // The repository alone, as on the test apps (a scanner would write beside what is checked).
        TROVE_MODULES: 'repository',
      }),
    )
    await two.fastify.ready()
    await Promise.all([one.app.db.cluster?.ready, two.db.cluster?.ready])
    admin = await signIn(one.fastify)
  }, 60_000)
  afterAll(async () => {
    await two.close()
    await one.close()
  })

  // Each test first waits until node two has heard of the writes before the one it checks: a
  // notification of an earlier write arriving late would otherwise pass for the one awaited.
  it('a token revoked on node one is refused by node two as soon as node two hears of it', async () => {
    const madeHeard = heardOnTwo(['tokens'])
    const made = await one.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: sessionHeaders(admin),
      payload: { expiresIn: 600 },
    })
    await madeHeard
    const bearer = { authorization: `Bearer ${made.json().access_token}` }
    const onTwo = () => two.fastify.inject({ url: '/ui/api/v1/ui/userIdentifyToken', headers: bearer }).then((r) => r.statusCode)
    expect(await onTwo()).toBe(200) // now cached on node two
    const heard = heardOnTwo(['tokens'])
    const revoked = await one.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/userIdentifyToken/id/${made.json().token_id}`,
      headers: sessionHeaders(admin),
    })
    expect(revoked.statusCode).toBe(204)
    await heard
    expect(await onTwo()).toBe(401)
  })

  it('a version published on node one is in node two’s packument as soon as node two hears of it', async () => {
    await createRepo(one.fastify, admin, 'npm-shared', { rclass: 'local', packageType: 'npm' })
    const bearer = { authorization: `Bearer ${await accessToken(one.fastify, admin)}` }
    const versionsOnTwo = async () => {
      const res = await two.fastify.inject({ url: '/api/npm/npm-shared/shared-lib', headers: bearer })
      return Object.keys(res.json().versions ?? {})
    }
    await publishOnOne('npm-shared', 'shared-lib', '1.0.0', bearer)
    expect(await versionsOnTwo()).toEqual(['1.0.0']) // now cached on node two
    await publishOnOne('npm-shared', 'shared-lib', '1.1.0', bearer)
    expect(await versionsOnTwo()).toEqual(['1.0.0', '1.1.0'])
  })

  it('an npm publish on node one drops node two’s packuments of that package alone', async () => {
    await createRepo(one.fastify, admin, 'npm-narrow', { rclass: 'local', packageType: 'npm' })
    const bearer = { authorization: `Bearer ${await accessToken(one.fastify, admin)}` }
    const publish = (name: string, version: string) => publishOnOne('npm-narrow', name, version, bearer)
    const onTwo = async (name: string) => {
      const res = await two.fastify.inject({ url: `/api/npm/npm-narrow/${name}`, headers: bearer })
      return { description: res.json().description, versions: Object.keys(res.json().versions ?? {}) }
    }
    await publish('narrow-a', '1.0.0')
    await publish('narrow-b', '1.0.0')
    vi.useFakeTimers({ toFake: ['Date'] })
    const superuser = new pg.Client({ connectionString: one.config.databaseUrl })
    await superuser.connect()
    try {
      const kept = await onTwo('narrow-b') // now cached on node two
      expect(kept.versions).toEqual(['1.0.0'])
      expect(await onTwo('narrow-a')).toMatchObject({ versions: ['1.0.0'] })
      // Changed in the database behind every node's back: node two answers from its cache.
      await superuser.query(
        `UPDATE package_versions SET description = 'changed behind' WHERE package_id = (SELECT id FROM packages WHERE name = 'narrow-b')`,
      )
      expect(await onTwo('narrow-b')).toEqual(kept)
      // Another package's publish in the same repository is told as that package's alone: it leaves
      // narrow-b's packument and drops narrow-a's.
      const told = await publish('narrow-a', '1.1.0')
      expect(await onTwo('narrow-b')).toEqual(kept)
      expect((await onTwo('narrow-a')).versions).toEqual(['1.0.0', '1.1.0'])
      expect([...told]).toContain('package_versions@npm-narrow#npm:narrow-a')
      // A write not made about one package (the repository's settings) drops them all.
      const heard = heardOnTwo(['repositories'])
      const res = await one.fastify.inject({
        method: 'POST',
        url: '/api/repositories/npm-narrow',
        headers: sessionHeaders(admin),
        payload: { rclass: 'local', packageType: 'npm', description: 'npm, narrowed' },
      })
      expect(res.statusCode, res.body).toBe(200)
      await heard
      expect(await onTwo('narrow-b')).toEqual({ ...kept, description: 'changed behind' })
    } finally {
      vi.useRealTimers()
      await superuser.end()
    }
  })

  it('a remote’s copy of an npm package made on node one is told as that package’s alone', async () => {
    // The remote's upstream is node one's own local repository, over HTTP.
    const base = await listen(one.fastify)
    await createRepo(one.fastify, admin, 'npm-origin', { rclass: 'local', packageType: 'npm' })
    await createRepo(one.fastify, admin, 'npm-origin-remote', {
      rclass: 'remote',
      packageType: 'npm',
      url: `${base}/api/npm/npm-origin`,
      username: 'admin',
      password: ADMIN_PASSWORD,
    })
    const bearer = { authorization: `Bearer ${await accessToken(one.fastify, admin)}` }
    await publishOnOne('npm-origin', 'origin-a', '1.0.0', bearer)
    const scopes = (told: ChangedTables, table: string) => [...told].filter((t) => t.startsWith(`${table}@`))
    // The packument, then its tarball, fetched from the upstream and kept by node one.
    const fetched = heardOnTwo(['remote_cache'])
    const packument = await one.fastify.inject({ url: '/api/npm/npm-origin-remote/origin-a', headers: bearer })
    expect(packument.statusCode, packument.body).toBe(200)
    expect(scopes(await fetched, 'remote_cache')).toEqual(['remote_cache@npm-origin-remote#npm:origin-a'])
    const cached = heardOnTwo(['files'])
    const tarball = await one.fastify.inject({ url: '/api/npm/npm-origin-remote/origin-a/-/origin-a-1.0.0.tgz', headers: bearer })
    expect(tarball.statusCode, tarball.body).toBe(200)
    const told = await cached
    expect(scopes(told, 'files')).toEqual(['files@npm-origin-remote#npm:origin-a'])
    expect(scopes(told, 'package_versions')).toEqual(['package_versions@npm-origin-remote#npm:origin-a'])
  })

  it('a deploy on node one drops node two’s served files of that repository alone', async () => {
    const bearer = { authorization: `Bearer ${await accessToken(one.fastify, admin)}` }
    for (const key of ['gen-x', 'gen-y']) await createRepo(one.fastify, admin, key, { rclass: 'local', packageType: 'generic' })
    const deploy = async (url: string) => {
      const heard = heardOnTwo(['files'])
      const res = await one.fastify.inject({ method: 'PUT', url, headers: bearer, payload: url })
      expect(res.statusCode, res.body).toBe(201)
      return heard
    }
    const onTwo = () => two.fastify.inject({ url: '/artifactory/gen-x/a.txt', headers: bearer }).then((r) => r.statusCode)
    await deploy('/artifactory/gen-x/a.txt')
    // The clock stands still: node two's cache (2 s) cannot expire while the test looks at it.
    vi.useFakeTimers({ toFake: ['Date'] })
    const superuser = new pg.Client({ connectionString: one.config.databaseUrl })
    await superuser.connect()
    try {
      expect(await onTwo()).toBe(200) // now cached on node two
      // Gone from the database behind every node's back: node two answers from its cache.
      await superuser.query(`DELETE FROM files WHERE repo_key = 'gen-x' AND path = 'a.txt'`)
      expect(await onTwo()).toBe(200)
      // A deploy to another repository leaves it; one to the same repository drops it.
      expect([...(await deploy('/artifactory/gen-y/b.txt'))]).toContain('files@gen-y')
      expect(await onTwo()).toBe(200)
      expect([...(await deploy('/artifactory/gen-x/c.txt'))]).toContain('files@gen-x')
      expect(await onTwo()).toBe(404)
    } finally {
      vi.useRealTimers()
      await superuser.end()
    }
  })

  it('a deploy with properties on node one leaves node two’s PyPI pages of other repositories', async () => {
    const bearer = { authorization: `Bearer ${await accessToken(one.fastify, admin)}` }
    await createRepo(one.fastify, admin, 'pypi-kept', { rclass: 'local', packageType: 'pypi' })
    await createRepo(one.fastify, admin, 'gen-props', { rclass: 'local', packageType: 'generic' })
    const upload = async (version: string) => {
      const heard = heardOnTwo(['files'])
      expect((await uploadSdist(one, admin, 'pypi-kept', version)).statusCode).toBe(200)
      await heard
    }
    const versionsOnTwo = async () => {
      const page = await two.fastify.inject({
        url: '/api/pypi/pypi-kept/simple/x/',
        headers: { ...bearer, accept: 'application/vnd.pypi.simple.v1+json' },
      })
      return page.statusCode === 200 ? page.json().versions : page.statusCode
    }
    await upload('1.0')
    vi.useFakeTimers({ toFake: ['Date'] })
    const superuser = new pg.Client({ connectionString: one.config.databaseUrl })
    await superuser.connect()
    try {
      expect(await versionsOnTwo()).toEqual(['1.0']) // now kept on node two
      // Gone from the database behind every node's back: node two answers what it kept.
      await superuser.query(`DELETE FROM files WHERE repo_key = 'pypi-kept'`)
      expect(await versionsOnTwo()).toEqual(['1.0'])
      // A deploy that sets properties in another repository leaves it; an upload to it drops it.
      const heard = heardOnTwo(['file_properties'])
      const res = await one.fastify.inject({
        method: 'PUT',
        url: '/artifactory/gen-props/a.txt;build=42',
        headers: bearer,
        payload: 'a',
      })
      expect(res.statusCode, res.body).toBe(201)
      expect([...(await heard)]).toContain('files@gen-props')
      expect(await versionsOnTwo()).toEqual(['1.0'])
      await upload('2.0')
      expect(await versionsOnTwo()).toEqual(['2.0'])
    } finally {
      vi.useRealTimers()
      await superuser.end()
    }
  })

  it('node two listens again by itself after its listening connection is cut, and drops everything it may have missed', async () => {
    const superuser = new pg.Client({ connectionString: one.config.databaseUrl })
    await superuser.connect()
    try {
      const missed = heardOnTwo(['*'])
      // Ends both nodes' listening connections (a failover, an administrator); those of other
      // tests' databases on the same server are left alone.
      const cut = await superuser.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE query = 'LISTEN trove_writes' AND datname = current_database() AND pid <> pg_backend_pid()`,
      )
      expect(cut.rowCount).toBe(2)
      await missed
      const heard = heardOnTwo(['tokens'])
      const made = await one.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/userIdentifyToken/admin',
        headers: sessionHeaders(admin),
        payload: { expiresIn: 600 },
      })
      expect(made.statusCode).toBe(200)
      await heard
    } finally {
      await superuser.end()
    }
  })
})

describe('a notification that cannot be sent', () => {
  it('is tried again, with what was committed since', async () => {
    const sent: string[] = []
    let failures = 2
    const pool = {
      query: async (_text: string, values: string[]) => {
        if (failures-- > 0) throw new Error('connection terminated')
        sent.push(values[1] as string)
        return { rows: [] }
      },
    }
    // A database that cannot be listened to: the listening connection keeps failing.
    class Client {
      on() {}
      removeAllListeners() {}
      async connect() {
        throw new Error('connection refused')
      }
      async end() {}
    }
    const watch = new WriteWatch()
    const cluster = new ClusterWrites({ Client } as never, pool as never, watch, {
      connectionString: 'postgres://x',
      processId: 'p1',
    })
    try {
      watch.notify(new Set(['files', 'files@a']))
      await new Promise((resolve) => setTimeout(resolve, 100))
      watch.notify(new Set(['dist_tags']))
      await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 3000 })
      expect(new Set(sent[0]?.replace(/^p1 /, '').split(','))).toEqual(new Set(['files', 'files@a', 'dist_tags']))
    } finally {
      await cluster.close()
    }
  })
})
