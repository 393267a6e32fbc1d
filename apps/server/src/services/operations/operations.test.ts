import fs from 'node:fs'
import path from 'node:path'
import { Messages } from '@trove/contracts/messages'
import { BUNDLE_CREATE_PATHS, LOG_BASE_PATHS } from '@trove/contracts/operations'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { unzip } from '../../../test/zip.js'
import { hashPassword } from '../../core/passwords.js'
import { setSetting } from '../../core/settings.js'
import { insertUser } from '../../identity/users/repo.js'
import { LOG_ANSWER_CAP_BYTES } from './logs.js'
import { deleteNode, NodeRegistry } from './nodes.js'
import { RETENTION_SETTING } from './routes.js'

let t: TestApp
let admin: Session
let user: Session
const API = '/ui/api/v1'

beforeAll(async () => {
  t = await createTestApp({
    TROVE_NODE_ID: 'node-a',
    TROVE_MODULES: 'repository,distribution,scanner,mission-control,insight,tracker',
  })
  admin = await signIn(t.fastify)
  await insertUser(t.app.db.kysely, { name: 'bob', email: null, passwordHash: await hashPassword('bob-password'), admin: false })
  user = await signIn(t.fastify, 'bob', 'bob-password')
})
afterAll(() => t.close())

const get = (url: string, s: Session = admin) =>
  t.fastify.inject({ method: 'GET', url: `${API}${url}`, headers: { cookie: s.cookie } })
const post = (url: string, payload: unknown, s: Session = admin) =>
  t.fastify.inject({ method: 'POST', url: `${API}${url}`, headers: sessionHeaders(s), payload: payload as object })
const del = (url: string, s: Session = admin) =>
  t.fastify.inject({ method: 'DELETE', url: `${API}${url}`, headers: sessionHeaders(s) })

