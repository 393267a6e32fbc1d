import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import parseSpdx from 'spdx-expression-parse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, grantRepos, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { userWithToken } from '../../identity/access/testUsers.js'
import { componentPurl, versionPurl } from './sbom.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const LODASH = 'GHSA-35jh-r3h4-6jhm'
const SBOM = '/ui/api/v1/xray/ui/component/sbom'

/**
 * The CycloneDX schemas the CycloneDX library ships, compiled the way its own validator does:
 * the SPDX licence list and JSF schemas under the names the BOM schema refers to them by. The
 * schema's "iri-reference" and "idn-email" are checked as their ASCII forms: every IRI and address
 * Trove writes is ASCII.
 */
function cyclonedxValidator(specVersion: '1.5' | '1.6') {
  const require = createRequire(import.meta.url)
  const dir = path.join(path.dirname(require.resolve('@cyclonedx/cyclonedx-library/package.json')), 'res/schema')
  const read = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))
  const ajv = new Ajv({
    strict: false,
    useDefaults: false,
    schemas: {
      'http://cyclonedx.org/schema/spdx.SNAPSHOT.schema.json': read('spdx.SNAPSHOT.schema.json'),
      'http://cyclonedx.org/schema/jsf-0.82.SNAPSHOT.schema.json': read('jsf-0.82.SNAPSHOT.schema.json'),
      'http://cyclonedx.org/schema/cryptography-defs.SNAPSHOT.schema.json': read('cryptography-defs.SNAPSHOT.schema.json'),
    },
  })
  addFormats.default(ajv)
  ajv.addFormat('iri-reference', fullFormats['uri-reference'])
  ajv.addFormat('idn-email', fullFormats.email)
  return ajv.compile(read(`bom-${specVersion}.SNAPSHOT.schema.json`))
}

interface CdxComponent {
  type: string
  name: string
  version: string
  'bom-ref': string
  purl: string
  licenses?: ({ license: { id?: string; name?: string } } | { expression: string })[]
  hashes?: { alg: string; content: string }[]
}

interface SpdxPackage {
  SPDXID: string
  name: string
  versionInfo: string
  downloadLocation: string
  licenseDeclared: string
  externalRefs?: { referenceCategory: string; referenceType: string; referenceLocator: string }[]
  checksums?: { algorithm: string; checksumValue: string }[]
}

/** SBOM export of a scanned npm version, with the real npm client publishing it. */
describe('package URLs of the newer formats', () => {
  it('names crates, gems, Go modules and Composer packages by their purl types', () => {
    expect(versionPurl('cargo', 'smallvec', '1.6.0')).toBe('pkg:cargo/smallvec@1.6.0')
    expect(versionPurl('gems', 'nokogiri', '1.13.3')).toBe('pkg:gem/nokogiri@1.13.3')
    expect(versionPurl('go', 'golang.org/x/text', 'v0.3.2')).toBe('pkg:golang/golang.org/x/text@v0.3.2')
    expect(versionPurl('composer', 'guzzlehttp/guzzle', '7.4.4')).toBe('pkg:composer/guzzlehttp/guzzle@7.4.4')
    expect(
      componentPurl({ ecosystem: 'Packagist', release: '', name: 'guzzlehttp/guzzle', version: '7.4.4', binary: null }),
    ).toBe('pkg:composer/guzzlehttp/guzzle@7.4.4')
  })
})

