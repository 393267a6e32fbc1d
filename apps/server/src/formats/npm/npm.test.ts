import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, npmPublishBody, run, writeFiles } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { ADMIN_PASSWORD, createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

/** The real npm client against a real Trove on a loopback port. */
describe('npm repositories with the npm client', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  let upstream: string
  const env = () => ({
    npm_config_userconfig: path.join(work, '.npmrc'),
    npm_config_cache: path.join(work, 'cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'warn',
  })
  const npm = (args: string[], cwd = work, input?: string) => run('npm', args, { cwd, env: env(), input })
  const registry = (repo: string) => `${base}/api/npm/${repo}/`
  const useRegistry = (repo: string, withToken = true) => {
    const host = registry(repo).replace(/^http:/, '')
    fs.writeFileSync(path.join(work, '.npmrc'), `registry=${registry(repo)}\n${withToken ? `${host}:_authToken=${token}\n` : ''}`)
  }
  const db = () => t.app.db.kysely

  beforeAll(async () => {
    // The upstream a remote repository proxies: whatever registry this machine's npm uses.
    upstream = (await run('npm', ['config', 'get', 'registry'], { cwd: os.tmpdir() })).stdout.trim().replace(/\/+$/, '')
    t = await createTestApp({ TROVE_ARCHIVE_MAX_EXPANDED: '4m' })
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-npm-')
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'npm-remote', { rclass: 'remote', packageType: 'npm', url: upstream })
    await createRepo(t.fastify, admin, 'npm', {
      rclass: 'virtual',
      packageType: 'npm',
      repositories: ['npm-local', 'npm-remote'],
      defaultDeploymentRepo: 'npm-local',
    })
    writeFiles(path.join(work, 'hello'), {
      'package.json': JSON.stringify({
        name: 'hello-trove',
        version: '1.0.0',
        description: 'Says hello from Trove',
        keywords: ['greeting', 'trove'],
        // Stored as the SPDX id MIT
        license: 'MIT License',
        main: 'index.js',
      }),
      'index.js': "module.exports = () => 'hello'\n",
      'README.md': '# hello-trove\n\nSays hello.\n',
    })
    writeFiles(path.join(work, 'util'), {
      'package.json': JSON.stringify({
        name: '@acme/util',
        version: '0.1.0',
        description: 'Scoped utilities',
        license: 'Apache-2.0',
        dependencies: { 'hello-trove': '^1.0.0' },
        devDependencies: { 'left-pad': '^1.3.0' },
      }),
      'index.js': "module.exports = require('hello-trove')\n",
    })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('publishes a package and a scoped package, and records them for the packages browser', async () => {
    useRegistry('npm-local')
    const first = await npm(['publish'], path.join(work, 'hello'))
    expect(first.stderr).not.toMatch(/npm error/)
    expect(first.code).toBe(0)
    const scoped = await npm(['publish', '--access', 'public'], path.join(work, 'util'))
    expect(scoped.stderr).not.toMatch(/npm error/)
    expect(scoped.code).toBe(0)

    const pkg = await db().selectFrom('packages').selectAll().where('name', '=', 'hello-trove').executeTakeFirstOrThrow()
    expect(pkg).toMatchObject({ package_type: 'npm', description: 'Says hello from Trove', latest_version: '1.0.0' })
    const tags = await db().selectFrom('package_tags').select('tag').where('package_id', '=', pkg.id).orderBy('tag').execute()
    expect(tags.map((r) => r.tag)).toEqual(['greeting', 'trove'])
    const version = await db()
      .selectFrom('package_versions')
      .selectAll()
      .where('package_id', '=', pkg.id)
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({ repo_key: 'npm-local', version: '1.0.0', created_by: 'admin' })
    expect(JSON.parse(version.licenses)).toEqual(['MIT'])
    expect(version.readme).toContain('Says hello.')
    const files = await db().selectFrom('files').selectAll().where('version_id', '=', version.id).execute()
    expect(files).toHaveLength(1)
    expect(files[0]).toMatchObject({
      path: 'hello-trove/-/hello-trove-1.0.0.tgz',
      name: 'hello-trove-1.0.0.tgz',
      lead: 1,
      mime_type: 'application/gzip',
    })
    const blob = fs.readFileSync(
      t.app.fastify &&
        path.join(
          t.dataDir,
          'blobs',
          files[0]?.sha256.slice(0, 2) ?? '',
          files[0]?.sha256.slice(2, 4) ?? '',
          files[0]?.sha256 ?? '',
        ),
    )
    expect(crypto.createHash('sha1').update(blob).digest('hex')).toBe(files[0]?.sha1)
    expect(files[0]?.size).toBe(blob.length)

    const util = await db()
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.id', 'p.name'])
      .where('p.name', '=', '@acme/util')
      .executeTakeFirstOrThrow()
    const deps = await db()
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', util.id)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'hello-trove', range: '^1.0.0', scope: 'runtime' },
      { name: 'left-pad', range: '^1.3.0', scope: 'dev' },
    ])
  })

  it('answers 409 when a version already exists, and 404 in npm error format for a missing package', async () => {
    const again = await npm(['publish'], path.join(work, 'hello'))
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(/409|previously published/i)
    const missing = await t.fastify.inject({
      url: '/api/npm/npm-local/no-such-package',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().error).toMatch(/not found/)
    const view = await npm(['view', 'no-such-package'])
    expect(view.code).not.toBe(0)
    expect(view.stderr).toMatch(/E404/)
  })

  it('takes the same tarball again as a retry (its dist-tags applied), and refuses another under the same version', async () => {
    const put = (body: object) =>
      t.fastify.inject({
        method: 'PUT',
        url: '/api/npm/npm-local/retry-me',
        headers: { authorization: `Bearer ${token}` },
        payload: body,
      })
    const { body } = await npmPublishBody(base, 'npm-local', { name: 'retry-me', version: '1.0.0' })
    expect((await put(body)).statusCode).toBe(201)
    // The client lost the answer and sends the same publish again, now also tagging it `stable`.
    const retried = await put({ ...body, 'dist-tags': { latest: '1.0.0', stable: '1.0.0' } })
    expect(retried.statusCode).toBe(201)
    const doc = (
      await t.fastify.inject({ url: '/api/npm/npm-local/retry-me', headers: { authorization: `Bearer ${token}` } })
    ).json()
    expect(Object.keys(doc.versions)).toEqual(['1.0.0'])
    expect(doc['dist-tags']).toEqual({ latest: '1.0.0', stable: '1.0.0' })
    const other = await npmPublishBody(base, 'npm-local', { name: 'retry-me', version: '1.0.0', description: 'other content' })
    const refused = await put(other.body)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error).toMatch(/Cannot publish over the previously published version 1.0.0 of retry-me/)
  })

  it('installs with dependencies, serving abbreviated packuments to the installer, and counts downloads', async () => {
    const app = writeFiles(path.join(work, 'app'), {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', private: true }),
    })
    // A cache of its own: the publishing client's cache already holds the tarballs.
    const install = await run('npm', ['install', '@acme/util'], {
      cwd: app,
      env: { ...env(), npm_config_cache: path.join(work, 'cache-install') },
    })
    expect(install.stderr).not.toMatch(/npm error/)
    expect(install.code).toBe(0)
    expect(fs.readFileSync(path.join(app, 'node_modules/hello-trove/index.js'), 'utf8')).toContain('hello')
    expect(fs.existsSync(path.join(app, 'node_modules/@acme/util/package.json'))).toBe(true)
    const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8'))
    expect(lock.packages['node_modules/hello-trove'].version).toBe('1.0.0')

    // Counts are written in batches, within a second.
    await vi.waitFor(async () => {
      const pkg = await db()
        .selectFrom('packages')
        .select('downloads')
        .where('name', '=', 'hello-trove')
        .executeTakeFirstOrThrow()
      expect(Number(pkg.downloads)).toBe(1)
    }, 3000)
    const file = await db()
      .selectFrom('files')
      .select('download_count')
      .where('path', '=', 'hello-trove/-/hello-trove-1.0.0.tgz')
      .executeTakeFirstOrThrow()
    expect(Number(file.download_count)).toBe(1)

    const abbreviated = await t.fastify.inject({
      url: '/api/npm/npm-local/@acme%2futil',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8',
      },
    })
    expect(abbreviated.headers['content-type']).toContain('application/vnd.npm.install-v1+json')
    const body = abbreviated.json()
    expect(Object.keys(body).sort()).toEqual(['dist-tags', 'modified', 'name', 'versions'])
    expect(body.versions['0.1.0'].dependencies).toEqual({ 'hello-trove': '^1.0.0' })
    expect(body.versions['0.1.0'].description).toBeUndefined()
  })

  it('manages dist-tags, deprecates, and finds packages with npm search', async () => {
    expect((await npm(['dist-tag', 'add', 'hello-trove@1.0.0', 'beta'])).code).toBe(0)
    const ls = await npm(['dist-tag', 'ls', 'hello-trove'])
    expect(ls.stdout).toMatch(/beta: 1\.0\.0/)
    expect(ls.stdout).toMatch(/latest: 1\.0\.0/)
    const packumentTags = async () =>
      (await t.fastify.inject({ url: '/api/npm/npm-local/hello-trove', headers: { authorization: `Bearer ${token}` } })).json()[
        'dist-tags'
      ]
    expect(await packumentTags()).toHaveProperty('beta', '1.0.0')
    expect((await npm(['dist-tag', 'rm', 'hello-trove', 'beta'])).code).toBe(0)
    expect((await npm(['dist-tag', 'ls', 'hello-trove'])).stdout).not.toMatch(/beta/)
    // The packument the node keeps for a moment loses the tag at once too.
    expect(await packumentTags()).not.toHaveProperty('beta')

    const deprecate = await npm(['deprecate', 'hello-trove@1.0.0', 'use something else'])
    expect(deprecate.stderr).not.toMatch(/npm error/)
    const view = await npm(['view', 'hello-trove', '--json'])
    expect(JSON.parse(view.stdout).deprecated).toBe('use something else')

    const search = await npm(['search', 'greeting', '--json'])
    expect(search.stderr).not.toMatch(/npm error/)
    expect(JSON.parse(search.stdout).map((p: { name: string }) => p.name)).toEqual(['hello-trove'])
  })

  it('unpublishes one version, then a whole package', async () => {
    const dir = path.join(work, 'hello')
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, version: '1.1.0' }))
    expect((await npm(['publish'], dir)).code).toBe(0)
    expect(
      (await db().selectFrom('packages').select('latest_version').where('name', '=', 'hello-trove').executeTakeFirstOrThrow())
        .latest_version,
    ).toBe('1.1.0')
    const one = await npm(['unpublish', 'hello-trove@1.1.0'])
    expect(one.stderr).not.toMatch(/npm error/)
    const versions = await db()
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.version', 'p.latest_version'])
      .where('p.name', '=', 'hello-trove')
      .execute()
    expect(versions).toEqual([{ version: '1.0.0', latest_version: '1.0.0' }])
    expect(
      await db().selectFrom('files').select('id').where('path', '=', 'hello-trove/-/hello-trove-1.1.0.tgz').executeTakeFirst(),
    ).toBeUndefined()

    const all = await npm(['unpublish', '@acme/util', '--force'])
    expect(all.stderr).not.toMatch(/npm error/)
    expect(await db().selectFrom('packages').select('id').where('name', '=', '@acme/util').executeTakeFirst()).toBeUndefined()
  })

  it('logs in with npm login and uses the token it gets; refuses anonymous publishing', async () => {
    useRegistry('npm-local', false)
    const anonymous = await npm(['publish'], path.join(work, 'util'))
    expect(anonymous.code).not.toBe(0)
    expect(anonymous.stderr).toMatch(/ENEEDAUTH|E401/)
    const refused = await t.fastify.inject({ method: 'PUT', url: '/api/npm/npm-local/x', payload: { name: 'x' } })
    expect(refused.statusCode).toBe(401)
    expect(refused.headers['www-authenticate']).toMatch(/Bearer/)
    const login = await t.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-local/-/user/org.couchdb.user:admin',
      payload: { _id: 'org.couchdb.user:admin', name: 'admin', password: ADMIN_PASSWORD, type: 'user', roles: [] },
    })
    expect(login.statusCode).toBe(201)
    const wrong = await t.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-local/-/user/org.couchdb.user:admin',
      payload: { name: 'admin', password: 'wrong-password' },
    })
    expect(wrong.statusCode).toBe(401)
    // The real npm login: it prompts on a terminal, so it runs under script(1)'s pseudo-terminal and
    // gets its password once it asks (npm drops what was typed before the hidden prompt).
    const npmrc = path.join(work, '.npmrc')
    const loggedIn = await new Promise<string>((resolve) => {
      const child = spawn(
        'script',
        ['-qec', `npm login --auth-type=legacy --registry=${registry('npm-local')} --userconfig=${npmrc}`, '/dev/null'],
        { cwd: work, env: { ...process.env, ...env() } },
      )
      let out = ''
      let sentPassword = false
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (!sentPassword && out.includes('Password:')) {
          sentPassword = true
          child.stdin.write(`${ADMIN_PASSWORD}\n`)
        }
      })
      child.on('exit', () => resolve(out))
      child.stdin.write('admin\n')
      setTimeout(() => child.kill(), 60_000).unref()
    })
    expect(loggedIn).toMatch(/Logged in on/)
    expect(fs.readFileSync(npmrc, 'utf8')).toMatch(/:_authToken=trove_at_/)
    expect((await npm(['whoami'])).stdout.trim()).toBe('admin')
  })

  it('refuses a tarball whose checksum differs from the declared one, and keeps nothing', async () => {
    const data = Buffer.from('not really a tarball')
    const before = await db()
      .selectFrom('blobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const res = await t.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-local/tampered',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: {
        name: 'tampered',
        versions: {
          '1.0.0': {
            name: 'tampered',
            version: '1.0.0',
            dist: { shasum: 'a'.repeat(40), integrity: `sha512-${crypto.createHash('sha512').update('other').digest('base64')}` },
          },
        },
        'dist-tags': { latest: '1.0.0' },
        _attachments: {
          'tampered-1.0.0.tgz': { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length },
        },
      },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(/Checksum mismatch/)
    const after = await db()
      .selectFrom('blobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
    expect(await db().selectFrom('packages').select('id').where('name', '=', 'tampered').executeTakeFirst()).toBeUndefined()
  })

  it('proxies the upstream registry through a remote repository and a virtual one over local and remote', async () => {
    useRegistry('npm')
    const app = writeFiles(path.join(work, 'app2'), {
      'package.json': JSON.stringify({ name: 'app2', version: '1.0.0', private: true }),
    })
    const install = await npm(['install', 'hello-trove', 'is-number@7.0.0'], app)
    expect(install.stderr).not.toMatch(/npm error/)
    expect(install.code).toBe(0)
    expect(JSON.parse(fs.readFileSync(path.join(app, 'node_modules/is-number/package.json'), 'utf8')).version).toBe('7.0.0')
    expect(fs.existsSync(path.join(app, 'node_modules/hello-trove/index.js'))).toBe(true)
    // The upstream's tarball is cached in the remote repository and recorded as a package version.
    const cached = await db()
      .selectFrom('files')
      .select(['repo_key', 'sha1', 'version_id'])
      .where('path', '=', 'is-number/-/is-number-7.0.0.tgz')
      .executeTakeFirstOrThrow()
    expect(cached.repo_key).toBe('npm-remote')
    expect(cached.version_id).not.toBeNull()
    // An older version's readme comes from its tarball (the upstream's packument has only the latest's).
    const older = writeFiles(path.join(work, 'app3'), {
      'package.json': JSON.stringify({ name: 'app3', version: '1.0.0', private: true }),
    })
    expect((await npm(['install', 'is-number@6.0.0'], older)).code).toBe(0)
    const browser = packagesBrowser(t.fastify, admin)
    expect(await browser.readme({ id: 'npm://is-number:6.0.0' })).toMatch(/is-number/)
    // npm search shows a proxied package as the upstream published it: its date and its publisher.
    const upstreamDoc = (await (await fetch(`${upstream}/is-number`)).json()) as {
      time: Record<string, string>
      'dist-tags': { latest: string }
      versions: Record<string, { _npmUser?: { name: string } }>
      maintainers?: { name: string }[]
    }
    const latest = upstreamDoc['dist-tags'].latest
    const found = await npm(['search', 'is-number', '--json'], app)
    expect(found.code, found.stderr).toBe(0)
    const hit = (JSON.parse(found.stdout) as { name: string; date: string; publisher?: { username: string } }[]).find(
      (p) => p.name === 'is-number',
    )
    expect(hit?.publisher?.username ?? '').toBe(
      upstreamDoc.versions[latest]?._npmUser?.name ?? upstreamDoc.maintainers?.[0]?.name ?? '',
    )
    expect(new Date(hit?.date ?? 0).toISOString()).toBe(new Date(upstreamDoc.time[latest] as string).toISOString())
    // Offline, the remote answers from its cache only.
    await t.fastify.inject({
      method: 'POST',
      url: '/api/repositories/npm-remote',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      payload: { offline: true },
    })
    const cachedPackument = await t.fastify.inject({
      url: '/api/npm/npm-remote/is-number',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(cachedPackument.statusCode).toBe(200)
    expect(cachedPackument.json().versions['7.0.0'].dist.tarball).toMatch(
      /\/api\/npm\/npm-remote\/is-number\/-\/is-number-7\.0\.0\.tgz$/,
    )
    const notCached = await t.fastify.inject({ url: '/api/npm/npm-remote/is-odd', headers: { authorization: `Bearer ${token}` } })
    expect(notCached.statusCode).toBe(404)
  })

  it('refuses archives with entries that climb out of the tree', async () => {
    const { default: tar } = await import('tar-stream')
    const zlib = await import('node:zlib')
    const pack = tar.pack()
    pack.entry({ name: 'package/package.json' }, JSON.stringify({ name: 'evil', version: '1.0.0' }))
    pack.entry({ name: 'package/../../etc/passwd' }, 'x')
    pack.finalize()
    const chunks: Buffer[] = []
    for await (const c of pack) chunks.push(c as Buffer)
    const tgz = zlib.gzipSync(Buffer.concat(chunks))
    const res = await t.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-local/evil',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: {
        name: 'evil',
        versions: {
          '1.0.0': { name: 'evil', version: '1.0.0', dist: { shasum: crypto.createHash('sha1').update(tgz).digest('hex') } },
        },
        _attachments: { 'evil-1.0.0.tgz': { data: tgz.toString('base64'), length: tgz.length } },
      },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(/climbs out/)

    // A decompression bomb: far more than TROVE_ARCHIVE_MAX_EXPANDED (4m) once expanded.
    const bomb = tar.pack()
    bomb.entry({ name: 'package/package.json' }, JSON.stringify({ name: 'bomb', version: '1.0.0' }))
    bomb.entry({ name: 'package/zeros' }, Buffer.alloc(16 * 1024 * 1024))
    bomb.finalize()
    const parts: Buffer[] = []
    for await (const c of bomb) parts.push(c as Buffer)
    const small = zlib.gzipSync(Buffer.concat(parts), { level: 9 })
    const refused = await t.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-local/bomb',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: {
        name: 'bomb',
        versions: { '1.0.0': { name: 'bomb', version: '1.0.0', dist: {} } },
        _attachments: { 'bomb-1.0.0.tgz': { data: small.toString('base64'), length: small.length } },
      },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error).toMatch(/expands beyond/)
  })
})
