import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { FAILED_BY_POLICY } from './buildScan.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const LODASH = 'GHSA-35jh-r3h4-6jhm'

/** Watches on builds and projects: a build run is judged by its artifacts' and dependencies' scans. */
describe('build scans and project watches', () => {
  let t: TestApp
  let admin: Session
  let token: string
  let work: string
  let lodashSums: { sha1: string; sha256: string }
  const ui = '/ui/api/v1/xray/ui'
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, session = admin) =>
    t.fastify.inject({ method, url, headers: sessionHeaders(session), payload })
  const scanBuild = (buildName: string, buildNumber: string, session = admin) =>
    call('POST', '/xray/api/v1/scanBuild', { buildName, buildNumber }, session)
  const publishRun = async (name: string, number: string, sums: { sha1: string; sha256: string }) => {
    const res = await call('PUT', '/api/build', {
      version: '1.0.1',
      name,
      number,
      started: '2026-11-25T10:00:00.000+0000',
      modules: [
        {
          id: 'org.example:app:1.0.0',
          artifacts: [{ name: 'app.tgz', sha1: 'f'.repeat(40), sha256: 'e'.repeat(64) }],
          dependencies: [{ id: 'lodash:4.17.20', ...sums }],
        },
      ],
    })
    expect(res.statusCode, res.body).toBe(204)
  }

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    const base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-build-scan-')
    await createRepo(t.fastify, admin, 'acme-npm', { rclass: 'local', packageType: 'npm' })
    const advisory = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${LODASH}.json`), 'utf8'))
    expect((await call('POST', `${ui}/admin/database/import`, [advisory])).statusCode).toBe(200)
    // lodash 4.17.20, published with the real npm client into the acme project's repository.
    const registry = `${base}/api/npm/acme-npm/`
    const dir = writeFiles(path.join(work, 'lodash'), {
      'package.json': JSON.stringify({ name: 'lodash', version: '4.17.20', license: 'MIT' }),
      'index.js': 'module.exports = 1\n',
      '.npmrc': `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`,
    })
    const published = await run('npm', ['publish'], {
      cwd: dir,
      env: { npm_config_userconfig: path.join(dir, '.npmrc'), npm_config_cache: path.join(work, 'cache') },
    })
    expect(published.code, published.stderr).toBe(0)
    await t.app.scanner.idle()
    const file = await call('GET', '/api/storage/acme-npm/lodash/-/lodash-4.17.20.tgz')
    expect(file.statusCode, file.body).toBe(200)
    lodashSums = { sha1: file.json().checksums.sha1, sha256: file.json().checksums.sha256 }
    expect(
      (await call('POST', `${ui}/admin/policies`, { name: 'no-high', minSeverity: 'high', actions: { failBuild: true } }))
        .statusCode,
    ).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('passes a build no watch names, and answers 404 for a run that does not exist', async () => {
    await publishRun('ci-app', '1', lodashSums)
    const res = await scanBuild('ci-app', '1')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().summary).toMatchObject({ total_alerts: 0, fail_build: false })
    expect((await scanBuild('ci-app', '99')).statusCode).toBe(404)
    expect((await scanBuild('', '1')).statusCode).toBe(400)
  })

  it('fails a watched build whose dependency has a high advisory, and marks the run failed', async () => {
    expect(
      (await call('POST', `${ui}/admin/watches`, { name: 'ci', builds: ['ci-app'], policies: ['no-high'] })).statusCode,
    ).toBe(201)
    const res = await scanBuild('ci-app', '1')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().summary).toMatchObject({ total_alerts: 1, fail_build: true })
    expect(res.json().summary.more_details_url).toMatch(/\/ui\/builds\/ci-app\/1$/)
    expect(res.json().alerts[0]).toMatchObject({ top_severity: 'high' })
    expect(res.json().alerts[0].issues).toEqual([
      expect.objectContaining({
        issue_id: LODASH,
        watch: 'ci',
        policy: 'no-high',
        fail_build: true,
        component: 'lodash@4.17.20',
        impacted_artifact: 'npm://lodash:4.17.20 (acme-npm)',
      }),
    ])
    // The build record says so: its latest status, on the run and in the builds list; once, however often it is scanned.
    await scanBuild('ci-app', '1')
    const info = (await call('GET', '/api/build/ci-app/1')).json()
    const failed = (info.buildInfo ?? info).statuses.filter((s: { status: string }) => s.status === FAILED_BY_POLICY)
    expect(failed).toHaveLength(1)
    expect(failed[0].comment).toContain(LODASH)
    const list = await call('GET', '/ui/api/v1/ui/builds')
    expect(list.body).toContain(FAILED_BY_POLICY)
  })

  it('passes a run whose dependencies Trove does not hold', async () => {
    await publishRun('ci-app', '2', { sha1: 'a'.repeat(40), sha256: 'b'.repeat(64) })
    expect((await scanBuild('ci-app', '2')).json().summary).toMatchObject({ total_alerts: 0, fail_build: false })
  })

  it('keeps a build from a reader who may not read it, as if it did not exist', async () => {
    const made = await call('POST', '/ui/api/v1/ui/admin/users', {
      name: 'outsider',
      email: 'outsider@example.org',
      password: 'outsider-password-1',
    })
    expect(made.statusCode, made.body).toBe(201)
    const outsider = await signIn(t.fastify, 'outsider', 'outsider-password-1')
    expect((await scanBuild('ci-app', '1', outsider)).statusCode).toBe(404)
  })

  it('applies a watch on a project to its repositories (keys <project>-…)', async () => {
    const before = (await call('GET', `${ui}/admin/violations?type=security`)).json()
    expect(before.filter((v: { watch: string }) => v.watch === 'acme')).toEqual([])
    expect(
      (await call('POST', `${ui}/admin/watches`, { name: 'acme', projects: ['acme'], policies: ['no-high'] })).statusCode,
    ).toBe(201)
    const after = (await call('GET', `${ui}/admin/violations?type=security`)).json()
    expect(after).toContainEqual(expect.objectContaining({ watch: 'acme', repo: 'acme-npm', issue: LODASH }))
    // A project named "acm" does not cover acme-npm.
    await call('PUT', `${ui}/admin/watches/acme`, { name: 'acme', projects: ['acm'], policies: ['no-high'] })
    const narrower = (await call('GET', `${ui}/admin/violations?type=security`)).json()
    expect(narrower.filter((v: { watch: string }) => v.watch === 'acme')).toEqual([])
  })
})