describe('service status', () => {
  it('shows this node Online under every module it runs, with uptime and a heartbeat', async () => {
    const res = await get('/system/status/ha')
    expect(res.statusCode).toBe(200)
    const status = res.json()
    expect(Object.keys(status).sort()).toEqual(['distribution', 'insight', 'mission-control', 'repository', 'scanner', 'tracker'])
    const node = status.repository.nodes[0]
    expect(node).toMatchObject({ node_id: 'node-a', status: 'Online', service_id: expect.stringMatching(/^repository@/) })
    expect(node.micro_services.repository.uptime).toBeGreaterThanOrEqual(0)
    expect(node.micro_services.repository.last_heartbeat).toBeGreaterThan(Date.now() - 60_000)
  })

  it('answers the node list, health items and the micro-service checks from the same rows', async () => {
    expect((await get('/system/status/nodes')).json()).toEqual([
      expect.objectContaining({
        node_id: 'node-a',
        status: 'Online',
        services: expect.arrayContaining(['repository', 'tracker']),
      }),
    ])
    const health = (await get('/system/status/health')).json()
    expect(health).toHaveLength(6)
    expect(health.every((h: { state: string }) => h.state === 'HEALTHY')).toBe(true)
    expect((await get('/system/ismicroserviceenabled/mc')).json()).toEqual({ enabled: true, services: ['mission-control'] })
    expect((await get('/mc/api/v4/system/ping')).body).toBe('OK')
  })

  it('answers each node of the cluster with its address and the modules it beats for', async () => {
    // A second node as a cluster records it: its own registry beating into the shared tables.
    const b = new NodeRegistry(
      t.app.db.kysely,
      { nodeId: 'node-b', clusterId: 'c', version: '0', modules: ['scanner'], heartbeatMs: 5000, startedAt: Date.now() },
      { warn: () => {} },
    )
    b.url = 'http://10.0.0.12:8080'
    await b.beat()
    try {
      const nodes = (await get('/system/status/nodes')).json()
      expect(nodes.find((n: { node_id: string }) => n.node_id === 'node-b')).toEqual({
        node_id: 'node-b',
        url: 'http://10.0.0.12:8080',
        status: 'Online',
        services: ['scanner'],
        last_heartbeat: expect.any(Number),
      })
      // This node has not listened (the tests inject), so it has no address yet.
      expect(nodes.find((n: { node_id: string }) => n.node_id === 'node-a')).toMatchObject({ url: '', status: 'Online' })
    } finally {
      await deleteNode(t.app.db.kysely, 'node-b')
    }
  })

  it('answers the peers of a single node: itself, Online, seeing no one', async () => {
    const res = await get('/system/status/peers')
    expect(res.statusCode).toBe(200)
    const { now, nodes } = res.json()
    expect(now).toBeGreaterThan(Date.now() - 60_000)
    expect(nodes).toEqual([
      expect.objectContaining({ nodeId: 'node-a', status: 'Online', self: true, sees: [], url: expect.any(String) }),
    ])
    expect(nodes[0].lastHeartbeat).toBeLessThanOrEqual(now)
    expect((await t.fastify.inject({ url: `${API}/system/status/peers` })).statusCode).toBe(401)
  })

  it('refuses to remove an Online node, and names unknown ones', async () => {
    const status = (await get('/system/status/ha')).json()
    const serviceId = status.repository.nodes[0].service_id
    const online = await del(`/access/api/v1/topology/${serviceId}/node-a`)
    expect(online.statusCode).toBe(409)
    expect(online.json().errors[0].message).toBe('Node node-a is online: stop it before removing it')
    const unknown = await del(`/access/api/v1/topology/${serviceId}/nope`)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().errors[0].message).toBe('Unknown node: nope')
  })

  it('removes an Offline node', async () => {
    const now = Date.now()
    await t.app.db.kysely
      .insertInto('nodes')
      .values({
        node_id: 'gone',
        url: 'http://127.0.0.1:1',
        version: '0',
        started_at: now - 100_000,
        heartbeat_ms: 1000,
        last_heartbeat: now - 60_000,
      })
      .execute()
    await t.app.db.kysely
      .insertInto('node_services')
      .values({ node_id: 'gone', service: 'repository', started_at: now - 100_000, last_heartbeat: now - 60_000 })
      .execute()
    const status = (await get('/system/status/ha')).json()
    const gone = status.repository.nodes.find((n: { node_id: string }) => n.node_id === 'gone')
    expect(gone).toMatchObject({ status: 'Offline', micro_services: { repository: { uptime: null } } })
    expect((await del(`/access/api/v1/topology/${gone.service_id}/gone`)).statusCode).toBe(204)
    expect((await get('/system/status/nodes')).json().map((n: { node_id: string }) => n.node_id)).toEqual(['node-a'])
  })
})

