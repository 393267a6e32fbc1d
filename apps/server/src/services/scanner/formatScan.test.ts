import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'
import tar from 'tar-stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { zipOf } from '../../../test/zip.js'

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/osv')
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'))

const SMALLVEC = 'RUSTSEC-2021-0003'
const NOKOGIRI = 'GHSA-crjr-9rc5-ghw8'
const GUZZLE = 'GHSA-25mq-v84q-4j7r'
const OPENSSL = 'DSA-5532-1'
const XTEXT = 'GO-2020-0015'

async function tarOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const pack = tar.pack()
  for (const [name, data] of Object.entries(files)) pack.entry({ name }, data)
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

/** A `.gem` as gem build writes one: a tar of metadata.gz (the YAML gemspec) and data.tar.gz. */
async function gemOf(name: string, version: string, dependencies: [string, string, string][] = []): Promise<Buffer> {
  const deps = dependencies
    .map(
      ([dep, op, v]) => `- !ruby/object:Gem::Dependency
  name: ${dep}
  requirement: !ruby/object:Gem::Requirement
    requirements:
    - - "${op}"
      - !ruby/object:Gem::Version
        version: ${v}
  type: :runtime
  prerelease: false`,
    )
    .join('\n')
  const spec = `--- !ruby/object:Gem::Specification
name: ${name}
version: !ruby/object:Gem::Version
  version: ${version}
platform: ruby
authors:
- Trove
summary: The ${name} gem
licenses:
- MIT
dependencies:${deps ? `\n${deps}` : ' []'}
`
  return tarOf({
    'metadata.gz': zlib.gzipSync(spec),
    'data.tar.gz': zlib.gzipSync(await tarOf({ [`lib/${name}.rb`]: '' })),
  })
}

/** A `.crate` and its publish body (u32 LE JSON length, JSON, u32 LE crate length, crate). */
async function cratePublish(name: string, version: string, deps: { name: string; version_req: string }[] = []) {
  const crate = zlib.gzipSync(
    await tarOf({
      [`${name}-${version}/Cargo.toml`]: `[package]\nname = "${name}"\nversion = "${version}"\n`,
      [`${name}-${version}/src/lib.rs`]: '',
    }),
  )
  const json = Buffer.from(
    JSON.stringify({
      name,
      vers: version,
      deps: deps.map((d) => ({ ...d, features: [], optional: false, default_features: true, kind: 'normal' })),
      features: {},
      license: 'MIT OR Apache-2.0',
    }),
  )
  const a = Buffer.alloc(4)
  a.writeUInt32LE(json.length)
  const b = Buffer.alloc(4)
  b.writeUInt32LE(crate.length)
  return Buffer.concat([a, json, b, crate])
}

/** A .deb built by dpkg-deb, with the control fields given. */
function debOf(dir: string, control: Record<string, string>): Buffer {
  const root = path.join(dir, `${control.Package}_${control.Version}`)
  fs.mkdirSync(path.join(root, 'DEBIAN'), { recursive: true })
  const fields = { Architecture: 'all', Maintainer: 'Trove <trove@example.com>', ...control, Description: 'A test package' }
  fs.writeFileSync(
    path.join(root, 'DEBIAN/control'),
    `${Object.entries(fields)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n`,
  )
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', root, `${root}.deb`], { stdio: 'ignore' })
  return fs.readFileSync(`${root}.deb`)
}

/**
 * The scanner over the newer formats: a crate, a gem, a Composer package, a Go module and a .deb of a
 * Debian repository, each published through its format's own API, are matched against an advisory of
 * their ecosystem (the vulnerable version found, the fixed one not), and so are the dependencies
 * they pin. A Helm chart says why it is not scanned.
 */
