import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'))
const LODASH = 'GHSA-35jh-r3h4-6jhm'
const MINIMIST = 'GHSA-xvch-5gv4-984h'

/** The scanner with the real npm client: stored versions are scanned, audits are answered offline. */
describe('the security scanner', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const env = () => ({
    npm_config_userconfig: path.join(work, '.npmrc'),
    npm_config_cache: path.join(work, 'cache'),
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'warn',
  })
  const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env: env() })
  const ui = '/ui/api/v1/xray/ui'
  const importJson = (body: unknown) =>
    t.fastify.inject({
      method: 'POST',
      url: `${ui}/admin/database/import`,
      headers: sessionHeaders(admin),
      payload: body as object,
    })
  const versions = async (pkg: string, filter: Record<string, unknown> = {}) => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/mds/versions',
      headers: sessionHeaders(admin),
      payload: {
        graphQL: {
          query: `query($filter: VersionFilter!) { versions(filter: $filter) { edges { node { name vulnerabilities { critical high medium low unknown } } } } }`,
          variables: { filter: { packageId: `npm://${pkg}`, ...filter } },
        },
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.versions.edges.map((e: { node: unknown }) => e.node) as {
      name: string
      vulnerabilities: Record<string, number> | null
    }[]
  }
  const findings = async (pkg: string, version: string) => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/component/paginatedsearch?direction=desc&num_of_rows=20&order_by=last_updated&page_num=1`,
      headers: sessionHeaders(admin),
      payload: { package_id: `npm://${pkg}`, version, all_components: false },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as { total_count: number; data: { component: string; advisory_id: string; fixed_versions: string[] }[] }
  }
  const publish = async (name: string, version: string, extra: object = {}) => {
    const dir = writeFiles(path.join(work, `${name}-${version}`), {
      'package.json': JSON.stringify({ name, version, license: 'MIT', ...extra }),
      'index.js': 'module.exports = 1\n',
    })
    const res = await npm(['publish', '--registry', `${base}/api/npm/npm-local/`], dir)
    expect(res.code, res.stderr).toBe(0)
  }

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-scan-')
    fs.writeFileSync(path.join(work, '.npmrc'), `${base.replace(/^http:/, '')}/api/npm/npm-local/:_authToken=${token}\n`)
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    const res = await importJson([fixture(`${LODASH}.json`)])
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().records).toBe(1)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('scans a version when it is stored: the package itself and the dependency it pins', async () => {
    await publish('lodash', '4.17.20')
    await publish('lodash', '4.17.21')
    await publish('scan-app', '1.0.0', { dependencies: { lodash: '4.17.20' } })
    await t.app.scanner.idle()
    const lodash = await versions('lodash')
    expect(lodash.find((v) => v.name === '4.17.20')?.vulnerabilities?.high).toBe(1)
    expect(lodash.find((v) => v.name === '4.17.21')?.vulnerabilities).toEqual({
      critical: 0,
      high: 0,
      medium: 0,
      low: 0,
      unknown: 0,
    })
    const app = await findings('scan-app', '1.0.0')
    expect(app.total_count).toBe(1)
    expect(app.data[0]).toMatchObject({
      component: 'lodash',
      version: '4.17.20',
      advisory_id: LODASH,
      fixed_versions: ['4.17.21'],
    })
  })

  it('filters versions by severity and by advisory or CVE id', async () => {
    expect((await versions('lodash', { severities: ['high'] })).map((v) => v.name)).toEqual(['4.17.20'])
    expect((await versions('lodash', { severities: ['critical'] })).map((v) => v.name)).toEqual([])
    expect((await versions('lodash', { cve: 'CVE-2021-23337' })).map((v) => v.name)).toEqual(['4.17.20'])
  })

  it('answers the security-compliance search: an advisory by CVE with the versions it impacts, versions by licence', async () => {
    const search = (session: Session, payload: object) =>
      t.fastify.inject({ method: 'POST', url: `${ui}/search/security`, headers: sessionHeaders(session), payload })
    const byCve = await search(admin, { query: 'cve-2021-23337' })
    expect(byCve.statusCode, byCve.body).toBe(200)
    expect(byCve.json().advisories).toHaveLength(1)
    expect(byCve.json().advisories[0]).toMatchObject({ id: LODASH, severity: 'high', impacted_count: 2 })
    expect(byCve.json().advisories[0].impacted).toEqual([
      expect.objectContaining({
        package_id: 'npm://lodash',
        version: '4.17.20',
        component: 'lodash',
        fixed_versions: ['4.17.21'],
      }),
      expect.objectContaining({
        package_id: 'npm://scan-app',
        version: '1.0.0',
        component: 'lodash',
        component_version: '4.17.20',
      }),
    ])
    // By the affected package's name, and with no text: the advisories found in stored versions.
    expect((await search(admin, { query: 'lodash' })).json().advisories.map((a: { id: string }) => a.id)).toEqual([LODASH])
    expect((await search(admin, { severities: ['high'] })).json().advisories.map((a: { id: string }) => a.id)).toEqual([LODASH])
    expect((await search(admin, { severities: ['critical'] })).json().advisories).toEqual([])
    const mit = (await search(admin, { licenses: ['mit'] })).json()
    expect(mit.advisories).toEqual([])
    expect(mit.licensed.map((v: { package_id: string; version: string }) => `${v.package_id}@${v.version}`)).toEqual([
      'npm://lodash@4.17.20',
      'npm://lodash@4.17.21',
      'npm://scan-app@1.0.0',
    ])
    expect(mit.licensed[0].licenses).toEqual(['MIT'])
    expect((await search(admin, { severities: ['severe'] })).statusCode).toBe(400)

    // A user who reads no repository learns of the advisory, but of no version it impacts.
    const made = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/users',
      headers: sessionHeaders(admin),
      payload: { name: 'outsider', email: 'outsider@example.org', password: 'outsider-password-1' },
    })
    expect(made.statusCode, made.body).toBe(201)
    const outsider = await signIn(t.fastify, 'outsider', 'outsider-password-1')
    const hidden = (await search(outsider, { query: 'CVE-2021-23337' })).json()
    expect(hidden.advisories[0]).toMatchObject({ id: LODASH, impacted: [], impacted_count: 0 })
    expect((await search(outsider, { licenses: ['MIT'] })).json().licensed).toEqual([])
    expect((await search(outsider, { severities: ['high'] })).json().advisories).toEqual([])
  })

  it('shows one advisory with its references and fixed versions', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/component/details/general`,
      headers: sessionHeaders(admin),
      payload: { id: LODASH },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: LODASH, aliases: ['CVE-2021-23337'], severity: 'high' })
    expect(res.json().affected[0]).toMatchObject({ ecosystem: 'npm', name: 'lodash', fixed: ['4.17.21'] })
    expect(res.json().references.length).toBeGreaterThan(0)
  })

  it('re-evaluates stored versions when an advisory naming them is imported, without reading them again', async () => {
    await publish('minimist', '1.2.5')
    await t.app.scanner.idle()
    expect((await versions('minimist'))[0]?.vulnerabilities?.critical).toBe(0)
    const res = await importJson(fixture(`${MINIMIST}.json`))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().reevaluated).toMatchObject({ versions: 1, components: 1 })
    expect((await versions('minimist'))[0]?.vulnerabilities?.critical).toBe(1)
  })

  it('refuses a malformed record naming it and the field, and imports nothing of that file', async () => {
    const before = (await t.fastify.inject({ method: 'GET', url: `${ui}/admin/database`, headers: sessionHeaders(admin) })).json()
    const good = { ...fixture(`${LODASH}.json`), id: 'TROVE-TEST-1' }
    const bad = {
      ...fixture(`${MINIMIST}.json`),
      id: 'TROVE-TEST-2',
      affected: [{ package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'SEMVER', events: [{}] }] }],
    }
    const res = await importJson([good, bad])
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/TROVE-TEST-2.*affected\[0\]\.ranges\[0\]\.events\[0\]/)
    const after = (await t.fastify.inject({ method: 'GET', url: `${ui}/admin/database`, headers: sessionHeaders(admin) })).json()
    expect(after.advisories).toBe(before.advisories)
    expect(after.imports[0]).toMatchObject({ state: 'failed' })
  })

  it('answers npm audit from its own database: a project using the vulnerable version lists the advisory', async () => {
    const project = writeFiles(path.join(work, 'project'), {
      'package.json': JSON.stringify({ name: 'audited', version: '1.0.0', dependencies: { lodash: '4.17.20' } }),
      '.npmrc': `registry=${base}/api/npm/npm-local/\n${base.replace(/^http:/, '')}/api/npm/npm-local/:_authToken=${token}\n`,
    })
    const install = await npm(['install', '--no-audit'], project)
    expect(install.code, install.stderr).toBe(0)
    const audit = await npm(['audit', '--json'], project)
    const report = JSON.parse(audit.stdout)
    expect(report.vulnerabilities.lodash.severity).toBe('high')
    expect(JSON.stringify(report.vulnerabilities.lodash.via)).toContain(LODASH)
    expect(report.vulnerabilities.lodash.fixAvailable).toBeTruthy()
  })

  it('answers the bulk call gzipped as npm sends it, and the quick audit', async () => {
    const bulk = await t.fastify.inject({
      method: 'POST',
      url: '/api/npm/npm-local/-/npm/v1/security/advisories/bulk',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ lodash: ['4.17.20', '4.17.21'], minimist: ['1.2.6'] })),
    })
    expect(bulk.statusCode, bulk.body).toBe(200)
    expect(Object.keys(bulk.json())).toEqual(['lodash'])
    expect(bulk.json().lodash[0]).toMatchObject({ severity: 'high', vulnerable_versions: '<4.17.21' })
    const quick = await t.fastify.inject({
      method: 'POST',
      url: '/api/npm/npm-local/-/npm/v1/security/audits/quick',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'x', version: '1.0.0', dependencies: { minimist: { version: '1.2.5' }, lodash: { version: '4.17.21' } } },
    })
    expect(quick.statusCode).toBe(200)
    expect(quick.json().metadata.vulnerabilities).toMatchObject({ critical: 1, high: 0 })
    const [advisory] = Object.values(quick.json().advisories) as { module_name: string; findings: unknown[] }[]
    expect(advisory).toMatchObject({ module_name: 'minimist', findings: [{ version: '1.2.5', paths: ['minimist'] }] })
    void MINIMIST
  })

  it("blocks downloads a policy forbids, in npm's own error format, until the violation is ignored", async () => {
    const admin_ = (method: 'POST' | 'DELETE' | 'GET', url: string, payload?: object) =>
      t.fastify.inject({ method, url: `${ui}/admin/${url}`, headers: sessionHeaders(admin), payload })
    const badLicence = await admin_('POST', 'policies', { name: 'x', deniedLicenses: ['NOT-A-LICENCE'] })
    expect(badLicence.statusCode).toBe(400)
    expect(badLicence.json().errors[0].message).toMatch(/deniedLicenses.*NOT-A-LICENCE/)
    const badSeverity = await admin_('POST', 'policies', { name: 'x', minSeverity: 'severe' })
    expect(badSeverity.statusCode).toBe(400)
    expect(badSeverity.json().errors[0].message).toMatch(/minSeverity/)
    expect(
      (await admin_('POST', 'policies', { name: 'no-high', minSeverity: 'high', actions: { blockDownload: true } })).statusCode,
    ).toBe(201)
    expect(
      (await admin_('POST', 'watches', { name: 'npm', repositories: ['npm-local'], policies: ['no-high'] })).statusCode,
    ).toBe(201)

    const project = writeFiles(path.join(work, 'blocked'), {
      'package.json': JSON.stringify({ name: 'blocked', version: '1.0.0', dependencies: { lodash: '4.17.20' } }),
      '.npmrc': `registry=${base}/api/npm/npm-local/\n${base.replace(/^http:/, '')}/api/npm/npm-local/:_authToken=${token}\n`,
    })
    const install = await run('npm', ['install', '--no-audit'], {
      cwd: project,
      env: { ...env(), npm_config_cache: path.join(work, 'cache-blocked') },
    })
    expect(install.code).not.toBe(0)
    expect(install.stderr).toMatch(/403/)
    expect(install.stderr).toContain(LODASH)
    const violations = await admin_('GET', 'violations?type=security')
    expect(violations.json()).toContainEqual(
      expect.objectContaining({
        watch: 'npm',
        policy: 'no-high',
        issue: LODASH,
        packageId: 'npm://lodash',
        version: '4.17.20',
        blocksDownload: true,
      }),
    )

    const ignore = await admin_('POST', 'ignore_rules', {
      advisoryId: LODASH,
      packageId: 'npm://lodash',
      reason: 'not reachable in our use',
      expiresAt: '2099-01-01T00:00:00Z',
    })
    expect(ignore.statusCode, ignore.body).toBe(201)
    const again = await run('npm', ['install', '--no-audit'], {
      cwd: project,
      env: { ...env(), npm_config_cache: path.join(work, 'cache-blocked') },
    })
    expect(again.code, again.stderr).toBe(0)
    const audit = await t.fastify.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/admin/audit?targetType=security',
      headers: sessionHeaders(admin),
    })
    expect(audit.body).toContain('scanner.ignore.create')
    expect((await admin_('DELETE', `ignore_rules/${ignore.json().id}`)).statusCode).toBe(204)
    expect((await admin_('DELETE', 'watches/npm')).statusCode).toBe(204)
  })

  it('tells a reader who cannot see a version nothing about it', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/component/paginatedsearch`,
      headers: sessionHeaders(admin),
      payload: { package_id: 'npm://nothing-here', version: '1.0.0' },
    })
    expect(res.statusCode).toBe(404)
  })
})
