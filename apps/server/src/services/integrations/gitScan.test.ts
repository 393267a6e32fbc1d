import fs from 'node:fs'
import path from 'node:path'
import type { GitRepoFindingsPage, SelectedRepository } from '@trove/contracts/gitIntegrations'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GitServer, startGitServer } from '../../../test/gitServer.js'
import { expectedGitAuthorization, startVendor, type VendorStandIn } from '../../../test/gitVendors.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

// A selected repository's dependency manifests are scanned from its clone, and the selection
// listing and the findings call show what was found.
const VCS = '/ui/api/v1/xray/ui/vcs_integrations'
const FIXTURES = path.join(import.meta.dirname, '../../../test/fixtures/osv')
const LODASH = 'GHSA-35jh-r3h4-6jhm' // npm lodash and lodash-es before 4.17.21, high
const REQUESTS = 'GHSA-j8r2-6x86-q33q' // PyPI requests 2.3.0 to 2.31.0, medium

const packageLock = (lodash: string) =>
  JSON.stringify({
    name: 'api',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'api', version: '1.0.0', dependencies: { lodash, 'lodash-es': lodash } },
      'node_modules/lodash': { version: lodash, resolved: `https://registry.npmjs.org/lodash/-/lodash-${lodash}.tgz` },
      'node_modules/lodash-es': { version: lodash, resolved: `https://registry.npmjs.org/lodash-es/-/lodash-es-${lodash}.tgz` },
    },
  })

let t: TestApp
let admin: Session
let alice: Session
let git: GitServer
let gitlab: VendorStandIn
let key = ''
let firstHead = ''

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, session = admin) =>
  t.fastify.inject({ method, url, headers: sessionHeaders(session), ...(payload ? { payload } : {}) })

/** The selection once every clone finished and the scanner read every clone. */
async function scanned(): Promise<SelectedRepository[]> {
  await t.app.gitIntegrations.idle()
  t.app.scanner.wake()
  await t.app.scanner.idle()
  const res = await call('GET', `${VCS}/${key}/selected`)
  expect(res.statusCode).toBe(200)
  return res.json()
}

const findings = (repository: string, page = 1, session = admin) =>
  call('POST', `${VCS}/${key}/repositories/findings`, { repository, page }, session)