describe('SBOM export', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  let outsider: { authorization: string }
  const npm = (args: string[], cwd: string) =>
    run('npm', args, {
      cwd,
      env: {
        npm_config_userconfig: path.join(work, '.npmrc'),
        npm_config_cache: path.join(work, 'cache'),
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        npm_config_loglevel: 'warn',
      },
    })
  const publish = async (repo: string, name: string, version: string, extra: object) => {
    const dir = writeFiles(path.join(work, `${name}-${version}`), {
      'package.json': JSON.stringify({ name, version, ...extra }),
      'index.js': 'module.exports = 1\n',
    })
    const res = await npm(['publish', '--registry', `${base}/api/npm/${repo}/`], dir)
    expect(res.code, res.stderr).toBe(0)
  }
  const sbom = (query: Record<string, string>, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
    t.fastify.inject({ method: 'GET', url: `${SBOM}?${new URLSearchParams(query)}`, headers })
  const app = { package_id: 'npm://sbom-app', version: '1.0.0' }

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-sbom-')
    const host = base.replace(/^http:/, '')
    fs.writeFileSync(
      path.join(work, '.npmrc'),
      `${host}/api/npm/npm-local/:_authToken=${token}\n${host}/api/npm/npm-hidden/:_authToken=${token}\n`,
    )
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'npm-hidden', { rclass: 'local', packageType: 'npm' })
    outsider = await userWithToken(t.fastify, sessionHeaders(admin), 'sbom-outsider')
    await grantRepos(t.fastify, admin, 'outsider-local', { repos: ['npm-local'], user: 'sbom-outsider', actions: ['read'] })
    const imported = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/xray/ui/admin/database/import',
      headers: sessionHeaders(admin),
      payload: [JSON.parse(fs.readFileSync(path.join(FIXTURES, `${LODASH}.json`), 'utf8'))],
    })
    expect(imported.statusCode, imported.body).toBe(200)

    await publish('npm-local', 'lodash', '4.17.20', { license: 'MIT' })
    await publish('npm-local', 'dual-lib', '1.2.0', { license: 'MIT OR Apache-2.0' })
    await publish('npm-local', 'acme-util', '2.0.0', { license: 'Acme Commercial Licence' })
    await publish('npm-local', 'sbom-app', '1.0.0', {
      license: 'Apache-2.0',
      description: 'An app whose SBOM is exported',
      dependencies: { lodash: '4.17.20', 'dual-lib': '^1.0.0', 'acme-util': '2.0.0', 'not-stored': '3.1.4' },
    })
    await publish('npm-hidden', 'hidden-app', '1.0.0', { license: 'MIT' })
    await t.app.scanner.idle()
  }, 120_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('exports CycloneDX 1.6 that the official schema accepts: components, purls, licences, hashes and the advisory', async () => {
    const res = await sbom({ ...app, format: 'cyclonedx' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.cyclonedx+json; version=1.6')
    expect(res.headers['content-disposition']).toBe('attachment; filename="sbom-app-1.0.0.cdx.json"')
    const bom = res.json()
    const validate = cyclonedxValidator('1.6')
    expect(validate(bom), JSON.stringify(validate.errors, null, 2)).toBe(true)

    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 })
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(bom.metadata.tools.components[0]).toMatchObject({ type: 'application', name: 'trove' })
    const main = bom.metadata.component as CdxComponent
    expect(main).toMatchObject({
      type: 'library',
      name: 'sbom-app',
      version: '1.0.0',
      purl: 'pkg:npm/sbom-app@1.0.0',
      'bom-ref': 'pkg:npm/sbom-app@1.0.0',
      description: 'An app whose SBOM is exported',
      licenses: [{ license: { id: 'Apache-2.0' } }],
    })
    expect(main.hashes?.map((h) => h.alg)).toEqual(['MD5', 'SHA-1', 'SHA-256'])
    expect(main.hashes?.find((h) => h.alg === 'SHA-256')?.content).toMatch(/^[0-9a-f]{64}$/)

    const components = bom.components as CdxComponent[]
    const byName = new Map(components.map((c) => [c.name, c]))
    expect([...byName.keys()].sort()).toEqual(['acme-util', 'dual-lib', 'lodash', 'not-stored'])
    expect(byName.get('lodash')).toMatchObject({
      version: '4.17.20',
      purl: 'pkg:npm/lodash@4.17.20',
      licenses: [{ license: { id: 'MIT' } }],
    })
    // The range resolves to the version Trove holds; its expression stays one expression.
    expect(byName.get('dual-lib')).toMatchObject({
      version: '1.2.0',
      purl: 'pkg:npm/dual-lib@1.2.0',
      licenses: [{ expression: 'MIT OR Apache-2.0' }],
    })
    expect(byName.get('acme-util')?.licenses).toEqual([{ license: { name: 'Acme Commercial Licence' } }])
    expect(byName.get('lodash')?.hashes?.find((h) => h.alg === 'SHA-1')?.content).toMatch(/^[0-9a-f]{40}$/)
    // Not held by Trove: named and located, nothing more is known.
    expect(byName.get('not-stored')).toMatchObject({ version: '3.1.4', purl: 'pkg:npm/not-stored@3.1.4' })
    expect(byName.get('not-stored')?.licenses).toBeUndefined()
    expect(byName.get('not-stored')?.hashes).toBeUndefined()

    const root = bom.dependencies.find((d: { ref: string }) => d.ref === main['bom-ref'])
    expect([...root.dependsOn].sort()).toEqual(components.map((c) => c['bom-ref']).sort())

    expect(bom.vulnerabilities).toHaveLength(1)
    const [v] = bom.vulnerabilities
    expect(v).toMatchObject({
      id: LODASH,
      source: { name: 'GitHub', url: `https://github.com/advisories/${LODASH}` },
      references: [{ id: 'CVE-2021-23337', source: { name: 'NVD' } }],
      ratings: [{ severity: 'high', score: 7.2, method: 'CVSSv31', vector: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H' }],
      description: 'Command Injection in lodash',
      recommendation: 'Upgrade lodash to 4.17.21',
      affects: [
        {
          ref: 'pkg:npm/lodash@4.17.20',
          versions: [
            { version: '4.17.20', status: 'affected' },
            { version: '4.17.21', status: 'unaffected' },
          ],
        },
      ],
    })
  })

  it('exports CycloneDX 1.5 when asked, valid against the 1.5 schema', async () => {
    const res = await sbom({ ...app, format: 'cyclonedx', spec_version: '1.5' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.cyclonedx+json; version=1.5')
    const validate = cyclonedxValidator('1.5')
    expect(validate(res.json()), JSON.stringify(validate.errors, null, 2)).toBe(true)
    expect(res.json().specVersion).toBe('1.5')
    expect(res.json().vulnerabilities[0].id).toBe(LODASH)
  })

  it('exports SPDX 2.3 with every required field, DESCRIBES and DEPENDS_ON, and LicenseRefs for unknown licences', async () => {
    const res = await sbom({ ...app, format: 'spdx' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('application/spdx+json')
    expect(res.headers['content-disposition']).toBe('attachment; filename="sbom-app-1.0.0.spdx.json"')
    const doc = res.json()
    // The document's required fields (SPDX 2.3, clause 6).
    expect(doc).toMatchObject({
      spdxVersion: 'SPDX-2.3',
      dataLicense: 'CC0-1.0',
      SPDXID: 'SPDXRef-DOCUMENT',
      name: 'sbom-app@1.0.0',
    })
    expect(doc.documentNamespace).toMatch(
      /^http:\/\/[^/]+\/spdx\/sbom-app-1\.0\.0-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(doc.creationInfo.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(doc.creationInfo.creators).toEqual([expect.stringMatching(/^Tool: trove-\S+$/)])

    const packages = doc.packages as SpdxPackage[]
    const ids = new Set(packages.map((p) => p.SPDXID))
    expect(ids.size).toBe(packages.length)
    for (const p of packages) {
      // Each package's required fields (clause 7) and a valid id and licence expression.
      expect(p.SPDXID).toMatch(/^SPDXRef-[A-Za-z0-9.-]+$/)
      expect(p.name).toBeTruthy()
      expect(p.downloadLocation).toBe('NOASSERTION')
      if (p.licenseDeclared !== 'NOASSERTION') expect(() => parseSpdx(p.licenseDeclared)).not.toThrow()
      const purl = p.externalRefs?.find((r) => r.referenceType === 'purl')
      expect(purl).toMatchObject({ referenceCategory: 'PACKAGE-MANAGER', referenceLocator: `pkg:npm/${p.name}@${p.versionInfo}` })
    }
    const byName = new Map(packages.map((p) => [p.name, p]))
    const main = byName.get('sbom-app') as SpdxPackage
    expect(main).toMatchObject({ versionInfo: '1.0.0', licenseDeclared: 'Apache-2.0' })
    expect(main.checksums?.map((c) => c.algorithm)).toEqual(['SHA256', 'SHA1', 'MD5'])
    expect(byName.get('lodash')).toMatchObject({ versionInfo: '4.17.20', licenseDeclared: 'MIT' })
    expect(byName.get('dual-lib')?.licenseDeclared).toBe('MIT OR Apache-2.0')
    expect(byName.get('not-stored')?.licenseDeclared).toBe('NOASSERTION')
    const acme = byName.get('acme-util')?.licenseDeclared ?? ''
    expect(acme).toMatch(/^LicenseRef-Acme-Commercial-Licence-[0-9a-f]{8}$/)
    expect(doc.hasExtractedLicensingInfos).toEqual([
      { licenseId: acme, name: 'Acme Commercial Licence', extractedText: expect.stringContaining('Acme Commercial Licence') },
    ])
    expect(byName.get('lodash')?.externalRefs).toContainEqual({
      referenceCategory: 'SECURITY',
      referenceType: 'advisory',
      referenceLocator: `https://osv.dev/vulnerability/${LODASH}`,
    })

    expect(doc.documentDescribes).toEqual([main.SPDXID])
    expect(doc.relationships).toContainEqual({
      spdxElementId: 'SPDXRef-DOCUMENT',
      relationshipType: 'DESCRIBES',
      relatedSpdxElement: main.SPDXID,
    })
    const dependsOn = (doc.relationships as { spdxElementId: string; relationshipType: string; relatedSpdxElement: string }[])
      .filter((r) => r.relationshipType === 'DEPENDS_ON')
      .map((r) => {
        expect(r.spdxElementId).toBe(main.SPDXID)
        expect(ids.has(r.relatedSpdxElement)).toBe(true)
        return packages.find((p) => p.SPDXID === r.relatedSpdxElement)?.name
      })
    expect(dependsOn.sort()).toEqual(['acme-util', 'dual-lib', 'lodash', 'not-stored'])

    // The same scan exports the same document.
    const again = await sbom({ ...app, format: 'spdx' })
    expect(again.json().documentNamespace).toBe(doc.documentNamespace)
  })

  it('answers a session (the console link) as it answers a token', async () => {
    const res = await sbom({ ...app, format: 'spdx' }, { cookie: admin.cookie })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().name).toBe('sbom-app@1.0.0')
  })

  it('refuses a bad format naming the field, and an unknown version with 404', async () => {
    const bad = await sbom({ ...app, format: 'swid' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toMatch(/querystring\.format/)
    const badSpec = await sbom({ ...app, format: 'cyclonedx', spec_version: '1.2' })
    expect(badSpec.statusCode).toBe(400)
    expect(badSpec.json().errors[0].message).toMatch(/querystring\.spec_version/)
    const unknown = await sbom({ package_id: 'npm://sbom-app', version: '9.9.9', format: 'cyclonedx' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().errors[0].message).toMatch(/is not in any repository you can read/)
  })

  it('tells a caller who may not read the version what it tells about an unknown one', async () => {
    const hidden = await sbom({ package_id: 'npm://hidden-app', version: '1.0.0', format: 'cyclonedx' }, outsider)
    const unknown = await sbom({ package_id: 'npm://no-such-app', version: '1.0.0', format: 'cyclonedx' }, outsider)
    expect(hidden.statusCode).toBe(404)
    expect(unknown.statusCode).toBe(404)
    expect(hidden.json().errors[0].message).toBe('hidden-app@1.0.0 is not in any repository you can read')
    expect(unknown.json().errors[0].message).toBe('no-such-app@1.0.0 is not in any repository you can read')
    // What the outsider may read exports; the administrator sees the hidden version.
    expect((await sbom({ ...app, format: 'spdx' }, outsider)).statusCode).toBe(200)
    expect((await sbom({ package_id: 'npm://hidden-app', version: '1.0.0', format: 'spdx' })).statusCode).toBe(200)
    // No caller at all is asked to authenticate.
    expect((await sbom({ ...app, format: 'spdx' }, {})).statusCode).toBe(401)
  })

  it('answers 409 for a version not yet scanned, and 409 with the reason for one the scanner could not read', async () => {
    // With the scanner stopped, a version published now waits.
    await t.app.scanner.stop()
    await publish('npm-local', 'late-app', '1.0.0', { license: 'MIT' })
    const waiting = await sbom({ package_id: 'npm://late-app', version: '1.0.0', format: 'cyclonedx' })
    expect(waiting.statusCode).toBe(409)
    expect(waiting.json().errors[0].message).toBe(
      'late-app@1.0.0 has not been scanned yet: its SBOM can be exported once the scan is stored',
    )
    const row = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select('v.id')
      .where('p.name', '=', 'hidden-app')
      .executeTakeFirstOrThrow()
    await t.app.db.kysely
      .updateTable('scan_status')
      .set({ state: 'not_scanned', reason: 'The tarball is corrupt', scanned_at: null })
      .where('version_id', '=', row.id)
      .execute()
    const failed = await sbom({ package_id: 'npm://hidden-app', version: '1.0.0', format: 'spdx' })
    expect(failed.statusCode).toBe(409)
    expect(failed.json().errors[0].message).toBe('hidden-app@1.0.0 could not be scanned (The tarball is corrupt): it has no SBOM')
  })
})
