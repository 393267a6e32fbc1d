import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, npmPublishBody } from '../../../test/clients.js'
import { createTestApp, signIn, type TestApp } from '../../../test/testApp.js'

/**
 * Which versions the scanner claims, with its poll out of the way (an hour): what it hears of the
 * writes alone must bring every version without a status to a scan, also one below those it has
 * already claimed (a version whose content changed loses its status).
 */
describe('the scan queue', () => {
  let t: TestApp
  let token: string

  const publish = async (name: string, version: string) => {
    const { body } = await npmPublishBody('http://trove.test', 'queue-npm', { name, version, license: 'MIT' })
    const res = await t.fastify.inject({
      method: 'PUT',
      url: `/api/npm/queue-npm/${name}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    })
    expect(res.statusCode, res.body).toBe(201)
  }
  const statuses = async () =>
    t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .leftJoin('scan_status as s', 's.version_id', 'v.id')
      .select(['v.id', 'p.name', 's.state', 's.scanned_at'])
      .where('v.repo_key', '=', 'queue-npm')
      .orderBy('v.id')
      .execute()

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner', TROVE_SCAN_POLL_MS: '3600000' })
    const admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    await createRepo(t.fastify, admin, 'queue-npm', { rclass: 'local', packageType: 'npm' })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('scans each version stored, one after another', async () => {
    for (let i = 0; i < 5; i++) {
      await publish(`queue-${i}`, '1.0.0')
      await t.app.scanner.idle()
    }
    const rows = await statuses()
    expect(rows).toHaveLength(5)
    expect(rows.map((r) => r.state)).toEqual(Array(5).fill('scanned'))
  })

  it('scans again a version below the last one claimed once its status is dropped', async () => {
    const [first, second] = await statuses()
    if (!first || !second) throw new Error('no versions')
    // What a stored version whose content changed goes through (storage/artifacts.ts).
    await t.app.db.kysely.deleteFrom('scan_status').where('version_id', '=', first.id).execute()
    await t.app.scanner.idle()
    await publish('queue-late', '1.0.0')
    await t.app.scanner.idle()
    const rows = await statuses()
    expect(rows.find((r) => r.id === first.id)?.state).toBe('scanned')
    expect(rows.find((r) => r.id === first.id)?.scanned_at).toBeGreaterThan(second.scanned_at ?? 0)
    expect(rows.map((r) => r.state)).toEqual(Array(6).fill('scanned'))
  })

  it('scans again every version when the statuses are dropped all at once', async () => {
    await t.app.db.kysely.deleteFrom('scan_status').execute()
    await t.app.scanner.idle()
    const rows = await statuses()
    expect(rows.map((r) => r.state)).toEqual(Array(6).fill('scanned'))
  })
})