describe('log viewer', () => {
  const logFile = () => path.join(t.dataDir, 'logs', 'trove.log')

  it('lists the files that exist and answers only what was appended since the read position', async () => {
    const config = (await get('/system/logs/config/repository?nodeId=node-a')).json()
    expect(config).toMatchObject({ logs: ['trove.log'], selected_log: 'trove.log' })
    const first = (await get('/system/logs/data/repository?nodeId=node-a&id=trove.log')).json()
    expect(first.log_content).toContain('database migrated')
    t.app.logger.info('a line written after the first read')
    const next = (
      await get(`/system/logs/data/repository?nodeId=node-a&id=trove.log&file_size=${first.file_size}&file_id=${first.file_id}`)
    ).json()
    expect(next.log_content).toContain('a line written after the first read')
    expect(next.log_content).not.toContain('database migrated')
    expect(next.file_size).toBeGreaterThan(first.file_size)
    expect(next.rotated).toBe(false)
    // Nothing new: an empty answer at the same position (the request above logged nothing of its own before reading).
    const size = fs.statSync(logFile()).size
    const idle = (await get(`/system/logs/data/repository?id=trove.log&file_size=${size}`)).json()
    expect(idle).toMatchObject({ file_size: size })
  })

  it('caps an answer and says how much it skipped, and tells a client that fell behind a rotation', async () => {
    const start = fs.statSync(logFile()).size
    fs.appendFileSync(logFile(), `${'{"msg":"filler"}\n'.repeat(Math.ceil((LOG_ANSWER_CAP_BYTES * 2) / 17))}`)
    const far = (await get(`/system/logs/data/repository?id=trove.log&file_size=${start}`)).json()
    expect(far.skipped_bytes).toBeGreaterThan(LOG_ANSWER_CAP_BYTES / 2)
    expect(Buffer.byteLength(far.log_content)).toBeLessThanOrEqual(LOG_ANSWER_CAP_BYTES)
    const rotated = (await get(`/system/logs/data/repository?id=trove.log&file_size=${start}&file_id=another`)).json()
    expect(rotated.rotated).toBe(true)
  })

  it('refuses bad input with 400 and unknown services, nodes and files with 404', async () => {
    const notNumber = await get('/system/logs/data/repository?id=trove.log&file_size=abc')
    expect(notNumber.statusCode).toBe(400)
    expect(notNumber.json().errors[0].message).toMatch(/file_size/)
    for (const [url, message] of [
      ['/system/logs/data/nothing?id=trove.log', 'Unknown service: nothing'],
      ['/system/logs/data/repository?id=trove.log&nodeId=nobody', 'Unknown node: nobody'],
      ['/system/logs/data/repository?id=trove.db', 'Unknown log file on node node-a: trove.db'],
      ['/system/logs/data/repository?id=..%2Ftrove.db', 'Unknown log file on node node-a: ../trove.db'],
      ['/system/logs/config/pipelines', 'Node node-a does not run the service pipelines'],
    ]) {
      const res = await get(url as string)
      expect(res.statusCode, url).toBe(404)
      expect(res.json().errors[0].message).toBe(message)
    }
  })

  it('serves the same pair under the distribution, insight and mission-control base paths', async () => {
    for (const base of ['/distribution/api/ui', '/insight/api/v2', '/mc/api/ui/v1']) {
      expect((await get(`${base}/system/logs/config/repository`)).json().logs).toContain('trove.log')
    }
  })

  it('refuses an unsigned node-to-node call', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: `${API}/system/cluster/logs/data/repository?id=trove.log` })
    expect(res.statusCode).toBe(401)
  })
})

