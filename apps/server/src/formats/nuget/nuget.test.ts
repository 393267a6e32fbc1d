import fs from 'node:fs'
import path from 'node:path'
import { type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { type ZipEntry, zipOf } from '../../../test/zip.js'

/** Debian's nuget: NuGet 2.8 on mono, a v2 (OData) client. */
const NUGET = '/usr/bin/nuget'

/**
 * Debian 12's mono (6.8) can abort on its way out, after the client has done its work and said so:
 * a race in the runtime's shutdown of its threads, which ends in this assertion (mono's issue
 * 10832). Such a run counts when the client had printed its own line of success first; every test
 * checks what Trove recorded either way.
 */
const MONO_SHUTDOWN_RACE =
  /^\* Assertion at mono-threads\.c:\d+, condition `previous_token == NULL \|\| previous_token == INTERRUPT_STATE' not met/m

/** Whether a nuget run succeeded: exit code 0, or mono's shutdown race after the success line `done`. */
function succeeded(result: { code: number; stdout: string; stderr: string }, done: RegExp): boolean {
  if (result.code === 0) return true
  return done.test(result.stdout) && MONO_SHUTDOWN_RACE.test(`${result.stdout}\n${result.stderr}`)
}

interface Spec {
  id: string
  version: string
  description?: string
  metadata?: string
  dependencies?: string
  files?: Record<string, string>
}

/**
 * A .nupkg as `nuget pack` makes it: the nuspec at the root, the OPC parts NuGet 2.x's reader
 * needs ([Content_Types].xml covering every extension, _rels/.rels), and content files.
 */
function nupkg(spec: Spec, extra: ZipEntry[] = []): Buffer {
  const files = { 'content/readme.txt': `${spec.id} ${spec.version}\n`, 'lib/netstandard2.0/_._': '', ...spec.files }
  const nuspec = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>${spec.id}</id>
    <version>${spec.version}</version>
    <authors>Acme Developers</authors>
    <description>${spec.description ?? `The ${spec.id} package`}</description>
    ${spec.metadata ?? ''}
    <dependencies>${spec.dependencies ?? ''}</dependencies>
  </metadata>
</package>
`
  const extensions = new Set(['rels', 'nuspec', ...Object.keys(files).map((f) => f.split('.').pop() as string)])
  const types = `<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${[
    ...extensions,
  ]
    .map((e) => `<Default Extension="${e}" ContentType="application/octet" />`)
    .join('')}</Types>`
  const rels = `<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/${spec.id}.nuspec" Id="R1" /></Relationships>`
  return zipOf([
    { name: '_rels/.rels', data: Buffer.from(rels) },
    { name: `${spec.id}.nuspec`, data: Buffer.from(nuspec) },
    ...Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) })),
    { name: '[Content_Types].xml', data: Buffer.from(types) },
    ...extra,
  ])
}

const LIB: Spec = {
  id: 'Acme.Lib',
  version: '1.0.0',
  description: 'Greetings for Trove',
  metadata: `<license type="expression">MIT</license>
    <readme>docs/README.md</readme>
    <tags>greeting demo</tags>
    <projectUrl>https://example.com/acme</projectUrl>`,
  files: { 'docs/README.md': '# Acme.Lib\n\nThe readme of Acme.Lib.\n' },
}

const APP: Spec = {
  id: 'Acme.App',
  version: '2.0.0',
  description: 'An app on Acme.Lib',
  metadata: '<license type="expression">Apache-2.0</license>',
  dependencies:
    '<group><dependency id="Acme.Lib" version="[1.0.0, )" /></group><group targetFramework="net45"><dependency id="Acme.Lib" version="1.0.0" /></group>',
}

/**
 * NuGet repositories with Debian's nuget (2.8 on mono, which speaks the v2 OData feed): push with
 * set-me-up's commands, install and list through a virtual repository whose remote proxies a second
 * Trove over v3; and the v3 protocol exchange by HTTP as the dotnet CLI speaks it.
 */
