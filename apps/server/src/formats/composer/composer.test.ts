import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { zipOf } from '../../../test/zip.js'

/** Debian's Composer (and the PHP it runs on). */
const COMPOSER = '/usr/bin/composer'

const sha1 = (data: Buffer) => crypto.createHash('sha1').update(data).digest('hex')
const zip = (files: Record<string, string>) =>
  zipOf(Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) })))

const LIB_JSON = {
  name: 'acme/lib',
  version: '1.0.0',
  description: 'Greetings for Trove',
  license: 'MIT',
  keywords: ['greeting', 'demo'],
  autoload: { 'psr-4': { 'Acme\\Lib\\': 'src/' } },
  config: { 'sort-packages': true },
}

/** acme/lib 1.0.0: composer.json with its version, in one top folder, as GitHub's zips are. */
const libZip = (greeting = 'Hello') =>
  zip({
    'lib/composer.json': JSON.stringify(LIB_JSON),
    'lib/README.md': '# acme/lib\n\nThe readme of acme/lib.\n',
    'lib/src/Greeter.php': `<?php\nnamespace Acme\\Lib;\nfinal class Greeter { public static function greet(string $n): string { return "${greeting}, $n"; } }\n`,
  })

/** acme/app: composer.json at the root without a version (the upload's ?version= gives it), needing acme/lib. */
const appZip = () =>
  zip({
    'composer.json': JSON.stringify({
      name: 'acme/app',
      description: 'An app on acme/lib',
      license: ['MIT', 'Apache-2.0'],
      require: { php: '>=7.4', 'acme/lib': '^1.0' },
      'require-dev': { 'acme/testing': '^2.0' },
      autoload: { 'psr-4': { 'Acme\\App\\': 'src/' } },
    }),
    'src/App.php':
      '<?php\nnamespace Acme\\App;\nfinal class App { public static function run(): string { return \\Acme\\Lib\\Greeter::greet("Trove"); } }\n',
  })

/**
 * Composer repositories with Debian's composer: zips uploaded as set-me-up says, then
 * `composer require` in a clean project through a virtual repository, with packagist.org off and the
 * credentials in auth.json (set-me-up's http-basic line). Trove listens on plain HTTP here, so the
 * project turns `secure-http` off (Composer refuses http:// repositories otherwise).
 */
