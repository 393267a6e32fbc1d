import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, npmPublishBody } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { type App, buildApp } from '../../app.js'
import { loadConfig } from '../../core/config.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const LODASH = 'GHSA-35jh-r3h4-6jhm'

/**
 * The scanner on a node of its own: one node serves the repositories (no scanner), another runs
 * only the scanner, on the same database and data dir. What the first stores, the second scans;
 * service status shows each service on its node.
 */
describe('a scanner node beside a repository node', () => {
  let repository: TestApp
  let scanner: App
  let admin: Session

  beforeAll(async () => {
    repository = await createTestApp({ TROVE_NODE_ID: 'repo-node', TROVE_MODULES: 'repository', TROVE_HEARTBEAT_MS: '200' })
    scanner = await buildApp(
      loadConfig({
        TROVE_DATA_DIR: repository.dataDir,
        TROVE_DATABASE_URL: repository.config.databaseUrl,
        TROVE_LOG_STDOUT: 'false',
        TROVE_LOG_DIR: path.join(repository.dataDir, 'logs', 'scan-node'),
        TROVE_WEB_DIR: path.join(repository.dataDir, 'no-console'),
        TROVE_NODE_ID: 'scan-node',
        TROVE_MODULES: 'scanner',
        TROVE_HEARTBEAT_MS: '200',
        TROVE_SCAN_POLL_MS: '100',
      }),
    )
    await scanner.fastify.ready()
    admin = await signIn(repository.fastify)
    await createRepo(repository.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
  }, 60_000)
  afterAll(async () => {
    await scanner?.close()
    await repository?.close()
  })

  it('scans on the scanner node what the repository node stored, and the repository node never scans', async () => {
    const advisory = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${LODASH}.json`), 'utf8'))
    // The advisory database is the cluster's: an import through either node is seen by both.
    const imported = await repository.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/xray/ui/admin/database/import',
      headers: sessionHeaders(admin),
      payload: [advisory],
    })
    expect(imported.statusCode, imported.body).toBe(200)
    const base = await listen(repository.fastify)
    const token = await accessToken(repository.fastify, admin)
    const { body } = await npmPublishBody(base, 'npm-local', { name: 'lodash', version: '4.17.20', license: 'MIT' })
    const published = await repository.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-local/lodash',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: body,
    })
    expect(published.statusCode, published.body).toBe(201)

    const summary = () =>
      repository.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/xray/ui/component/summary',
        headers: sessionHeaders(admin),
        payload: { package_id: 'npm://lodash', version: '4.17.20' },
      })
    const until = Date.now() + 10_000
    let state = (await summary()).json()
    while (state.state !== 'scanned' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50))
      state = (await summary()).json()
    }
    expect(state).toMatchObject({ state: 'scanned', counts: { high: 1 } })
    const claimedBy = await repository.app.db.kysely.selectFrom('scan_status').select('claimed_by').executeTakeFirstOrThrow()
    expect(claimedBy.claimed_by).toMatch(/^scan-node#/)
  })

  it('shows each service on its own node in service status', async () => {
    const status = await repository.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/system/status/ha',
      headers: { cookie: admin.cookie },
    })
    const nodes = (service: string) =>
      (status.json()[service].nodes as { node_id: string; status: string }[]).map((n) => `${n.node_id} ${n.status}`)
    expect(nodes('repository')).toEqual(['repo-node Online'])
    expect(nodes('scanner')).toEqual(['scan-node Online'])
  })
})