describe('a nuget run', () => {
  it('counts mono’s shutdown abort only after the client’s line of success', () => {
    const race =
      "* Assertion at mono-threads.c:2005, condition `previous_token == NULL || previous_token == INTERRUPT_STATE' not met"
    const done = /^Your package was pushed\.$/m
    expect(succeeded({ code: 0, stdout: '', stderr: '' }, done)).toBe(true)
    expect(succeeded({ code: 1, stdout: 'Your package was pushed.\n', stderr: `${race}\n` }, done)).toBe(true)
    expect(succeeded({ code: 1, stdout: 'Pushing Acme.Lib 1.0.0…\n', stderr: `${race}\n` }, done)).toBe(false)
    expect(succeeded({ code: 1, stdout: 'Your package was pushed.\n', stderr: 'Segmentation fault\n' }, done)).toBe(false)
  })
})

describe('nuget repositories', () => {
  let t: TestApp
  let upstream: TestApp | undefined
  let admin: Session
  let base: string
  let token: string
  let work: string
  let home: string
  let snippet: (id: string) => SetMeUpSnippet

  const auth = () => `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`
  const get = (url: string, headers: Record<string, string> = { authorization: auth() }) => fetch(`${base}${url}`, { headers })
  const json = async (res: Response | Promise<Response>) => JSON.parse(await (await res).text())
  /** A v3 push: the package as the multipart form's `package` file, the API key in X-NuGet-ApiKey. */
  const push = (url: string, body: Buffer, apiKey = token) => {
    const form = new FormData()
    form.append('package', new Blob([new Uint8Array(body)]), 'package.nupkg')
    return fetch(`${base}${url}`, { method: 'PUT', headers: { 'x-nuget-apikey': apiKey }, body: form })
  }
  const env = () => ({ HOME: home, PATH: `/usr/bin:${process.env.PATH ?? ''}` })
  /** Runs one nuget command line, which succeeds when its client prints `done`. */
  const shell = async (text: string, cwd: string, done: RegExp) => {
    const result = await run('bash', ['-euc', text], { cwd, env: env() })
    expect(succeeded(result, done), `${text}\n${result.stdout}\n${result.stderr}`).toBe(true)
    return result
  }
  const added = /^Package Source with Name: \S+ added successfully\.$/m
  const pushed = /^Your package was pushed\.$/m
  const versionRow = (name: string, repo: string) =>
    t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.id', 'p.package_type', 'p.name', 'v.version', 'v.description', 'v.readme', 'v.licenses', 'v.repo_key'])
      .where('p.name', '=', name)
      .where('v.repo_key', '=', repo)
      .executeTakeFirst()

  beforeAll(async () => {
    // With the scanner: the last test checks stored packages against a NuGet advisory.
    t = await createTestApp({ TROVE_MODULES: 'repository,scanner' })
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-nuget-')
    home = path.join(work, 'home')
    fs.mkdirSync(home)
    await createRepo(t.fastify, admin, 'nuget-local', { rclass: 'local', packageType: 'nuget' })
    const snippets = setMeUpSnippets({
      baseUrl: base,
      repoKey: 'nuget-local',
      packageType: 'nuget',
      rclass: 'local',
      user: 'admin',
      token,
    })
    snippet = (id) => {
      const found = snippets.find((s) => s.id === id)
      if (!found) throw new Error(`no snippet ${id}`)
      return found
    }
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('takes a push from Debian’s nuget with set-me-up’s commands and records the version', async () => {
    fs.writeFileSync(path.join(work, 'Acme.Lib.1.0.0.nupkg'), nupkg(LIB))
    await shell(snippet('nuget-source').text, work, added)
    await shell(snippet('nuget-push').text.replaceAll('<FILE>', 'Acme.Lib.1.0.0'), work, pushed)

    const version = await versionRow('Acme.Lib', 'nuget-local')
    expect(version).toMatchObject({ package_type: 'nuget', version: '1.0.0', description: 'Greetings for Trove' })
    expect(version?.readme).toContain('The readme of Acme.Lib.')
    expect(JSON.parse(version?.licenses ?? '[]')).toEqual(['MIT'])
    const files = await t.app.db.kysely
      .selectFrom('files')
      .select(['path', 'name', 'lead'])
      .where('version_id', '=', version?.id as number)
      .orderBy('path')
      .execute()
    expect(files).toEqual([
      { path: 'acme.lib/1.0.0/acme.lib.1.0.0.nupkg', name: 'Acme.Lib.1.0.0.nupkg', lead: 1 },
      { path: 'acme.lib/1.0.0/acme.lib.nuspec', name: 'Acme.Lib.nuspec', lead: 0 },
    ])

    // nuget delete, with the push's API key, removes a version.
    fs.writeFileSync(path.join(work, 'Acme.Tmp.0.1.0.nupkg'), nupkg({ id: 'Acme.Tmp', version: '0.1.0' }))
    await shell(snippet('nuget-push').text.replaceAll('<FILE>', 'Acme.Tmp.0.1.0'), work, pushed)
    expect(await versionRow('Acme.Tmp', 'nuget-local')).toBeDefined()
    await shell(
      `${NUGET} delete Acme.Tmp 0.1.0 -Source nuget-local -ApiKey 'admin:${token}' -NonInteractive`,
      work,
      /^Acme\.Tmp 0\.1\.0 was deleted successfully\.$/m,
    )
    expect(await versionRow('Acme.Tmp', 'nuget-local')).toBeUndefined()
  }, 120_000)
  it('installs and lists with Debian’s nuget through a virtual repository whose remote proxies a second Trove', async () => {
    upstream = await createTestApp()
    const upstreamBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    const upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'far', { rclass: 'local', packageType: 'nuget' })
    const app = nupkg(APP)
    const up = new FormData()
    up.append('package', new Blob([new Uint8Array(app)]), 'package.nupkg')
    const pushed = await fetch(`${upstreamBase}/api/nuget/v3/far/package`, {
      method: 'PUT',
      headers: { 'x-nuget-apikey': upToken },
      body: up,
    })
    expect(pushed.status).toBe(201)
    await createRepo(t.fastify, admin, 'nuget-remote', {
      rclass: 'remote',
      packageType: 'nuget',
      url: `${upstreamBase}/api/nuget/v3/far/index.json`,
      username: 'admin',
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'nuget-virtual', {
      rclass: 'virtual',
      packageType: 'nuget',
      repositories: ['nuget-local', 'nuget-remote'],
      defaultDeploymentRepo: 'nuget-local',
    })
    const virtualSnippets = setMeUpSnippets({
      baseUrl: base,
      repoKey: 'nuget-virtual',
      packageType: 'nuget',
      rclass: 'virtual',
      user: 'admin',
      token,
    })
    const text = (id: string) => virtualSnippets.find((s) => s.id === id)?.text ?? ''
    const out = path.join(work, 'packages')
    fs.mkdirSync(out)
    await shell(text('nuget-source'), work, added)
    await shell(
      `${text('nuget-install').replace('<PACKAGE>', 'Acme.App').trim()} -Version 2.0.0 -OutputDirectory ${out} -NonInteractive`,
      work,
      /^Successfully installed 'Acme\.App 2\.0\.0'\.$/m,
    )
    expect(fs.readFileSync(path.join(out, 'Acme.App.2.0.0', 'content', 'readme.txt'), 'utf8')).toBe('Acme.App 2.0.0\n')
    expect(fs.readFileSync(path.join(out, 'Acme.Lib.1.0.0', 'content', 'readme.txt'), 'utf8')).toBe('Acme.Lib 1.0.0\n')
    // nuget list wraps its lines to the terminal's width and, on mono without one, prints blank
    // lines for ever: it runs in a pseudo-terminal of known width (script, util-linux).
    const listed = await run(
      'script',
      ['-qec', `stty cols 200 rows 50; ${NUGET} list Acme -Source nuget-virtual -NonInteractive`, '/dev/null'],
      { cwd: work, env: env() },
    )
    expect(succeeded(listed, /^Acme\.Lib 1\.0\.0\r?$/m), listed.stdout + listed.stderr).toBe(true)
    expect(listed.stdout).toContain('Acme.App 2.0.0')
    expect(listed.stdout).toContain('Acme.Lib 1.0.0')

    // The remote recorded what it fetched, so the packages browser shows it: its licences (under a
    // security licence) and its dependencies, by the calls the console makes.
    const cached = await versionRow('Acme.App', 'nuget-remote')
    expect(cached).toMatchObject({ version: '2.0.0', description: 'An app on Acme.Lib' })
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    expect(await browser.package('nuget://Acme.App')).toMatchObject({
      name: 'Acme.App',
      packageType: 'nuget',
      latestVersion: '2.0.0',
      licenses: [{ name: 'Apache-2.0', source: 'declared' }],
    })
    expect(await browser.dependencies('nuget://Acme.App:2.0.0')).toEqual([
      { name: 'Acme.Lib', range: '[1.0.0, )', scope: 'any' },
      { name: 'Acme.Lib', range: '1.0.0', scope: 'net45' },
    ])
    await browser.downloads('nuget://Acme.Lib', 1)

    // What the packages browser shows of the versions: downloads, files and where they are.
    const console = (url: string, payload?: object) =>
      t.fastify.inject({ method: payload ? 'POST' : 'GET', url, headers: sessionHeaders(admin), ...(payload ? { payload } : {}) })
    const versions = await console('/ui/api/v1/mds/versions', {
      graphQL: {
        query:
          'query($filter: VersionFilter!) { versions(filter: $filter) { edges { node { name stats { downloadCount } files { name lead } repos { name } } } } }',
        variables: { filter: { packageId: 'nuget://Acme.Lib' } },
      },
    })
    expect(versions.statusCode, versions.body).toBe(200)
    expect(versions.json().data.versions.edges.map((e: { node: unknown }) => e.node)).toEqual([
      {
        name: '1.0.0',
        stats: { downloadCount: 1 },
        files: [
          { name: 'Acme.Lib.1.0.0.nupkg', lead: true },
          { name: 'Acme.Lib.nuspec', lead: false },
        ],
        repos: [{ name: 'nuget-local' }],
      },
    ])
    const readme = await console(
      `/ui/api/v1/ui/v1/native/versions/readme?path=${encodeURIComponent('nuget-local/acme.lib/1.0.0/acme.lib.1.0.0.nupkg')}`,
    )
    expect(readme.json().readme).toContain('The readme of Acme.Lib.')
  }, 180_000)
  it('speaks the v3 protocol: service index, flat container, registration, search, push and delete', async () => {
    const index = await json(get('/api/nuget/v3/nuget-local/index.json'))
    const resource = (type: string) => index.resources.find((r: { '@type': string }) => r['@type'] === type)?.['@id'] as string
    const flat = resource('PackageBaseAddress/3.0.0')
    const registrations = resource('RegistrationsBaseUrl/3.6.0')
    const search = resource('SearchQueryService/3.5.0')
    const publish = resource('PackagePublish/2.0.0')
    expect([flat, registrations, search, publish]).toEqual([
      `${base}/api/nuget/v3/nuget-local/flatcontainer/`,
      `${base}/api/nuget/v3/nuget-local/registration/`,
      `${base}/api/nuget/v3/nuget-local/query`,
      `${base}/api/nuget/v3/nuget-local/package`,
    ])
    const rel = (url: string) => url.slice(base.length)

    // Versions are normalised (leading zeros, a fourth part of 0, build metadata); ids keep the first push's case.
    const beta = nupkg({ ...LIB, version: '01.1.0-beta.1+build.5' })
    expect((await push(rel(publish), beta)).status).toBe(201)
    const lower = nupkg({ id: 'acme.lib', version: '2.0.0.0', description: 'Greetings, lower-cased' })
    expect((await push(rel(publish), lower)).status).toBe(201)
    expect(await json(get(rel(`${flat}acme.lib/index.json`)))).toEqual({ versions: ['1.0.0', '1.1.0-beta.1', '2.0.0'] })
    const nupkgUrl = `${flat}acme.lib/2.0.0/acme.lib.2.0.0.nupkg`
    expect(Buffer.from(await (await get(rel(nupkgUrl))).arrayBuffer())).toEqual(lower)
    expect(await (await get(rel(`${flat}acme.lib/2.0.0/acme.lib.nuspec`))).text()).toContain('<id>acme.lib</id>')
    expect((await get(rel(`${flat}acme.nothing/index.json`))).status).toBe(404)
    const names = await t.app.db.kysely.selectFrom('packages').select('name').where('package_type', '=', 'nuget').execute()
    expect(names.map((n) => n.name).sort()).toEqual(['Acme.App', 'Acme.Lib'])

    const registration = await json(get(rel(`${registrations}acme.lib/index.json`)))
    const leaves = registration.items[0].items
    expect(leaves.map((l: { catalogEntry: { version: string } }) => l.catalogEntry.version)).toEqual([
      '1.0.0',
      '1.1.0-beta.1+build.5',
      '2.0.0',
    ])
    expect(leaves[0].catalogEntry).toMatchObject({
      id: 'Acme.Lib',
      description: 'Greetings for Trove',
      authors: 'Acme Developers',
      licenseExpression: 'MIT',
      tags: ['greeting', 'demo'],
      projectUrl: 'https://example.com/acme',
      packageContent: `${flat}acme.lib/1.0.0/acme.lib.1.0.0.nupkg`,
    })
    const leaf = await json(get(rel(`${registrations}acme.lib/1.0.0.json`)))
    expect(leaf.catalogEntry.version).toBe('1.0.0')
    expect((await get(rel(leaves[0].packageContent))).status).toBe(200)

    const found = await json(get(`${rel(search)}?q=greet&skip=0&take=10`))
    expect(found.totalHits).toBe(1)
    expect(found.data[0]).toMatchObject({ id: 'Acme.Lib', version: '2.0.0' })
    expect(found.data[0].versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0', '2.0.0'])
    const withPre = await json(get(`${rel(search)}?q=greet&prerelease=true`))
    expect(withPre.data[0].versions).toHaveLength(3)
    expect((await json(get(`${rel(search)}?q=nothing-like-it`))).totalHits).toBe(0)

    const del = () => fetch(`${publish}/acme.lib/2.0.0`, { method: 'DELETE', headers: { 'x-nuget-apikey': `admin:${token}` } })
    expect((await del()).status).toBe(204)
    expect((await del()).status).toBe(404)
    expect(await json(get(rel(`${flat}acme.lib/index.json`)))).toEqual({ versions: ['1.0.0', '1.1.0-beta.1'] })

    // The tree's copy records the versions in another repository; deleting a .nupkg there removes its version.
    await createRepo(t.fastify, admin, 'nuget-copy', { rclass: 'local', packageType: 'nuget' })
    const copied = await fetch(`${base}/api/copy/nuget-local/acme.lib?to=/nuget-copy/acme.lib`, {
      method: 'POST',
      headers: { authorization: auth() },
    })
    expect(copied.status, await copied.text()).toBe(200)
    expect(await json(get('/api/nuget/v3/nuget-copy/flatcontainer/acme.lib/index.json'))).toEqual({
      versions: ['1.0.0', '1.1.0-beta.1'],
    })
    expect((await versionRow('Acme.Lib', 'nuget-copy'))?.description).toBe('Greetings for Trove')
    const treeDelete = await t.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/artifacts/node?repoKey=nuget-copy&path=${encodeURIComponent('acme.lib/1.0.0/acme.lib.1.0.0.nupkg')}`,
      headers: sessionHeaders(admin),
    })
    expect(treeDelete.statusCode, treeDelete.body).toBe(200)
    expect(await json(get('/api/nuget/v3/nuget-copy/flatcontainer/acme.lib/index.json'))).toEqual({ versions: ['1.1.0-beta.1'] })
    const left = await t.app.db.kysely
      .selectFrom('files')
      .select('path')
      .where('repo_key', '=', 'nuget-copy')
      .orderBy('path')
      .execute()
    expect(left.map((f) => f.path)).toEqual([
      'acme.lib/1.1.0-beta.1/acme.lib.1.1.0-beta.1.nupkg',
      'acme.lib/1.1.0-beta.1/acme.lib.nuspec',
    ])
  })

  it('refuses broken and hostile packages with 400, storing nothing; another package under a stored version is 409', async () => {
    const files = () =>
      t.app.db.kysely.selectFrom('files').select(['path', 'sha256']).where('repo_key', '=', 'nuget-local').execute()
    const before = await files()
    const nuspecOnly = (xml: string) => zipOf([{ name: 'X.nuspec', data: Buffer.from(xml) }])
    const cases: [string, Buffer, RegExp][] = [
      ['a climbing entry', nupkg(LIB, [{ name: '../evil.txt', data: Buffer.from('x') }]), /climbs out of the tree/],
      ['an absolute entry', nupkg(LIB, [{ name: '/etc/evil', data: Buffer.from('x') }]), /absolute path/],
      ['not a zip', Buffer.from('plain text'), /not a readable zip/],
      ['no nuspec', zipOf([{ name: 'content/a.txt', data: Buffer.from('a') }]), /no \.nuspec/],
      ['a nuspec in a folder only', zipOf([{ name: 'sub/X.nuspec', data: Buffer.from('<package/>') }]), /no \.nuspec/],
      ['two nuspecs', nupkg(LIB, [{ name: 'Other.nuspec', data: Buffer.from('<package/>') }]), /more than one \.nuspec/],
      ['an invalid version', nupkg({ ...LIB, version: '1.0.0-beta..1' }), /not a valid NuGet version/],
      ['a version of words', nupkg({ ...LIB, version: 'one' }), /not a valid NuGet version/],
      ['an invalid id', nupkg({ ...LIB, id: 'Acme Lib' }), /not a valid package id/],
      ['a nuspec that is not XML', nuspecOnly('<package><metadata>'), /not XML/],
      [
        'a DOCTYPE',
        nuspecOnly(
          '<!DOCTYPE package [<!ENTITY x "y">]><package><metadata><id>X</id><version>1.0.0</version></metadata></package>',
        ),
        /not XML/,
      ],
      ['a readme that is missing', nupkg({ ...LIB, files: {} }), /readme "docs\/README.md" .* is not in the package/],
    ]
    for (const [what, body, message] of cases) {
      const res = await push('/api/nuget/v3/nuget-local/package', body)
      expect(res.status, what).toBe(400)
      expect((await json(res)).errors[0].message, what).toMatch(message)
    }
    expect(await files()).toEqual(before)

    // The same package again is a retry; other bytes under a stored version (however it is written) are not.
    expect((await push('/api/nuget/v3/nuget-local/package', nupkg(LIB))).status).toBe(201)
    const other = await push('/api/nuget/v3/nuget-local/package', nupkg({ ...LIB, version: '1.0', description: 'Other' }))
    expect(other.status).toBe(409)
    expect((await json(other)).errors[0].message).toBe('Package Acme.Lib 1.0.0 already exists in nuget-local')
    expect(await files()).toEqual(before)
  })

  it('asks for credentials and refuses wrong ones', async () => {
    const anonymous = await fetch(`${base}/api/nuget/v3/nuget-local/index.json`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
    expect((await fetch(`${base}/api/nuget/nuget-local/$metadata`)).status).toBe(401)
    const wrong = await push('/api/nuget/v3/nuget-local/package', nupkg({ ...LIB, version: '9.0.0' }), 'admin:wrong-password')
    expect(wrong.status).toBe(401)
    const badToken = await push('/api/nuget/nuget-local', nupkg({ ...LIB, version: '9.0.0' }), 'not-a-token')
    expect(badToken.status).toBe(401)
    const basic = await get('/api/nuget/v3/nuget-local/index.json', {
      authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}`,
    })
    expect(basic.status).toBe(401)
    expect(await versionRow('Acme.Lib', 'nuget-local')).toBeDefined()
    expect((await get('/api/nuget/v3/nuget-local/flatcontainer/acme.lib/index.json')).status).toBe(200)
    // A session cookie without its CSRF token (what a cross-site page can make a browser send) pushes nothing.
    const form = new FormData()
    form.append('package', new Blob([new Uint8Array(nupkg({ ...LIB, version: '9.0.1' }))]), 'package.nupkg')
    const cookieOnly = await fetch(`${base}/api/nuget/v3/nuget-local/package`, {
      method: 'PUT',
      headers: { cookie: admin.cookie },
      body: form,
    })
    expect(cookieOnly.status).toBe(401)
  })
  it('answers odd requests without a server error', async () => {
    const odd: [string, string][] = [
      ['GET', "/api/nuget/nuget-local/Packages(Id='x',Version='%25')"],
      ['GET', "/api/nuget/nuget-local/Packages(Id='Acme.Lib',Version='not-a-version')"],
      ['GET', "/api/nuget/nuget-local/Packages(Id='',Version='')"],
      ['GET', '/api/nuget/nuget-local/FindPackagesById()'],
      ['GET', "/api/nuget/nuget-local/FindPackagesById()?id='Acme.Lib'&$skip=-5&$top=x"],
      ['GET', '/api/nuget/nuget-local/Search()?$filter=((((&searchTerm=%27'],
      ['GET', '/api/nuget/nuget-local/Search()/$count?searchTerm=Acme'],
      ['GET', '/api/nuget/nuget-local/package/Acme.Lib/x..y'],
      ['GET', '/api/nuget/nuget-local/Nothing()'],
      ['GET', '/api/nuget/v3/nuget-local/flatcontainer/acme.lib/1.0.0/other.nupkg'],
      ['GET', '/api/nuget/v3/nuget-local/registration/acme.lib/1.0.0'],
      ['GET', '/api/nuget/v3/nuget-local/registration/..%2F../index.json'],
      ['GET', '/api/nuget/v3/nuget-local/query?take=abc&skip=-1&q=%00'],
      ['GET', '/api/nuget/v3/nope/index.json'],
      ['PUT', '/api/nuget/v3/nuget-local/package'],
      ['DELETE', '/api/nuget/nuget-local/a/b/c/d'],
      ['DELETE', '/api/nuget/v3/nuget-local/package/Acme.Lib/not..valid'],
    ]
    for (const [method, url] of odd) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: auth(), ...(method === 'PUT' ? { 'content-type': 'multipart/form-data; boundary=x' } : {}) },
        ...(method === 'PUT' ? { body: '--x\r\n' } : {}),
      })
      expect(res.status, `${method} ${url}`).toBeLessThan(500)
    }
    const count = await get('/api/nuget/nuget-local/Packages()/$count')
    expect(await count.text()).toMatch(/^\d+$/)
  })
  it('feeds the scanner: a NuGet advisory finds the package and the packages depending on it', async () => {
    const imported = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/xray/ui/admin/database/import',
      headers: sessionHeaders(admin),
      payload: [
        {
          schema_version: '1.6.0',
          id: 'GHSA-acme-lib0-0001',
          modified: '2026-01-01T00:00:00Z',
          summary: 'Acme.Lib greets too loudly',
          severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
          // OSV spells the id as it likes; NuGet ids match regardless of case.
          affected: [
            {
              package: { ecosystem: 'NuGet', name: 'ACME.LIB' },
              ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }],
            },
          ],
        },
      ],
    })
    expect(imported.statusCode, imported.body).toBe(200)
    await t.app.scanner.idle()
    const findings = async (packageId: string, version: string) => {
      const res = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/xray/ui/component/paginatedsearch?direction=desc&num_of_rows=20&order_by=last_updated&page_num=1',
        headers: sessionHeaders(admin),
        payload: { package_id: packageId, version, all_components: false },
      })
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as {
        total_count: number
        data: { component: string; version: string; advisory_id: string; fixed_versions: string[] }[]
      }
    }
    const own = await findings('nuget://Acme.Lib', '1.0.0')
    expect(own.data).toMatchObject([{ advisory_id: 'GHSA-acme-lib0-0001', fixed_versions: ['1.0.1'] }])
    // Acme.App needs Acme.Lib [1.0.0, ): NuGet resolves the lowest version a range admits.
    const app = await findings('nuget://Acme.App', '2.0.0')
    expect(app.data).toMatchObject([{ component: 'acme.lib', version: '1.0.0', advisory_id: 'GHSA-acme-lib0-0001' }])
    expect((await findings('nuget://Acme.Lib', '1.1.0-beta.1')).total_count).toBe(0)
  })
})