describe('composer repositories', () => {
  let t: TestApp
  let upstream: TestApp | undefined
  let admin: Session
  let base: string
  let token: string
  let work: string
  let snippet: (
    id: string,
    target?: { baseUrl: string; repoKey: string; rclass: 'local' | 'virtual'; token: string },
  ) => SetMeUpSnippet

  const auth = () => `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`
  const put = (url: string, body: Buffer) =>
    fetch(`${base}${url}`, { method: 'PUT', headers: { authorization: auth() }, body: new Uint8Array(body) })
  const get = (url: string) => fetch(`${base}${url}`, { headers: { authorization: auth() } })
  /** A JSON body, untyped (as the clients read it). */
  const json = async (res: Response | Promise<Response>) => JSON.parse(await (await res).text())
  const composerEnv = (home: string) => ({
    HOME: home,
    COMPOSER_HOME: path.join(home, '.composer'),
    COMPOSER_NO_INTERACTION: '1',
    COMPOSER_CACHE_DIR: path.join(home, 'cache'),
    PATH: `/usr/bin:${process.env.PATH ?? ''}`,
  })
  const shell = async (text: string, cwd: string, env: Record<string, string>) => {
    const result = await run('bash', ['-euc', text], { cwd, env })
    expect(result.code, `${text}\n${result.stdout}\n${result.stderr}`).toBe(0)
    return result
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-composer-')
    await createRepo(t.fastify, admin, 'composer-local', { rclass: 'local', packageType: 'composer' })
    await createRepo(t.fastify, admin, 'composer-virtual', {
      rclass: 'virtual',
      packageType: 'composer',
      repositories: ['composer-local'],
      defaultDeploymentRepo: 'composer-local',
    })
    snippet = (id, target = { baseUrl: base, repoKey: 'composer-local', rclass: 'local', token }) => {
      const found = setMeUpSnippets({ ...target, packageType: 'composer', user: 'admin' }).find((s) => s.id === id)
      if (!found) throw new Error(`no snippet ${id}`)
      return found
    }
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('takes zips (set-me-up’s upload, and ?version=), lists them in packages.json and p2, and records them', async () => {
    fs.writeFileSync(path.join(work, 'lib.zip'), libZip())
    await shell(snippet('composer-upload').text.replaceAll('<FILE>', 'lib'), work, composerEnv(work))
    expect((await put('/api/composer/composer-local/acme-app.zip?version=1.0.0', appZip())).status).toBe(201)

    const root = await json(get('/api/composer/composer-virtual/packages.json'))
    expect(root).toEqual({
      packages: [],
      'metadata-url': '/api/composer/composer-virtual/p2/%package%.json',
      'available-packages': ['acme/app', 'acme/lib'],
    })
    const p2 = await json(get('/api/composer/composer-local/p2/acme/lib.json'))
    const entry = p2.packages['acme/lib'][0]
    expect(entry).toMatchObject({
      name: 'acme/lib',
      version: '1.0.0',
      license: 'MIT',
      dist: {
        type: 'zip',
        url: `${base}/api/composer/composer-local/acme/lib/lib-1.0.0.zip`,
        shasum: sha1(libZip()),
      },
    })
    // Root-only keys are not served.
    expect(entry.config).toBeUndefined()
    expect(await json(get('/api/composer/composer-local/p2/acme/lib~dev.json'))).toEqual({
      packages: { 'acme/lib': [] },
    })
    expect((await get('/api/composer/composer-local/p2/acme/nothing.json')).status).toBe(404)
    // The widespread layout's prefix names its own metadata URL.
    const artifactory = await json(get('/artifactory/api/composer/composer-local/packages.json'))
    expect(artifactory['metadata-url']).toBe('/artifactory/api/composer/composer-local/p2/%package%.json')

    // What the packages browser shows: description, readme, licences, keywords, dependencies.
    const db = t.app.db.kysely
    const version = await db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'v.description', 'v.readme', 'v.licenses', 'v.id'])
      .where('p.name', '=', 'acme/lib')
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({ package_type: 'composer', description: 'Greetings for Trove' })
    expect(version.readme).toContain('The readme of acme/lib.')
    expect(JSON.parse(version.licenses)).toEqual(['MIT'])
    const app = await db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.id', 'v.licenses', 'v.version'])
      .where('p.name', '=', 'acme/app')
      .executeTakeFirstOrThrow()
    expect(app.version).toBe('1.0.0')
    expect(JSON.parse(app.licenses)).toEqual(['MIT', 'Apache-2.0'])
    const deps = await db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', app.id)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'acme/lib', range: '^1.0', scope: 'runtime' },
      { name: 'acme/testing', range: '^2.0', scope: 'dev' },
      { name: 'php', range: '>=7.4', scope: 'runtime' },
    ])
  })

  it('takes the same zip again (a retry) and refuses another one under a stored version with 409', async () => {
    expect((await put('/api/composer/composer-local/again.zip', libZip())).status).toBe(201)
    const other = await put('/api/composer/composer-local/other.zip', libZip('Hi'))
    expect(other.status).toBe(409)
    expect((await json(other)).errors[0].message).toBe('Package acme/lib version 1.0.0 already exists in composer-local')
    // The zips by path, as the widespread layout serves them; a PUT there uploads too.
    const byPath = await get('/artifactory/composer-local/acme/lib/lib-1.0.0.zip')
    expect(Buffer.from(await byPath.arrayBuffer())).toEqual(libZip())
    expect((await put('/artifactory/composer-local/acme/lib/lib-1.0.0.zip', libZip())).status).toBe(201)
    expect((await put('/artifactory/composer-local/acme/lib/lib-1.0.0.zip', libZip('Hey'))).status).toBe(409)
  })

  it('installs with composer require through the virtual repository, counting the downloads', async () => {
    const home = path.join(work, 'home')
    const project = path.join(work, 'project')
    fs.mkdirSync(project, { recursive: true })
    fs.writeFileSync(
      path.join(project, 'composer.json'),
      JSON.stringify({
        repositories: [{ type: 'composer', url: `${base}/api/composer/composer-virtual` }, { 'packagist.org': false }],
        config: { 'secure-http': false },
      }),
    )
    // Verbose (Symfony Console's SHELL_VERBOSITY): each package says whether it was downloaded or
    // loaded from the cache, which the download count below depends on.
    const env = { ...composerEnv(home), SHELL_VERBOSITY: '1' }
    // The credentials go in COMPOSER_HOME's auth.json, by set-me-up's line.
    await shell(snippet('composer-auth').text, project, env)
    expect(JSON.parse(fs.readFileSync(path.join(home, '.composer', 'auth.json'), 'utf8'))['http-basic']).toEqual({
      [new URL(base).host]: { username: 'admin', password: token },
    })
    const required = await run(COMPOSER, ['require', 'acme/app:1.0.0'], { cwd: project, env })
    expect(required.code, required.stderr).toBe(0)
    expect(fs.existsSync(path.join(project, 'vendor', 'acme', 'lib', 'src', 'Greeter.php'))).toBe(true)
    expect(fs.existsSync(path.join(project, 'vendor', 'acme', 'app', 'src', 'App.php'))).toBe(true)
    const ran = await run('php', ['-r', 'require "vendor/autoload.php"; echo \\Acme\\App\\App::run();'], { cwd: project, env })
    expect(ran.stdout).toBe('Hello, Trove')
    // Set-me-up's repository lines in another project (packagist.org off, as there is no network here).
    const other = path.join(work, 'project-setmeup')
    fs.mkdirSync(other, { recursive: true })
    fs.writeFileSync(path.join(other, 'composer.json'), JSON.stringify({ repositories: { 'packagist.org': false } }))
    const second = await shell(snippet('composer-repo').text.replaceAll('<PACKAGE>', 'acme/lib:1.0.0'), other, env)
    expect(fs.existsSync(path.join(other, 'vendor', 'acme', 'lib', 'src', 'Greeter.php'))).toBe(true)
    await vi.waitFor(async () => {
      const pkg = await t.app.db.kysely
        .selectFrom('packages')
        .select('downloads')
        .where('name', '=', 'acme/lib')
        .executeTakeFirstOrThrow()
      // The zip by path in the test before, and each download composer reports: the first project's,
      // and the second's unless composer took it from its cache (it usually does, not always).
      const said = `first project:\n${required.stdout}${required.stderr}\nsecond project:\n${second.stdout}${second.stderr}`
      const reported = (said.match(/- Downloading acme\/lib \(1\.0\.0\)/g) ?? []).length
      expect(reported, said).toBeGreaterThanOrEqual(1)
      expect(Number(pkg.downloads), said).toBe(1 + reported)
    }, 3000)
  }, 120_000)

  it('refuses broken and hostile zips with 400, storing nothing', async () => {
    const before = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'composer-local').execute()
    const cases: [string, Buffer, RegExp][] = [
      ['no composer.json', zip({ 'src/A.php': '<?php\n' }), /no composer.json/],
      ['two top folders', zip({ 'a/composer.json': '{}', 'b/x.php': '' }), /no composer.json/],
      ['not JSON', zip({ 'composer.json': '{' }), /not JSON/],
      [
        'a bad name',
        zip({ 'composer.json': JSON.stringify({ name: 'Acme/Lib', version: '1.0.0' }) }),
        /not a valid package name/,
      ],
      ['no vendor', zip({ 'composer.json': JSON.stringify({ name: 'lib', version: '1.0.0' }) }), /not a valid package name/],
      [
        'a bad version',
        zip({ 'composer.json': JSON.stringify({ name: 'acme/x', version: 'one' }) }),
        /not a valid Composer version/,
      ],
      ['no version', zip({ 'composer.json': JSON.stringify({ name: 'acme/x' }) }), /no version/],
      [
        'a climbing entry',
        zip({ 'composer.json': JSON.stringify({ name: 'acme/x', version: '1.0.0' }), '../evil.php': '<?php\n' }),
        /climbs out of the tree/,
      ],
      ['not a zip', Buffer.from('plain text'), /not a readable zip/],
      [
        'a link out of the tree',
        zipOf([
          { name: 'composer.json', data: Buffer.from(JSON.stringify({ name: 'acme/x', version: '1.0.0' })) },
          { name: 'src/passwd', data: Buffer.from('../../../etc/passwd'), symlink: true },
        ]),
        /points out of the tree/,
      ],
    ]
    for (const [what, body, message] of cases) {
      const res = await put('/api/composer/composer-local/bad.zip', body)
      expect(res.status, what).toBe(400)
      expect((await json(res)).errors[0].message, what).toMatch(message)
    }
    const mismatch = await put('/api/composer/composer-local/x.zip?version=2.0.0', libZip())
    expect((await json(mismatch)).errors[0].message).toMatch(/says version 1.0.0, the upload says 2.0.0/)
    expect((await put('/api/composer/composer-local/x.tgz', libZip())).status).toBe(400)
    const after = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'composer-local').execute()
    expect(after).toEqual(before)
  })

  it('needs credentials to read, and deletes a version', async () => {
    const anonymous = await fetch(`${base}/api/composer/composer-local/packages.json`)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/)
    const deleted = await fetch(`${base}/api/composer/composer-local/acme/app/1.0.0`, {
      method: 'DELETE',
      headers: { authorization: auth() },
    })
    expect(deleted.status).toBe(200)
    expect((await get('/api/composer/composer-local/p2/acme/app.json')).status).toBe(404)
    expect((await json(get('/api/composer/composer-local/packages.json')))['available-packages']).toEqual(['acme/lib'])
    const again = await fetch(`${base}/api/composer/composer-local/acme/app/1.0.0`, {
      method: 'DELETE',
      headers: { authorization: auth() },
    })
    expect(again.status).toBe(404)
    // A branch version goes in ~dev.json only.
    const branch = zip({ 'composer.json': JSON.stringify({ name: 'acme/edge', autoload: {} }) })
    expect((await put('/api/composer/composer-local/edge.zip?version=dev-main', branch)).status).toBe(201)
    expect(await json(get('/api/composer/composer-local/p2/acme/edge.json'))).toEqual({ packages: { 'acme/edge': [] } })
    const dev = await json(get('/api/composer/composer-local/p2/acme/edge~dev.json'))
    expect(dev.packages['acme/edge']).toMatchObject([{ name: 'acme/edge', version: 'dev-main' }])
    const gone = await fetch(`${base}/api/composer/composer-local/acme/edge/dev-main`, {
      method: 'DELETE',
      headers: { authorization: auth() },
    })
    expect(gone.status).toBe(200)
  })
  it('proxies a second Trove through a remote repository, and a virtual repository merges it with a local one', async () => {
    upstream = await createTestApp()
    const upstreamBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    const upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'far', { rclass: 'local', packageType: 'composer' })
    const farZip = zip({
      'composer.json': JSON.stringify({
        name: 'acme/far',
        version: '2.0.0',
        description: 'From far away',
        license: 'BSD-3-Clause',
        require: { 'acme/lib': '^1.0' },
        autoload: { 'psr-4': { 'Acme\\Far\\': 'src/' } },
      }),
      'README.md': 'The readme of acme/far.\n',
      'src/Far.php': '<?php\nnamespace Acme\\Far;\nfinal class Far {}\n',
    })
    fs.writeFileSync(path.join(work, 'far.zip'), farZip)
    const far = { baseUrl: upstreamBase, repoKey: 'far', rclass: 'local' as const, token: upToken }
    await shell(snippet('composer-upload', far).text.replaceAll('<FILE>', 'far'), work, composerEnv(work))
    await createRepo(t.fastify, admin, 'composer-remote', {
      rclass: 'remote',
      packageType: 'composer',
      url: `${upstreamBase}/api/composer/far`,
      username: 'admin',
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'composer-all', {
      rclass: 'virtual',
      packageType: 'composer',
      repositories: ['composer-local', 'composer-remote'],
      defaultDeploymentRepo: 'composer-local',
    })
    expect((await json(get('/api/composer/composer-all/packages.json')))['available-packages']).toEqual(['acme/far', 'acme/lib'])
    const listed = (await json(get('/api/composer/composer-all/p2/acme/far.json'))).packages['acme/far']
    expect(listed).toMatchObject([
      { version: '2.0.0', dist: { url: `${base}/api/composer/composer-all/acme/far/far-2.0.0.zip`, shasum: sha1(farZip) } },
    ])

    // A clean project, set up as set-me-up says for the virtual repository (packagist.org off, as there is no network here).
    const home = path.join(work, 'home-remote')
    const project = path.join(work, 'project-remote')
    fs.mkdirSync(project, { recursive: true })
    fs.writeFileSync(path.join(project, 'composer.json'), JSON.stringify({ repositories: { 'packagist.org': false } }))
    const env = composerEnv(home)
    const virtual = { baseUrl: base, repoKey: 'composer-all', rclass: 'virtual' as const, token }
    await shell(snippet('composer-auth', virtual).text, project, env)
    await shell(snippet('composer-repo', virtual).text.replaceAll('<PACKAGE>', 'acme/far:2.0.0'), project, env)
    expect(fs.existsSync(path.join(project, 'vendor', 'acme', 'far', 'src', 'Far.php'))).toBe(true)
    expect(fs.existsSync(path.join(project, 'vendor', 'acme', 'lib', 'src', 'Greeter.php'))).toBe(true)
    // The remote recorded what it cached, so the packages browser shows it with its readme,
    // licences and dependencies; the download is counted.
    const cached = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.repo_key', 'v.version'])
      .where('p.name', '=', 'acme/far')
      .executeTakeFirstOrThrow()
    expect(cached).toMatchObject({ repo_key: 'composer-remote', version: '2.0.0' })
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    expect(await browser.package('composer://acme/far')).toMatchObject({
      name: 'acme/far',
      packageType: 'composer',
      latestVersion: '2.0.0',
      description: 'From far away',
      licenses: [{ name: 'BSD-3-Clause', source: 'declared' }],
    })
    expect(await browser.readme({ id: 'composer://acme/far:2.0.0' })).toBe('The readme of acme/far.\n')
    expect(await browser.dependencies('composer://acme/far:2.0.0')).toEqual([
      { name: 'acme/lib', range: '^1.0', scope: 'runtime' },
    ])
    await browser.downloads('composer://acme/far', 1)
  }, 120_000)
})
