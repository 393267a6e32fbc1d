import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../../test/cluster.js'
import { createTestApp, type Session, signIn, type TestApp } from '../../test/testApp.js'
import { type App, buildApp } from '../app.js'
import { CALLER_CACHE_MS } from '../identity/auth/principal.js'
import { loadConfig } from './config.js'

/**
 * Two real nodes on one database and one data dir, each listening on its own port: they form a
 * cluster with nothing else. On SQLite both open the same database file; on PostgreSQL
 * (TROVE_TEST_DATABASE_URL) the same database.
 */
let one: TestApp
let two: App
let admin: Session
const HEARTBEAT_MS = 300

beforeAll(async () => {
  one = await createTestApp({
    TROVE_NODE_ID: 'node-one',
    TROVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
  })
  await one.fastify.listen({ host: '127.0.0.1', port: 0 })
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
      TROVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    }),
  )
  await two.fastify.listen({ host: '127.0.0.1', port: 0 })
  admin = await signIn(one.fastify)
})
afterAll(async () => {
  await two.close()
  await one.close()
})

const get = (url: string) => one.fastify.inject({ method: 'GET', url: `/ui/api/v1${url}`, headers: { cookie: admin.cookie } })
const nodesOf = async () =>
  Object.fromEntries(
    ((await get('/system/status/ha')).json().repository.nodes as { node_id: string; status: string }[]).map((n) => [
      n.node_id,
      n.status,
    ]),
  )

describe('a cluster of two nodes', () => {
  it('shows both nodes Online, each reachable at the address it listens on', async () => {
    // Both beat every HEARTBEAT_MS and count as Offline after three missed beats: building the
    // second app in this same process can hold the first one's beats back longer than that on a
    // loaded machine, so both are waited for (each beats again as soon as its event loop is free).
    // So is every later "Online" below.
    const both = await eventually(nodesOf, (n) => n['node-one'] === 'Online' && n['node-two'] === 'Online')
    expect(both).toEqual({ 'node-one': 'Online', 'node-two': 'Online' })
    // A node learns the address it listens on once listening (an onListen hook, which listen() does
    // not wait for) and writes it with its next beat.
    const nodes = await eventually(
      async () => (await get('/system/status/ha')).json().repository.nodes as { url: string }[],
      (list) => list.every((n) => n.url !== ''),
    )
    expect(nodes.map((n: { url: string }) => n.url)).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    ])
  })

  it('answers a log request for the other node from that node', async () => {
    two.logger.info('only node two writes this line')
    const config = (await get('/system/logs/config/repository?nodeId=node-two')).json()
    expect(config.logs).toEqual(['trove.log'])
    const data = (await get('/system/logs/data/repository?nodeId=node-two&id=trove.log')).json()
    expect(data.log_content).toContain('only node two writes this line')
    const own = (await get('/system/logs/data/repository?nodeId=node-one&id=trove.log')).json()
    expect(own.log_content).not.toContain('only node two writes this line')
  })

  it('stops taking a token on the other node within the caller cache time once it is revoked', async () => {
    const created = await one.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      payload: { expiresIn: 600 },
    })
    const { access_token, token_id } = created.json()
    const onTwo = () =>
      two.fastify.inject({
        method: 'GET',
        url: '/ui/api/v1/ui/userIdentifyToken',
        headers: { authorization: `Bearer ${access_token}` },
      })
    expect((await onTwo()).statusCode).toBe(200)
    const revoked = await one.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/userIdentifyToken/id/${token_id}`,
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
    })
    expect(revoked.statusCode).toBe(204)
    const at = Date.now()
    const status = await eventually(
      async () => (await onTwo()).statusCode,
      (code) => code === 401,
      CALLER_CACHE_MS + 2000,
    )
    expect(status).toBe(401)
    expect(Date.now() - at).toBeLessThan(CALLER_CACHE_MS + 1000)
  })

  it('shows each node what it last saw of the other, at its address', async () => {
    type Sighting = { peerId: string; status: string; peerLastHeartbeat: number; observedAt: number }
    type PeerNode = { nodeId: string; url: string; status: string; self: boolean; sees: Sighting[] }
    const peers = async () => (await get('/system/status/peers')).json().nodes as PeerNode[]
    const seen = await eventually(peers, (nodes) => nodes.every((n) => n.sees.length === 1))
    expect(seen.map((n) => [n.nodeId, n.status, n.self, n.sees.map((s) => [s.peerId, s.status])])).toEqual([
      ['node-one', 'Online', true, [['node-two', 'Online']]],
      ['node-two', 'Online', false, [['node-one', 'Online']]],
    ])
    for (const n of seen) expect(n.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    // The sightings move on with every heartbeat.
    const before = seen[1]?.sees[0]?.observedAt ?? 0
    const later = await eventually(peers, (nodes) => (nodes[1]?.sees[0]?.observedAt ?? 0) > before)
    expect(later[1]?.sees[0]?.observedAt).toBeGreaterThan(before)
  })

  it('sees a stopped node go Offline, removes it, and keeps serving', async () => {
    await two.close()
    expect(await eventually(nodesOf, (n) => n['node-two'] === 'Offline' && n['node-one'] === 'Online')).toEqual({
      'node-one': 'Online',
      'node-two': 'Offline',
    })
    // Node one's last sighting of node two shows the heartbeat that stopped, read on a later beat.
    const sighting = async () =>
      (await get('/system/status/peers')).json().nodes[0].sees[0] as {
        status: string
        peerLastHeartbeat: number
        observedAt: number
      }
    const stale = await eventually(sighting, (s) => s.status === 'Offline')
    expect(stale.status).toBe('Offline')
    expect(stale.observedAt - stale.peerLastHeartbeat).toBeGreaterThan(HEARTBEAT_MS * 3)
    const logs = await get('/system/logs/data/repository?nodeId=node-two&id=trove.log')
    expect(logs.statusCode).toBe(503)
    expect(logs.json().errors[0].message).toBe('Node node-two is offline')

    const serviceId = (await get('/system/status/ha')).json().repository.nodes[1].service_id
    const removed = await one.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/access/api/v1/topology/${serviceId}/node-two`,
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
    })
    expect(removed.statusCode).toBe(204)
    expect(await eventually(nodesOf, (n) => n['node-one'] === 'Online')).toEqual({ 'node-one': 'Online' })
    // Node one no longer sees the removed node.
    const peers = (await get('/system/status/peers')).json().nodes
    expect(peers.map((n: { nodeId: string; sees: unknown[] }) => [n.nodeId, n.sees])).toEqual([['node-one', []]])
    // Still Online a few heartbeats later, and still serving.
    await new Promise((r) => setTimeout(r, HEARTBEAT_MS * 4))
    expect(await eventually(nodesOf, (n) => n['node-one'] === 'Online')).toEqual({ 'node-one': 'Online' })
    expect((await get('/ui/userSupport/listBundles')).statusCode).toBe(200)
  })
})