describe('support bundles', () => {
  it('writes a zip with configuration (secrets redacted), system information, logs and diagnostic reports', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const res = await post('/ui/userSupport/generateBundle', {
      name: 'slow search',
      description: 'searches take 10 s',
      parameters: {
        configuration: true,
        system: true,
        logs: { include: true, start_date: today, end_date: today },
        thread_dump: { count: 2, interval: 50 },
      },
    })
    expect(res.statusCode).toBe(201)
    const created = res.json()
    expect(created).toMatchObject({ name: 'slow search', status: 'in_progress', service: 'repository' })
    await t.app.operations.idle()
    const listed = (await get('/ui/userSupport/listBundles')).json()
    expect(listed[0]).toMatchObject({
      id: created.id,
      status: 'success',
      parameters: { thread_dump: { count: 2, interval: 50 } },
    })

    const download = await get(`/ui/userSupport/downloadBundle/${created.id}`)
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('application/zip')
    expect(download.headers['content-disposition']).toContain('slow_search')
    const files = await unzip(download.rawPayload)
    expect([...files.keys()].sort()).toEqual([
      'configuration/trove-config.json',
      'logs/trove.log',
      'manifest.json',
      'system/system-info.json',
      'thread_dumps/report-1.json',
      'thread_dumps/report-2.json',
    ])
    expect(JSON.parse(files.get('manifest.json') ?? '')).toMatchObject({ name: 'slow search', description: 'searches take 10 s' })
    expect(JSON.parse(files.get('configuration/trove-config.json') ?? '').environment.adminPassword).toBe('***')
    for (const [name, text] of files) expect(text, name).not.toContain(ADMIN_PASSWORD)
    expect(JSON.parse(files.get('system/system-info.json') ?? '').runtime.node).toBe(process.versions.node)
    expect(JSON.parse(files.get('thread_dumps/report-1.json') ?? '').javascriptStack).toBeDefined()
    expect(files.get('logs/trove.log')).toContain('support bundle requested')
  })

  it('leaves logs out of a date range that has none', async () => {
    const res = await post('/distribution/api/v1/system/support/bundle', {
      name: 'old',
      parameters: {
        logs: { include: true, start_date: '2001-01-01', end_date: '2001-01-02' },
        thread_dump: { count: 0, interval: 0 },
      },
    })
    await t.app.operations.idle()
    const files = await unzip((await get(`/ui/userSupport/downloadBundle/${res.json().id}`)).rawPayload)
    expect([...files.keys()].some((f) => f.startsWith('logs/'))).toBe(false)
  })

  it('answers on every per-service create path', async () => {
    for (const [p, service] of [
      ['/xray/api/v1/system/support/bundle', 'scanner'],
      ['/mc/api/v1/system/support/bundle', 'mission-control'],
      ['/insight/api/v1/system/support/bundle', 'insight'],
      ['/tracker/api/v3/pdn/system/support/bundle', 'tracker'],
    ]) {
      const res = await post(p as string, { name: `b-${service}`, parameters: { thread_dump: { count: 0, interval: 0 } } })
      expect(res.statusCode, p).toBe(201)
      expect(res.json().service).toBe(service)
    }
    await t.app.operations.idle()
  })

  it('refuses thread dumps outside the bounds, bad dates and a missing name with 400', async () => {
    for (const [thread_dump, field] of [
      [{ count: 11, interval: 0 }, 'thread_dump.count'],
      [{ count: 1.5, interval: 0 }, 'thread_dump.count'],
      [{ count: 1, interval: 10_001 }, 'thread_dump.interval'],
      [{ count: 1, interval: -1 }, 'thread_dump.interval'],
    ] as const) {
      const res = await post('/ui/userSupport/generateBundle', { name: 'x', parameters: { thread_dump } })
      expect(res.statusCode).toBe(400)
      expect(res.json().errors[0].message).toContain(field)
    }
    const dates = await post('/ui/userSupport/generateBundle', {
      name: 'x',
      parameters: { logs: { include: true, start_date: '2024-02-02', end_date: '2024-02-01' } },
    })
    expect(dates.json().errors[0].message).toContain('end_date')
    expect((await post('/ui/userSupport/generateBundle', { name: ' ' })).json().errors[0].message).toContain('name')
  })

  it('deletes a bundle and its file; unknown ids are 404', async () => {
    const [first] = (await get('/ui/userSupport/listBundles')).json()
    expect((await del(`/ui/userSupport/deleteBundle/${first.id}`)).statusCode).toBe(204)
    expect(fs.existsSync(path.join(t.dataDir, 'support', `${first.id}.zip`))).toBe(false)
    expect((await get(`/ui/userSupport/downloadBundle/${first.id}`)).statusCode).toBe(404)
    expect((await del(`/ui/userSupport/deleteBundle/${first.id}`)).statusCode).toBe(404)
  })

  it('answers 404 for a service not enabled on the node', async () => {
    const other = await createTestApp({ TROVE_MODULES: 'repository' })
    try {
      const session = await signIn(other.fastify)
      const res = await other.fastify.inject({
        method: 'POST',
        url: `${API}/distribution/api/v1/system/support/bundle`,
        headers: sessionHeaders(session),
        payload: { name: 'x' },
      })
      expect(res.statusCode).toBe(404)
      expect(res.json().errors[0].message).toBe('The service distribution is not enabled on this node')
    } finally {
      await other.close()
    }
  })
})