describe('scanning cargo, gems, composer, debian, go and helm packages', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const ui = '/ui/api/v1/xray/ui'
  const basic = () => `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`
  const send = async (method: string, url: string, body: Buffer, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: basic(), ...headers },
      body: new Uint8Array(body),
    })
    expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBeLessThan(300)
  }
  /** The findings of one stored version: its status and each component's advisories. */
  const scanOf = async (packageId: string, version: string) => {
    const status = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/mds/versions',
      headers: sessionHeaders(admin),
      payload: {
        graphQL: {
          query:
            'query($filter: VersionFilter!) { versions(filter: $filter) { edges { node { name vulnerabilities { critical high medium low unknown } } } } }',
          variables: { filter: { packageId } },
        },
      },
    })
    expect(status.statusCode, status.body).toBe(200)
    const node = (status.json().data.versions.edges as { node: { name: string; vulnerabilities: unknown } }[]).find(
      (e) => e.node.name === version,
    )?.node
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/component/paginatedsearch?direction=desc&num_of_rows=50&order_by=last_updated&page_num=1`,
      headers: sessionHeaders(admin),
      payload: { package_id: packageId, version, all_components: true },
    })
    return {
      vulnerabilities: node?.vulnerabilities as Record<string, number> | null | undefined,
      statusCode: res.statusCode,
      findings: res.statusCode === 200 ? (res.json().data as { component: string; version: string; advisory_id: string }[]) : [],
    }
  }
  const component = (id: string) => ({ component: expect.any(String), advisory_id: id })
  const status = async (packageId: string, version: string) => {
    const row = await t.app.db.kysely
      .selectFrom('scan_status as s')
      .innerJoin('package_versions as v', 'v.id', 's.version_id')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['s.state', 's.reason'])
      .where('p.package_type', '=', packageId.split('://')[0] as string)
      .where('p.name', '=', packageId.split('://')[1] as string)
      .where('v.version', '=', version)
      .executeTakeFirst()
    return row
  }
  const components = async (packageId: string, version: string) =>
    t.app.db.kysely
      .selectFrom('scan_components as c')
      .innerJoin('package_versions as v', 'v.id', 'c.version_id')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['c.ecosystem', 'c.release', 'c.name', 'c.version', 'c.binary_name'])
      .where('p.package_type', '=', packageId.split('://')[0] as string)
      .where('p.name', '=', packageId.split('://')[1] as string)
      .where('v.version', '=', version)
      .orderBy('c.release')
      .orderBy('c.name')
      .execute()

  beforeAll(async () => {
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-format-scan-')
    for (const type of ['cargo', 'gems', 'composer', 'debian', 'helm', 'go'])
      await createRepo(t.fastify, admin, `${type}-local`, { rclass: 'local', packageType: type })
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ui}/admin/database/import`,
      headers: sessionHeaders(admin),
      payload: [SMALLVEC, NOKOGIRI, GUZZLE, OPENSSL, XTEXT].map((id) => fixture(`${id}.json`)),
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().records).toBe(5)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('finds the crates.io advisory in a vulnerable crate and in a crate that pins it, not in the fixed one', async () => {
    const publish = (body: Buffer) =>
      t.fastify.inject({
        method: 'PUT',
        url: '/api/cargo/cargo-local/api/v1/crates/new',
        headers: { authorization: token },
        payload: body,
      })
    for (const body of [
      await cratePublish('smallvec', '1.6.0'),
      await cratePublish('smallvec', '1.6.1'),
      await cratePublish('pinning-app', '0.1.0', [{ name: 'smallvec', version_req: '=1.6.0' }]),
      await cratePublish('ranged-app', '0.1.0', [{ name: 'smallvec', version_req: '^1.6' }]),
    ]) {
      const res = await publish(body)
      expect(res.statusCode, res.body).toBe(200)
    }
    await t.app.scanner.idle()
    const vulnerable = await scanOf('cargo://smallvec', '1.6.0')
    expect(vulnerable.vulnerabilities?.critical).toBe(1)
    expect(vulnerable.findings).toEqual([expect.objectContaining({ ...component(SMALLVEC), version: '1.6.0' })])
    expect((await scanOf('cargo://smallvec', '1.6.1')).findings).toEqual([])
    expect((await scanOf('cargo://pinning-app', '0.1.0')).findings).toEqual([
      expect.objectContaining({ component: 'smallvec', version: '1.6.0', advisory_id: SMALLVEC }),
    ])
    // A caret requirement pins nothing: the scanner does not guess which version a build takes.
    expect((await scanOf('cargo://ranged-app', '0.1.0')).findings).toEqual([])
  })

  it('finds the RubyGems advisory in a vulnerable gem and in a gem that pins it, not in the fixed one', async () => {
    for (const gem of [
      await gemOf('nokogiri', '1.13.3'),
      await gemOf('nokogiri', '1.13.4'),
      await gemOf('pinning-gem', '1.0.0', [['nokogiri', '=', '1.13.3']]),
      await gemOf('ranged-gem', '1.0.0', [['nokogiri', '~>', '1.13']]),
    ]) {
      await send('POST', '/api/gems/gems-local/api/v1/gems', gem, { 'content-type': 'application/octet-stream' })
    }
    await t.app.scanner.idle()
    const vulnerable = await scanOf('gems://nokogiri', '1.13.3')
    expect(vulnerable.vulnerabilities?.high).toBe(1)
    expect(vulnerable.findings).toEqual([expect.objectContaining({ ...component(NOKOGIRI), version: '1.13.3' })])
    expect((await scanOf('gems://nokogiri', '1.13.4')).findings).toEqual([])
    expect((await scanOf('gems://pinning-gem', '1.0.0')).findings).toEqual([
      expect.objectContaining({ component: 'nokogiri', version: '1.13.3', advisory_id: NOKOGIRI }),
    ])
    expect((await scanOf('gems://ranged-gem', '1.0.0')).findings).toEqual([])
  })

  it('finds the Packagist advisory in vulnerable Composer packages and exact requirements, not in fixed ones', async () => {
    const upload = (name: string, version: string, require: Record<string, string> = {}) =>
      send(
        'PUT',
        `/api/composer/composer-local/${name}/${version}.zip`,
        zipOf([
          {
            name: 'composer.json',
            data: Buffer.from(JSON.stringify({ name, version, license: 'MIT', description: `The ${name} package`, require })),
          },
        ]),
      )
    await upload('guzzlehttp/guzzle', '7.4.4')
    await upload('guzzlehttp/guzzle', '7.4.5')
    await upload('guzzlehttp/guzzle', 'v6.5.7')
    await upload('guzzlehttp/guzzle', '7.4.5-RC1')
    await upload('acme/pinning', '1.0.0', { php: '>=8.1', 'ext-json': '*', 'guzzlehttp/guzzle': '7.4.4' })
    await upload('acme/ranged', '1.0.0', { 'guzzlehttp/guzzle': '^7.4' })
    await t.app.scanner.idle()
    const vulnerable = await scanOf('composer://guzzlehttp/guzzle', '7.4.4')
    expect(vulnerable.vulnerabilities?.high).toBe(1)
    expect(vulnerable.findings).toEqual([expect.objectContaining({ ...component(GUZZLE), version: '7.4.4' })])
    expect((await scanOf('composer://guzzlehttp/guzzle', '7.4.5')).findings).toEqual([])
    // Composer's own order: v6.5.7 is below 6.5.8, a release candidate of 7.4.5 below 7.4.5.
    expect((await scanOf('composer://guzzlehttp/guzzle', 'v6.5.7')).findings).toHaveLength(1)
    expect((await scanOf('composer://guzzlehttp/guzzle', '7.4.5-RC1')).findings).toHaveLength(1)
    const pinning = await components('composer://acme/pinning', '1.0.0')
    expect(pinning.map((c) => `${c.ecosystem} ${c.name} ${c.version}`)).toEqual([
      'Packagist acme/pinning 1.0.0',
      'Packagist guzzlehttp/guzzle 7.4.4',
    ])
    expect((await scanOf('composer://acme/pinning', '1.0.0')).findings).toEqual([
      expect.objectContaining({ component: 'guzzlehttp/guzzle', version: '7.4.4', advisory_id: GUZZLE }),
    ])
    expect((await scanOf('composer://acme/ranged', '1.0.0')).findings).toEqual([])
  })

  it("matches a .deb by its source package in the Debian release its distribution names, as Debian's advisories do", async () => {
    const upload = (file: string, deb: Buffer, distribution: string) =>
      send('PUT', `/artifactory/debian-local/pool/main/${file};deb.distribution=${distribution};deb.component=main`, deb)
    await upload(
      'libssl3_old.deb',
      debOf(work, { Package: 'libssl3', Source: 'openssl', Version: '3.0.11-1~deb12u1' }),
      'bookworm',
    )
    await upload(
      'libssl3_new.deb',
      debOf(work, { Package: 'libssl3', Source: 'openssl', Version: '3.0.11-1~deb12u2' }),
      'bookworm',
    )
    // A binNMU names its source's version in Source: (the binary's own is higher).
    await upload(
      'openssl_binnmu.deb',
      debOf(work, { Package: 'openssl', Source: 'openssl (3.0.11-1~deb12u1)', Version: '3.0.11-1~deb12u1+b1' }),
      'bookworm-security,trixie',
    )
    // A package without Source: is its own source; a distribution that names no Debian release is matched against nothing.
    await upload('openssl_focal.deb', debOf(work, { Package: 'openssl', Version: '3.0.2-0ubuntu1' }), 'focal')
    await t.app.scanner.idle()

    const old = await scanOf('debian://libssl3', '3.0.11-1~deb12u1')
    expect(old.vulnerabilities?.unknown).toBe(1)
    expect(old.findings).toEqual([expect.objectContaining({ advisory_id: OPENSSL, version: '3.0.11-1~deb12u1' })])
    expect(await components('debian://libssl3', '3.0.11-1~deb12u1')).toEqual([
      { ecosystem: 'Debian', release: '12', name: 'openssl', version: '3.0.11-1~deb12u1', binary_name: 'libssl3' },
    ])
    expect((await scanOf('debian://libssl3', '3.0.11-1~deb12u2')).findings).toEqual([])

    // bookworm-security is release 12 (the advisory's), trixie 13 (no advisory of this fixture).
    expect(await components('debian://openssl', '3.0.11-1~deb12u1+b1')).toEqual([
      { ecosystem: 'Debian', release: '12', name: 'openssl', version: '3.0.11-1~deb12u1', binary_name: 'openssl' },
      { ecosystem: 'Debian', release: '13', name: 'openssl', version: '3.0.11-1~deb12u1', binary_name: 'openssl' },
    ])
    const binnmu = await scanOf('debian://openssl', '3.0.11-1~deb12u1+b1')
    expect(binnmu.findings).toEqual([expect.objectContaining({ advisory_id: OPENSSL })])

    expect(await status('debian://openssl', '3.0.2-0ubuntu1')).toEqual({
      state: 'not_scanned',
      reason: "focal is no Debian release: Debian's advisories name releases",
    })
  })

  it("matches a .deb a Debian remote cached in the distribution its upstream's Packages file lists it in", async () => {
    const upstream = await createTestApp()
    try {
      const upstreamBase = await listen(upstream.fastify)
      const upAdmin = await signIn(upstream.fastify)
      const upToken = await accessToken(upstream.fastify, upAdmin)
      await createRepo(upstream.fastify, upAdmin, 'far', { rclass: 'local', packageType: 'debian' })
      const deb = debOf(path.join(work, 'far'), { Package: 'libssl-far', Source: 'openssl', Version: '3.0.11-1~deb12u1' })
      const up = await fetch(`${upstreamBase}/artifactory/far/pool/main/libssl-far.deb;deb.distribution=bookworm`, {
        method: 'PUT',
        headers: { authorization: `Basic ${Buffer.from(`admin:${upToken}`).toString('base64')}` },
        body: new Uint8Array(deb),
      })
      expect(up.status, await up.text()).toBe(201)
      await createRepo(t.fastify, admin, 'debian-remote', {
        rclass: 'remote',
        packageType: 'debian',
        url: `${upstreamBase}/artifactory/far`,
        username: 'admin',
        password: upToken,
      })
      // As apt does: the index first, then the package it names.
      const get = (p: string) => fetch(`${base}/artifactory/debian-remote/${p}`, { headers: { authorization: basic() } })
      const packages = await get('dists/bookworm/main/binary-amd64/Packages.gz')
      expect(packages.status).toBe(200)
      expect(zlib.gunzipSync(Buffer.from(await packages.arrayBuffer())).toString()).toContain(
        'Filename: pool/main/libssl-far.deb',
      )
      expect((await get('pool/main/libssl-far.deb')).status).toBe(200)
      await t.app.scanner.idle()
      expect(await components('debian://libssl-far', '3.0.11-1~deb12u1')).toEqual([
        { ecosystem: 'Debian', release: '12', name: 'openssl', version: '3.0.11-1~deb12u1', binary_name: 'libssl-far' },
      ])
      expect((await scanOf('debian://libssl-far', '3.0.11-1~deb12u1')).findings).toEqual([
        expect.objectContaining({ advisory_id: OPENSSL }),
      ])
    } finally {
      await upstream.close()
    }
  }, 60_000)

  it('finds the Go advisory in a vulnerable module and in modules whose go.mod requires it, not in the fixed one', async () => {
    const publish = (module: string, version: string, goMod: string) =>
      send(
        'PUT',
        `/api/go/go-local/${module}/@v/${version}.zip`,
        zipOf([
          { name: `${module}@${version}/go.mod`, data: Buffer.from(goMod) },
          { name: `${module}@${version}/main.go`, data: Buffer.from('package main\n') },
        ]),
        { 'content-type': 'application/zip' },
      )
    await publish('golang.org/x/text', 'v0.3.2', 'module golang.org/x/text\n')
    await publish('golang.org/x/text', 'v0.3.3', 'module golang.org/x/text\n')
    await publish('example.com/app', 'v1.0.0', 'module example.com/app\n\ngo 1.19\n\nrequire golang.org/x/text v0.3.2\n')
    await publish(
      'example.com/tool',
      'v1.0.0',
      'module example.com/tool\n\ngo 1.19\n\nrequire (\n\texample.com/app v1.0.0\n\tgolang.org/x/text v0.3.0 // indirect\n)\n',
    )
    await publish('example.com/fixed', 'v1.0.0', 'module example.com/fixed\n\nrequire golang.org/x/text v0.3.3\n')
    await t.app.scanner.idle()
    expect((await scanOf('go://golang.org/x/text', 'v0.3.2')).findings).toEqual([
      expect.objectContaining({ ...component(XTEXT), version: 'v0.3.2' }),
    ])
    expect((await scanOf('go://golang.org/x/text', 'v0.3.3')).findings).toEqual([])
    expect((await scanOf('go://example.com/app', 'v1.0.0')).findings).toEqual([
      expect.objectContaining({ component: 'golang.org/x/text', version: 'v0.3.2', advisory_id: XTEXT }),
    ])
    // An indirect requirement is in the build too.
    expect((await scanOf('go://example.com/tool', 'v1.0.0')).findings).toEqual([
      expect.objectContaining({ component: 'golang.org/x/text', version: 'v0.3.0', advisory_id: XTEXT }),
    ])
    expect((await scanOf('go://example.com/fixed', 'v1.0.0')).findings).toEqual([])
  })

  it('says why a Helm chart is not scanned', async () => {
    const chart = zlib.gzipSync(
      await tarOf({
        'demo/Chart.yaml': 'apiVersion: v2\nname: demo\nversion: 1.0.0\nannotations:\n  artifacthub.io/license: Apache-2.0\n',
        'demo/values.yaml': 'image:\n  repository: nginx\n  tag: "1.25"\n',
      }),
    )
    await send('PUT', '/api/helm/helm-local/demo-1.0.0.tgz', chart)
    await t.app.scanner.idle()
    expect(await status('helm://demo', '1.0.0')).toEqual({
      state: 'not_scanned',
      reason: expect.stringMatching(/^Helm charts are not scanned for vulnerabilities/),
    })
  })
})
