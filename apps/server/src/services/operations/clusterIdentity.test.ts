import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestApp,
  type Session,
  sessionHeaders,
  signIn,
  type TestApp,
  tempDir,
  throwawayDatabase,
} from '../../../test/testApp.js'
import { type App, buildApp } from '../../app.js'
import { ConfigError, loadConfig } from '../../core/config.js'

/**
 * The cluster's identity lives in the database and its keys come from the master key: nodes with
 * separate data dirs form one cluster when they share TROVE_MASTER_KEY, and a node with another
 * key refuses to start, naming the setting.
 */
const API = '/ui/api/v1'
const newKey = () => crypto.randomBytes(32).toString('base64')

/** Another node on the same database with a data dir of its own. */
function nodeConfig(databaseUrl: string | undefined, env: Record<string, string>) {
  const dataDir = tempDir()
  return loadConfig({
    TROVE_DATA_DIR: dataDir,
    TROVE_DATABASE_URL: databaseUrl,
    TROVE_LOG_STDOUT: 'false',
    TROVE_WEB_DIR: path.join(dataDir, 'no-console'),
    ...env,
  })
}

describe('one node restarted', () => {
  it('keeps its identity when given its own key as TROVE_MASTER_KEY, and refuses another', async () => {
    const database = await throwawayDatabase()
    const dataDir = tempDir()
    const env = {
      TROVE_DATA_DIR: dataDir,
      TROVE_DATABASE_URL: database.url,
      TROVE_LOG_STDOUT: 'false',
      TROVE_WEB_DIR: path.join(dataDir, 'no-console'),
      TROVE_NODE_ID: 'solo',
    }
    try {
      const first = await buildApp(loadConfig(env))
      const identity = first.operations.cluster
      await first.close()
      // The data dir's own key, given as TROVE_MASTER_KEY: the same cluster, the same keys.
      const ownKey = fs.readFileSync(path.join(dataDir, 'secrets', 'master.key'), 'utf8').trim()
      const again = await buildApp(loadConfig({ ...env, TROVE_MASTER_KEY: ownKey }))
      expect(again.operations.cluster.id).toBe(identity.id)
      expect(again.operations.cluster.secret.equals(identity.secret)).toBe(true)
      await again.close()

      const refused = buildApp(loadConfig({ ...env, TROVE_MASTER_KEY: newKey() }))
      await expect(refused).rejects.toThrow(ConfigError)
      await expect(refused).rejects.toThrow(/TROVE_MASTER_KEY: this node's master key is not the one/)
    } finally {
      await database.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('takes the cluster id of a data dir an older release started', async () => {
    const dataDir = tempDir()
    fs.writeFileSync(path.join(dataDir, 'cluster.json'), JSON.stringify({ id: '0123456789abcdef', secret: 'old' }))
    const app = await buildApp(
      loadConfig({ TROVE_DATA_DIR: dataDir, TROVE_LOG_STDOUT: 'false', TROVE_WEB_DIR: path.join(dataDir, 'no-console') }),
    )
    try {
      // On PostgreSQL every test app has its own database; on SQLite its own file in the data dir.
      if (!process.env.TROVE_TEST_DATABASE_URL) expect(app.operations.cluster.id).toBe('0123456789abcdef')
    } finally {
      await app.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('names a malformed master key without printing it', () => {
    const bad = 'not-a-key-but-a-secret'
    const attempt = () => loadConfig({ TROVE_MASTER_KEY: bad })
    expect(attempt).toThrow(/TROVE_MASTER_KEY=\(hidden\): expected 32 bytes in base64/)
    expect(attempt).toThrow(expect.objectContaining({ message: expect.not.stringContaining(bad) }))
    const file = path.join(tempDir(), 'key')
    fs.writeFileSync(file, 'short')
    expect(() => loadConfig({ TROVE_MASTER_KEY_FILE: file })).toThrow(/TROVE_MASTER_KEY_FILE=.*expected 32 bytes in base64/)
    expect(() => loadConfig({ TROVE_MASTER_KEY_FILE: `${file}.missing` })).toThrow(/TROVE_MASTER_KEY_FILE=.*ENOENT/)
  })
})

// Two nodes on one database need PostgreSQL (a SQLite database is a file in one data dir).
describe.runIf(!!process.env.TROVE_TEST_DATABASE_URL)('two nodes on one database without a shared data dir', () => {
  const key = newKey()
  let a: TestApp
  let b: App
  let admin: Session

  beforeAll(async () => {
    a = await createTestApp({ TROVE_NODE_ID: 'node-a', TROVE_MASTER_KEY: key, TROVE_HEARTBEAT_MS: '150' })
    await a.fastify.listen({ host: '127.0.0.1', port: 0 })
    b = await buildApp(
      nodeConfig(a.config.databaseUrl, { TROVE_NODE_ID: 'node-b', TROVE_MASTER_KEY: key, TROVE_HEARTBEAT_MS: '150' }),
    )
    await b.fastify.listen({ host: '127.0.0.1', port: 0 })
    admin = await signIn(a.fastify)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  const on = (app: App, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.fastify.inject({ method, url: `${API}${url}`, headers: sessionHeaders(admin), payload })

  it('are one cluster: the same id, the same key for calls between them', () => {
    expect(b.operations.cluster.id).toBe(a.app.operations.cluster.id)
    expect(b.operations.cluster.secret.equals(a.app.operations.cluster.secret)).toBe(true)
  })

  it('refuse a third node with another master key', async () => {
    const config = nodeConfig(a.config.databaseUrl, { TROVE_NODE_ID: 'node-c', TROVE_MASTER_KEY: newKey() })
    await expect(buildApp(config)).rejects.toThrow(/TROVE_MASTER_KEY: this node's master key is not the one/)
    // Without any key it makes one of its own, which is just as wrong.
    const keyless = nodeConfig(a.config.databaseUrl, { TROVE_NODE_ID: 'node-d' })
    await expect(buildApp(keyless)).rejects.toThrow(ConfigError)
  })

  it("reads a node's logs through the other", async () => {
    const res = await on(b, 'GET', '/system/logs/config/repository?nodeId=node-a')
    expect(res.statusCode).toBe(200)
    expect(res.json().logs).toContain('trove.log')
  })

  it('downloads a support bundle through the node that did not write it, and deletes its file there', async () => {
    const made = await on(a.app, 'POST', '/ui/userSupport/generateBundle', { name: 'far away', parameters: { system: true } })
    expect(made.statusCode).toBe(201)
    const id = made.json().id as string
    await a.app.operations.idle()
    const file = path.join(a.dataDir, 'support', `${id}.zip`)
    const local = fs.readFileSync(file)

    const download = await on(b, 'GET', `/ui/userSupport/downloadBundle/${id}`)
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('application/zip')
    expect(Number(download.headers['content-length'])).toBe(local.length)
    expect(download.rawPayload.equals(local)).toBe(true)

    expect((await on(b, 'DELETE', `/ui/userSupport/deleteBundle/${id}`)).statusCode).toBe(204)
    expect(fs.existsSync(file)).toBe(false)
    expect((await on(a.app, 'GET', `/ui/userSupport/downloadBundle/${id}`)).statusCode).toBe(404)
  })

  it('removes at start the file of a bundle deleted while its node was away', async () => {
    const dir = path.join(a.dataDir, 'support')
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'gone-while-away.zip'), 'zip')
    expect(await a.app.operations.sweepBundles()).toBe(1)
    expect(fs.existsSync(path.join(dir, 'gone-while-away.zip'))).toBe(false)
  })

  it('refuses a peer call to delete a bundle that still exists, and an unsigned one', async () => {
    const made = await on(a.app, 'POST', '/ui/userSupport/generateBundle', { name: 'kept', parameters: { system: true } })
    const id = made.json().id as string
    await a.app.operations.idle()
    const unsigned = await a.fastify.inject({ method: 'DELETE', url: `${API}/system/cluster/bundles/${id}` })
    expect(unsigned.statusCode).toBe(401)
    expect(fs.existsSync(path.join(a.dataDir, 'support', `${id}.zip`))).toBe(true)
  })
})
