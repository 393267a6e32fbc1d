import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, npmPublishBody } from '../../test/clients.js'
import { createTestApp, signIn, type TestApp } from '../../test/testApp.js'

/** Download counts: gathered per node and written in a few statements, per file, version and package. */
describe('download counts', () => {
  let t: TestApp
  let headers: Record<string, string>

  beforeAll(async () => {
    t = await createTestApp()
    const admin = await signIn(t.fastify)
    headers = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
    await createRepo(t.fastify, admin, 'npm-counted', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'generic-counted', { rclass: 'local', packageType: 'generic' })
    for (const version of ['1.0.0', '1.1.0']) {
      const { body } = await npmPublishBody('http://localhost', 'npm-counted', { name: 'counted', version })
      const res = await t.fastify.inject({ method: 'PUT', url: '/api/npm/npm-counted/counted', headers, payload: body })
      expect(res.statusCode, res.body).toBe(201)
    }
    const put = await t.fastify.inject({ method: 'PUT', url: '/artifactory/generic-counted/tools/a.bin', headers, payload: 'a' })
    expect(put.statusCode, put.body).toBe(201)
  })
  afterAll(async () => {
    await t.close()
  })

  it('counts each file, each version and their package, from downloads of several files at once', async () => {
    const get = async (url: string, times: number) => {
      for (let i = 0; i < times; i++) expect((await t.fastify.inject({ url, headers })).statusCode).toBe(200)
    }
    const before = Date.now()
    await Promise.all([
      get('/api/npm/npm-counted/counted/-/counted-1.0.0.tgz', 3),
      get('/api/npm/npm-counted/counted/-/counted-1.1.0.tgz', 2),
      get('/artifactory/generic-counted/tools/a.bin', 4),
    ])
    const db = t.app.db.kysely
    await vi.waitFor(
      async () => {
        const files = await db
          .selectFrom('files')
          .select(['name', 'download_count', 'last_downloaded_at'])
          .where('repo_key', 'in', ['npm-counted', 'generic-counted'])
          .where('name', 'in', ['a.bin', 'counted-1.0.0.tgz', 'counted-1.1.0.tgz'])
          .orderBy('name')
          .execute()
        expect(files.map((f) => [f.name, Number(f.download_count)])).toEqual([
          ['a.bin', 4],
          ['counted-1.0.0.tgz', 3],
          ['counted-1.1.0.tgz', 2],
        ])
        for (const f of files) expect(Number(f.last_downloaded_at)).toBeGreaterThanOrEqual(before)
      },
      { timeout: 5000 },
    )
    const versions = await db
      .selectFrom('package_versions')
      .select(['version', 'download_count'])
      .where('repo_key', '=', 'npm-counted')
      .orderBy('version')
      .execute()
    expect(versions.map((v) => [v.version, Number(v.download_count)])).toEqual([
      ['1.0.0', 3],
      ['1.1.0', 2],
    ])
    const pkg = await db.selectFrom('packages').select('downloads').where('name', '=', 'counted').executeTakeFirstOrThrow()
    expect(Number(pkg.downloads)).toBe(5)
  })
})
