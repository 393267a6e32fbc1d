import fs from 'node:fs'
import path from 'node:path'
import { advisoryDatabaseNotice } from '@trove/contracts/scanner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/**
 * A clean audit must not be read as "no vulnerabilities" when Trove knows of none at all: npm
 * prints the registry's notice that the advisory database is empty, or how old it is, and the
 * database screen's call says the same.
 */
describe('audits from an empty or stale advisory database', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let work: string
  const env = () => ({
    npm_config_userconfig: path.join(work, '.npmrc'),
    npm_config_cache: path.join(work, 'cache'),
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  })
  const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env: env() })

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    const token = await accessToken(t.fastify, admin)
    work = tempDir('trove-notice-')
    fs.writeFileSync(path.join(work, '.npmrc'), `${base.replace(/^http:/, '')}/api/npm/npm-local/:_authToken=${token}\n`)
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    const dir = writeFiles(path.join(work, 'lodash'), {
      'package.json': JSON.stringify({ name: 'lodash', version: '4.17.20', license: 'MIT' }),
      'index.js': 'module.exports = 1\n',
    })
    const published = await npm(['publish', '--registry', `${base}/api/npm/npm-local/`], dir)
    expect(published.code, published.stderr).toBe(0)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('npm audit prints that the database is empty, then how old it is, and nothing once it is current', async () => {
    const project = writeFiles(path.join(work, 'project'), {
      'package.json': JSON.stringify({ name: 'audited', version: '1.0.0', dependencies: { lodash: '4.17.20' } }),
      '.npmrc': `registry=${base}/api/npm/npm-local/\n`,
    })
    expect((await npm(['install', '--no-audit'], project)).code).toBe(0)
    const empty = advisoryDatabaseNotice(0, null) as string
    const first = await npm(['audit'], project)
    expect(first.stdout + first.stderr).toContain(`npm notice ${empty}`)

    // An advisory imported 30 days ago and nothing since: the database is stale.
    const db = t.app.db.kysely
    const month = Date.now() - 30 * 86_400_000
    await db
      .insertInto('advisory_imports')
      .values({
        source: 'upload:old.json',
        started_at: month,
        finished_at: month,
        state: 'done',
        records: 1,
        message: null,
        created_by: 'admin',
      })
      .execute()
    await db
      .insertInto('advisories')
      .values({
        id: 'TROVE-OLD-1',
        summary: 'old',
        details: '',
        severity: 'low',
        cvss_score: null,
        cvss_vector: null,
        aliases: '[]',
        refs: '[]',
        published: new Date(month).toISOString(),
        modified: new Date(month).toISOString(),
        withdrawn: null,
        imported_at: month,
      })
      .execute()
    const stale = await npm(['audit'], project)
    expect(stale.stdout + stale.stderr).toContain("npm notice Trove's advisory database was last updated 30 days ago")
    const status = await t.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/xray/ui/admin/database',
      headers: sessionHeaders(admin),
    })
    expect(status.json()).toMatchObject({ advisories: 1, updatedAt: month, notice: expect.stringMatching(/30 days ago/) })

    await db.updateTable('advisory_imports').set({ finished_at: Date.now() }).execute()
    const current = await npm(['audit'], project)
    expect(current.stdout + current.stderr).not.toContain('npm notice Trove')
  }, 120_000)
})
