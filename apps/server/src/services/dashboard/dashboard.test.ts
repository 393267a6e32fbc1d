import type { Dashboard } from '@trove/contracts/dashboard'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, grantRepos, npmPublishBody } from '../../../test/clients.js'
import { eventually } from '../../../test/cluster.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { userWithToken } from '../../identity/access/testUsers.js'
import { foldDeltas } from './rollup.js'

const URL = '/ui/api/v1/ui/dashboard'
const DAY_MS = 86_400_000
const today = () => new Date().toISOString().slice(0, 10)

describe('the Overview dashboard', () => {
  let t: TestApp
  let admin: Session
  let reader: { authorization: string }

  const dashboard = async (headers: Record<string, string>) => {
    const res = await t.fastify.inject({ url: URL, headers })
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as Dashboard
  }
  const asAdmin = () => dashboard({ cookie: admin.cookie })
  const put = async (repo: string, path: string, body: string) => {
    const res = await t.fastify.inject({
      method: 'PUT',
      url: `/artifactory/${repo}/${path}`,
      headers: sessionHeaders(admin),
      payload: body,
    })
    expect(res.statusCode, res.body).toBe(201)
  }
  const download = async (url: string, headers: Record<string, string> = { cookie: admin.cookie }) => {
    const res = await t.fastify.inject({ url, headers })
    expect(res.statusCode, res.body).toBe(200)
  }
  const db = () => t.app.db.kysely

  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
    await createRepo(t.fastify, admin, 'dash-files', { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'dash-hidden', { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'dash-npm', { rclass: 'local', packageType: 'npm' })
    reader = await userWithToken(t.fastify, sessionHeaders(admin), 'dash-reader')
    await grantRepos(t.fastify, admin, 'dash-read', { repos: ['dash-files', 'dash-npm'], user: 'dash-reader', actions: ['read'] })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('is for signed-in callers only', async () => {
    expect((await t.fastify.inject({ url: URL })).statusCode).toBe(401)
  })

  it('counts the bytes, files and uploads of stored files, per repository and per day, and takes away a deleted one', async () => {
    const before = await asAdmin()
    await put('dash-files', 'a/one.txt', 'x'.repeat(1000))
    await put('dash-files', 'a/two.txt', 'y'.repeat(500))
    await put('dash-hidden', 'secret.bin', 'z'.repeat(300))
    let d = await asAdmin()
    const files = d.repositories.find((r) => r.repoKey === 'dash-files')
    expect(files).toMatchObject({ bytes: 1500, files: 2, packageType: 'generic', rclass: 'local' })
    expect(d.totals.bytes - before.totals.bytes).toBe(1800)
    expect(d.totals.uploads - before.totals.uploads).toBe(3)
    expect(d.traffic.at(-1)).toMatchObject({ day: today() })
    expect(d.storage.at(-1)?.byRepository['dash-files']).toBe(1500)
    expect(d.storage).toHaveLength(30)

    // Replaced by other content: an upload, the new size; deleted: gone from the total.
    await put('dash-files', 'a/one.txt', 'w'.repeat(400))
    const del = await t.fastify.inject({
      method: 'DELETE',
      url: '/artifactory/dash-files/a/two.txt',
      headers: sessionHeaders(admin),
    })
    expect(del.statusCode, del.body).toBe(204)
    d = await asAdmin()
    expect(d.repositories.find((r) => r.repoKey === 'dash-files')).toMatchObject({ bytes: 400, files: 1 })
    expect(d.totals.uploads - before.totals.uploads).toBe(4)
  })

  it('counts downloads per day from the download-count flush, and ranks packages by downloads', async () => {
    const base = 'http://localhost'
    const published: [string, string][] = [
      ['dash-top', '1.0.0'],
      ['dash-second', '2.0.0'],
    ]
    for (const [name, version] of published) {
      const { body } = await npmPublishBody(base, 'dash-npm', { name, version })
      const res = await t.fastify.inject({
        method: 'PUT',
        url: `/api/npm/dash-npm/${name}`,
        headers: sessionHeaders(admin),
        payload: body,
      })
      expect(res.statusCode, res.body).toBeLessThan(300)
    }
    const before = await asAdmin()
    for (let i = 0; i < 3; i++) await download('/api/npm/dash-npm/dash-top/-/dash-top-1.0.0.tgz')
    await download('/api/npm/dash-npm/dash-second/-/dash-second-2.0.0.tgz')
    await download('/artifactory/dash-files/a/one.txt')
    // The counts reach the database within the flush's half second.
    const d = await eventually(asAdmin, (x) => x.totals.downloads - before.totals.downloads === 5)
    expect(d.traffic.at(-1)?.downloads).toBe((before.traffic.at(-1)?.downloads ?? 0) + 5)
    expect(d.topPackages.slice(0, 2)).toEqual([
      { packageType: 'npm', name: 'dash-top', latestVersion: '1.0.0', downloads: 3 },
      { packageType: 'npm', name: 'dash-second', latestVersion: '2.0.0', downloads: 1 },
    ])
    expect(d.repositories.find((r) => r.repoKey === 'dash-npm')?.downloads).toBe(4)
    expect(d.activity.filter((a) => a.kind === 'publish').map((a) => [a.name, a.version, a.actor, a.repoKey])).toEqual(
      expect.arrayContaining([
        ['dash-second', '2.0.0', 'admin', 'dash-npm'],
        ['dash-top', '1.0.0', 'admin', 'dash-npm'],
      ]),
    )
  })

  it('shows a plain user only the repositories they may read, their own sign-ins, and neither nodes nor the audit log', async () => {
    const mine = await dashboard(reader)
    const all = await asAdmin()
    expect(mine.scope).toBe('readable')
    expect(mine.repositories.map((r) => r.repoKey).sort()).toEqual(['dash-files', 'dash-npm'])
    expect(mine.totals.repositories).toBe(2)
    expect(mine.totals.bytes).toBe(all.totals.bytes - 300)
    expect(mine.nodes).toBeNull()
    expect(mine.activity.some((a) => a.kind === 'access')).toBe(false)
    expect(mine.activity.filter((a) => a.kind === 'signin').every((a) => a.actor === 'dash-reader')).toBe(true)
    expect(all.scope).toBe('instance')
    expect(all.activity.some((a) => a.kind === 'access' && a.action === 'permission.create')).toBe(true)
    expect(all.activity.some((a) => a.kind === 'signin' && a.actor === 'admin')).toBe(true)
  })

  it('draws storage growth from the daily rows: bytes at the end of each day', async () => {
    // Files stored on days past (a remote keeps its upstream's time; here written directly).
    const day = Math.floor(Date.now() / DAY_MS)
    await db()
      .insertInto('blobs')
      .values({ sha256: 'e'.repeat(64), size: 2000, md5: 'e'.repeat(32), sha1: 'e'.repeat(40), created_at: 0, touched_at: 0 })
      .execute()
    for (const [path, ago] of [
      ['old/ten.bin', 10],
      ['old/three.bin', 3],
    ] as const) {
      await db()
        .insertInto('files')
        .values({
          repo_key: 'dash-hidden',
          path,
          name: path,
          size: 2000,
          md5: 'e'.repeat(32),
          sha1: 'e'.repeat(40),
          sha256: 'e'.repeat(64),
          mime_type: 'application/octet-stream',
          created_at: (day - ago) * DAY_MS + 1000,
          modified_at: 0,
        })
        .execute()
    }
    const d = await asAdmin()
    const hidden = (i: number) => d.storage.at(i - 1)?.byRepository['dash-hidden']
    expect(hidden(0)).toBe(4300)
    expect(hidden(-3)).toBe(4000) // end of the day 3 days ago: both old files, not today's
    expect(hidden(-4)).toBe(2000)
    expect(hidden(-10)).toBe(2000)
    expect(hidden(-11)).toBe(0)
    expect(d.traffic.at(-4)?.uploads).toBe(1)
  })

  it('sums the scanner counts when a node runs the scanner, and lists the newest critical versions', async () => {
    expect((await asAdmin()).vulnerabilities).toBeNull()
    const now = Date.now()
    await db()
      .insertInto('nodes')
      .values({
        node_id: 'dash-node',
        url: 'http://127.0.0.1:1',
        version: '1',
        started_at: now,
        heartbeat_ms: 60_000,
        last_heartbeat: now,
      })
      .execute()
    await db()
      .insertInto('node_services')
      .values({ node_id: 'dash-node', service: 'scanner', started_at: now, last_heartbeat: now })
      .execute()
    const versions = await db()
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.id', 'p.name'])
      .where('v.repo_key', '=', 'dash-npm')
      .orderBy('p.name')
      .execute()
    const [second, top] = versions
    if (!second || !top) throw new Error('no versions')
    await db()
      .insertInto('scan_status')
      .values([
        { version_id: top.id, state: 'scanned', claimed_at: now, scanned_at: now - 1000, critical: 2, high: 1, medium: 0 },
        { version_id: second.id, state: 'scanned', claimed_at: now, scanned_at: now, critical: 0, high: 0, medium: 4 },
      ])
      .execute()
    let d = await asAdmin()
    expect(d.vulnerabilities?.counts).toEqual({ critical: 2, high: 1, medium: 4, low: 0, unknown: 0 })
    expect(d.vulnerabilities?.newestCritical).toMatchObject([
      { name: 'dash-top', version: '1.0.0', critical: 2, repoKey: 'dash-npm' },
    ])
    expect(d.nodes?.find((n) => n.nodeId === 'dash-node')).toMatchObject({ status: 'Online', services: ['scanner'] })

    // Rescanned with fewer; then the version deleted: its counts leave with it, once.
    await db().updateTable('scan_status').set({ critical: 1 }).where('version_id', '=', top.id).execute()
    expect((await asAdmin()).vulnerabilities?.counts.critical).toBe(1)
    const del = await t.fastify.inject({
      method: 'DELETE',
      url: '/api/npm/dash-npm/dash-second/-rev/1',
      headers: sessionHeaders(admin),
    })
    expect(del.statusCode, del.body).toBeLessThan(300)
    d = await asAdmin()
    expect(d.vulnerabilities?.counts).toEqual({ critical: 1, high: 1, medium: 0, low: 0, unknown: 0 })
    expect(d.activity.find((a) => a.kind === 'delete')).toMatchObject({
      name: 'dash-second',
      version: '2.0.0',
      repoKey: 'dash-npm',
    })
  })

  it('folds each change once, however many folds run at once', async () => {
    await put('dash-files', 'b/three.txt', 'q'.repeat(700))
    const dialect = t.app.db.dialect
    const folded = await Promise.all([foldDeltas(db(), dialect), foldDeltas(db(), dialect), foldDeltas(db(), dialect)])
    expect(folded.reduce((a, b) => a + b, 0)).toBe(1)
    const row = await db()
      .selectFrom('dashboard_repositories')
      .selectAll()
      .where('repo_key', '=', 'dash-files')
      .executeTakeFirstOrThrow()
    expect(Number(row.bytes)).toBe(1100)
    expect(await db().selectFrom('dashboard_deltas').select('id').execute()).toEqual([])
  })

  it('starts a repository made again under a deleted one’s key empty', async () => {
    const del = await t.fastify.inject({ method: 'DELETE', url: '/api/repositories/dash-files', headers: sessionHeaders(admin) })
    expect(del.statusCode, del.body).toBeLessThan(300)
    expect((await asAdmin()).repositories.some((r) => r.repoKey === 'dash-files')).toBe(false)
    await createRepo(t.fastify, admin, 'dash-files', { rclass: 'local', packageType: 'generic' })
    await put('dash-files', 'fresh.txt', 'f'.repeat(10))
    expect((await asAdmin()).repositories.find((r) => r.repoKey === 'dash-files')).toMatchObject({ bytes: 10, files: 1 })
  })
})