describe('retention and access', () => {
  it('says retention is off by default, and on once set', async () => {
    expect((await get('/ui/bundle/retention/config/enable')).json()).toEqual({ enable: false })
    await setSetting(t.app.db.kysely, RETENTION_SETTING, true)
    expect((await get('/ui/bundle/retention/config/enable')).json()).toEqual({ enable: true })
  })

  it('refuses every call here to a non-admin with 403', async () => {
    for (const url of [
      '/system/status/ha',
      '/system/status/nodes',
      '/system/status/peers',
      '/system/ismicroserviceenabled',
      '/system/logs/config/repository',
      '/system/logs/data/repository?id=trove.log',
      '/ui/userSupport/listBundles',
      '/ui/userSupport/downloadBundle/x',
      '/ui/bundle/retention/config/enable',
      '/system/status/health',
      '/system/ismicroserviceenabled/mc',
      '/mc/api/v4/system/ping',
      // The log calls under every service's base path.
      ...Object.values(LOG_BASE_PATHS).flatMap((base) => [
        `/${base}system/logs/config/repository`,
        `/${base}system/logs/data/repository?id=trove.log`,
      ]),
    ]) {
      expect((await get(url, user)).statusCode, url).toBe(403)
    }
    // Every service's create path.
    for (const path of Object.values(BUNDLE_CREATE_PATHS).filter((p) => p !== null)) {
      expect((await post(`/${path}`, { name: 'x' }, user)).statusCode, path).toBe(403)
    }
    expect((await del('/ui/userSupport/deleteBundle/x', user)).statusCode).toBe(403)
    expect((await del('/access/api/v1/topology/a/b', user)).statusCode).toBe(403)
    expect(Messages.waitingForLogs).toBe('Waiting for Logs...')
  })
})

describe('a real rotation', () => {
  it('lists the rotated file and tells a client still on the old file', async () => {
    const small = await createTestApp({ TROVE_LOG_MAX_SIZE: '4k', TROVE_NODE_ID: 'rotating' })
    try {
      const session = await signIn(small.fastify)
      const read = (q: string) =>
        small.fastify.inject({
          method: 'GET',
          url: `${API}/system/logs/data/repository?id=trove.log${q}`,
          headers: { cookie: session.cookie },
        })
      const first = (await read('')).json()
      for (let i = 0; i < 60; i++) small.app.logger.info({ i }, 'filling the log until it rotates')
      const config = (
        await small.fastify.inject({
          method: 'GET',
          url: `${API}/system/logs/config/repository`,
          headers: { cookie: session.cookie },
        })
      ).json()
      expect(config.logs.slice(0, 2)).toEqual(['trove.log', 'trove.1.log'])
      const after = (await read(`&file_size=${first.file_size}&file_id=${encodeURIComponent(first.file_id)}`)).json()
      expect(after.rotated).toBe(true)
      expect(after.file_id).not.toBe(first.file_id)
    } finally {
      await small.close()
    }
  })
})

describe('closing while a bundle is written', () => {
  it('stops the bundle, marks it failed and leaves no partial file', async () => {
    const closing = await createTestApp()
    const session = await signIn(closing.fastify)
    const res = await closing.fastify.inject({
      method: 'POST',
      url: `${API}/ui/userSupport/generateBundle`,
      headers: sessionHeaders(session),
      payload: { name: 'long', parameters: { thread_dump: { count: 10, interval: 10_000 } } },
    })
    expect(res.statusCode).toBe(201)
    const started = Date.now()
    await closing.stop()
    expect(Date.now() - started).toBeLessThan(5000)
    const { openDb } = await import('../../core/db.js')
    const db = await openDb(closing.config)
    try {
      const row = await db.kysely.selectFrom('support_bundles').selectAll().executeTakeFirstOrThrow()
      expect(row.status).toBe('failed')
      expect(fs.readdirSync(path.join(closing.dataDir, 'support'))).toEqual([])
    } finally {
      await db.close()
      await closing.close().catch(() => undefined)
    }
  })
})