beforeAll(async () => {
  t = await createTestApp({ TROVE_MODULES: 'repository,scanner', TROVE_GIT_RETEST_INTERVAL_S: '0' })
  admin = await signIn(t.fastify)
  const created = await call('POST', '/ui/api/v1/ui/admin/users', {
    name: 'alice',
    password: 'alice-password-1',
    email: 'alice@example.com',
  })
  expect(created.statusCode).toBe(201)
  alice = await signIn(t.fastify, 'alice', 'alice-password-1')

  git = await startGitServer(expectedGitAuthorization('gitlab', 'ada', 'glpat-scan-token'))
  firstHead = git.addRepository('platform/api', {
    'package.json': JSON.stringify({ name: 'api', version: '1.0.0', dependencies: { lodash: '4.17.20' } }),
    'package-lock.json': packageLock('4.17.20'),
    'requirements.txt': 'requests==2.30.0\nflask==3.0.0\n',
  })
  git.addRepository('platform/docs', { 'README.md': '# Docs\n' })
  gitlab = await startVendor('gitlab', {
    userName: 'ada',
    token: 'glpat-scan-token',
    repositories: ['platform/api', 'platform/docs', 'platform/web'],
    cloneUrl: git.cloneUrl,
  })
  const integration = await call('POST', '/ui/api/v1/integration', {
    integrationName: 'GitLab',
    vendorName: 'gitlab',
    integrationType: 'git',
    url: gitlab.url,
    userName: 'ada',
    token: 'glpat-scan-token',
  })
  expect(integration.statusCode).toBe(201)
  key = integration.json().data
  const imported = await call(
    'POST',
    '/ui/api/v1/xray/ui/admin/database/import',
    [LODASH, REQUESTS].map((id) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${id}.json`), 'utf8'))),
  )
  expect(imported.statusCode, imported.body).toBe(200)
})
afterAll(async () => {
  await t?.close()
  await gitlab?.close()
  await git?.close()
})

describe('scanning the repositories selected through a git integration', () => {
  it('lists each repository as waiting until its clone is read', async () => {
    const res = await call('PUT', `${VCS}/${key}/selected`, { repositories: ['platform/api', 'platform/docs'] })
    expect(res.statusCode).toBe(200)
    for (const r of res.json() as SelectedRepository[])
      expect(r.scan).toEqual({ state: 'waiting', reason: null, commit: null, scannedAt: null, counts: null })
  })

  it('lists the scanned commit and the distinct advisories by severity', async () => {
    const before = Date.now()
    const rows = await scanned()
    const api = rows.find((r) => r.fullName === 'platform/api')
    expect(api).toMatchObject({ status: 'cloned', headCommit: firstHead })
    expect(api?.scan).toMatchObject({
      state: 'scanned',
      reason: null,
      commit: firstHead,
      // lodash and lodash-es carry one advisory: it counts once.
      counts: { critical: 0, high: 1, medium: 1, low: 0, unknown: 0 },
    })
    expect(api?.scan.scannedAt).toBeGreaterThanOrEqual(before)
    // A repository without manifests is scanned and clean.
    expect(rows.find((r) => r.fullName === 'platform/docs')?.scan).toMatchObject({
      state: 'scanned',
      counts: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 },
    })
  })

  it("answers a repository's findings, worst first, with the manifest each came from", async () => {
    const res = await findings('platform/api')
    expect(res.statusCode).toBe(200)
    const page = res.json() as GitRepoFindingsPage
    expect(page.total_count).toBe(3)
    expect(page.data.map((f) => [f.advisory_id, f.component, f.version, f.path, f.severity])).toEqual([
      [LODASH, expect.stringMatching(/^lodash(-es)?$/), '4.17.20', 'package-lock.json', 'high'],
      [LODASH, expect.stringMatching(/^lodash(-es)?$/), '4.17.20', 'package-lock.json', 'high'],
      [REQUESTS, 'requests', '2.30.0', 'requirements.txt', 'medium'],
    ])
    expect(new Set(page.data.slice(0, 2).map((f) => f.component))).toEqual(new Set(['lodash', 'lodash-es']))
    expect(page.data[0]).toMatchObject({
      ecosystem: 'npm',
      aliases: ['CVE-2021-23337'],
      summary: 'Command Injection in lodash',
      fixed_versions: ['4.17.21'],
    })
    expect(page.data[2]).toMatchObject({ ecosystem: 'PyPI', aliases: ['CVE-2023-32681'], fixed_versions: ['2.31.0'] })

    const clean = await findings('platform/docs')
    expect(clean.json()).toEqual({ total_count: 0, data: [] })
  })

  it('pages the findings 20 at a time', async () => {
    const second = await findings('platform/api', 2)
    expect(second.statusCode).toBe(200)
    expect(second.json()).toEqual({ total_count: 3, data: [] })
  })

  it('answers 404 for a repository that is not selected, and 400 without one', async () => {
    const missing = await findings('platform/web')
    expect(missing.statusCode).toBe(404)
    expect(missing.json().errors[0].message).toMatch(/platform\/web is not selected/)
    const unknown = await call('POST', `${VCS}/gitlab-000000000000/repositories/findings`, {
      repository: 'platform/api',
      page: 1,
    })
    expect(unknown.statusCode).toBe(404)
    const bad = await call('POST', `${VCS}/${key}/repositories/findings`, { page: 1 })
    expect(bad.statusCode).toBe(400)
  })

  it('scans a new commit: choosing the repository again clones and reads it afresh', async () => {
    const fixed = git.commit('platform/api', {
      'package-lock.json': packageLock('4.17.21'),
      'requirements.txt': 'requests==2.31.0\n',
    })
    expect(fixed).not.toBe(firstHead)
    expect((await call('PUT', `${VCS}/${key}/selected`, { repositories: ['platform/docs'] })).statusCode).toBe(200)
    expect((await findings('platform/api')).statusCode).toBe(404)
    expect((await call('PUT', `${VCS}/${key}/selected`, { repositories: ['platform/api', 'platform/docs'] })).statusCode).toBe(
      200,
    )
    const api = (await scanned()).find((r) => r.fullName === 'platform/api')
    expect(api).toMatchObject({ headCommit: fixed })
    expect(api?.scan).toMatchObject({
      state: 'scanned',
      commit: fixed,
      counts: { critical: 0, high: 0, medium: 0, low: 0, unknown: 0 },
    })
    expect((await findings('platform/api')).json()).toEqual({ total_count: 0, data: [] })
    // The first clone's findings went with its row.
    const left = await t.app.db.kysely
      .selectFrom('scan_findings')
      .select('git_repo_id')
      .where('git_repo_id', 'is not', null)
      .execute()
    expect(left).toEqual([])
  })

  it('clones the selection again when due, so a commit pushed since is scanned; one node takes each row', async () => {
    const vulnerable = git.commit('platform/api', {
      'package-lock.json': packageLock('4.17.20'),
      'requirements.txt': 'requests==2.31.0\n',
    })
    // Not due yet: nothing is cloned again.
    expect(await t.app.gitIntegrations.refreshDue()).toBe(0)
    const later = Date.now() + 3600_000 + 1000
    expect(await t.app.gitIntegrations.refreshDue(later)).toBe(2)
    // The rows are claimed: a second node asking at the same moment gets none.
    expect(await t.app.gitIntegrations.refreshDue(later)).toBe(0)
    const api = (await scanned()).find((r) => r.fullName === 'platform/api')
    expect(api).toMatchObject({ status: 'cloned', headCommit: vulnerable })
    expect(api?.scan).toMatchObject({ state: 'scanned', commit: vulnerable, counts: { high: 1 } })
  })

  it('keeps the last clone when cloning again fails, and says why', async () => {
    const before = (await scanned()).find((r) => r.fullName === 'platform/docs')
    expect(before?.status).toBe('cloned')
    git.remove('platform/docs')
    expect(await t.app.gitIntegrations.refreshDue(Date.now() + 2 * 3600_000 + 2000)).toBeGreaterThan(0)
    const docs = (await scanned()).find((r) => r.fullName === 'platform/docs')
    expect(docs).toMatchObject({ status: 'cloned', headCommit: before?.headCommit })
    expect(docs?.error).toBeTruthy()
    expect(docs?.scan.state).toBe('scanned')
  })

  it('says why a repository whose clone failed is not scanned', async () => {
    // The vendor lists platform/web, but the git server has no such repository.
    expect(
      (await call('PUT', `${VCS}/${key}/selected`, { repositories: ['platform/api', 'platform/docs', 'platform/web'] }))
        .statusCode,
    ).toBe(200)
    const web = (await scanned()).find((r) => r.fullName === 'platform/web')
    expect(web?.status).toBe('failed')
    expect(web?.scan).toEqual({
      state: 'not_scanned',
      reason: 'The repository could not be cloned',
      commit: null,
      scannedAt: null,
      counts: null,
    })
  })

  it('refuses a user who is not an administrator', async () => {
    expect((await call('GET', `${VCS}/${key}/selected`, undefined, alice)).statusCode).toBe(403)
    expect((await findings('platform/api', 1, alice)).statusCode).toBe(403)
  })
})
