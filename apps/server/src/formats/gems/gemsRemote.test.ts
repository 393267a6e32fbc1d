import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { parseVersionsFile } from './repository.js'

/** Debian's Ruby: gem and bundle are its clients. */
const GEM = '/usr/bin/gem'
const BUNDLE = '/usr/bin/bundle'

describe('the compact index versions file', () => {
  it('reads appended lines: later versions added, yanked ones removed, the last md5 kept', () => {
    const text =
      'created_at: 2024-01-01T00:00:00Z\n---\nrack 1.0.0,1.1.0 aaaa\nrails 7.0.0 bbbb\nrack 1.2.0,-1.0.0 cccc\nnokogiri 1.13.3-x86_64-linux dddd\n'
    expect([...parseVersionsFile(text)]).toEqual([
      ['rack', { versions: ['1.1.0', '1.2.0'], md5: 'cccc' }],
      ['rails', { versions: ['7.0.0'], md5: 'bbbb' }],
      ['nokogiri', { versions: ['1.13.3-x86_64-linux'], md5: 'dddd' }],
    ])
  })
})

/**
 * RubyGems remote repositories: a remote proxies a second Trove (its compact index kept for the
 * metadata cache lifetime, gems cached and recorded on first download), and a virtual over a
 * local and that remote serves both to Debian's gem and bundle.
 */
describe('gems remote repositories', () => {
  let t: TestApp
  let upstream: TestApp
  let admin: Session
  let base: string
  let upstreamBase: string
  let token: string
  let upToken: string
  let work: string

  const env = () => ({
    HOME: work,
    GEM_HOME: path.join(work, 'gem-home'),
    GEM_PATH: path.join(work, 'gem-home'),
    LANG: 'C.UTF-8',
  })
  const gem = (args: string[], cwd = work) => run(GEM, args, { cwd, env: env() })
  const sourceOf = (repo: string) => {
    const url = new URL(`${base}/api/gems/${repo}/`)
    url.username = 'admin'
    url.password = token
    return url.href
  }
  const get = (repo: string, p: string) =>
    fetch(`${base}/api/gems/${repo}/${p}`, { headers: { authorization: `Bearer ${token}` } })

  /** A gem built with `gem build`. */
  async function build(name: string, version: string, extra = ''): Promise<string> {
    const dir = path.join(work, `${name}-${version}`)
    writeFiles(dir, {
      [`${name}.gemspec`]: `Gem::Specification.new do |s|
  s.name = "${name}"
  s.version = "${version}"
  s.summary = "The ${name} gem"
  s.description = "A longer description of ${name}."
  s.authors = ["Ada Lovelace"]
  s.files = ["lib/${name}.rb"]
  s.license = "Apache-2.0"
${extra}
end
`,
      [`lib/${name}.rb`]: `module ${name[0]?.toUpperCase()}${name.slice(1).replace(/_/g, '')}; VERSION = "${version}"; end\n`,
    })
    const built = await gem(['build', `${name}.gemspec`], dir)
    expect(built.code, built.stderr).toBe(0)
    return path.join(dir, `${name}-${version}.gem`)
  }
  const push = async (file: string, host: string, key: string) => {
    const res = await fetch(`${host}/api/v1/gems`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(fs.readFileSync(file)),
    })
    expect(res.status, await res.clone().text()).toBe(200)
  }

  beforeAll(async () => {
    work = tempDir('trove-gems-remote-')
    upstream = await createTestApp()
    upstreamBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'far', { rclass: 'local', packageType: 'gems' })

    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    await createRepo(t.fastify, admin, 'gems-local', { rclass: 'local', packageType: 'gems' })
    await createRepo(t.fastify, admin, 'gems-remote', {
      rclass: 'remote',
      packageType: 'gems',
      url: `${upstreamBase}/api/gems/far`,
      username: 'admin',
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'gems-all', {
      rclass: 'virtual',
      packageType: 'gems',
      repositories: ['gems-local', 'gems-remote'],
      defaultDeploymentRepo: 'gems-local',
    })

    // Far away: a gem with a runtime dependency, that dependency in two versions, and a prerelease.
    const upKey = `Basic ${Buffer.from(`admin:${upToken}`).toString('base64')}`
    for (const file of [
      await build('far_base', '1.0.0'),
      await build('far_base', '1.1.0'),
      await build('far_lib', '2.0.0', '  s.add_dependency "far_base", "~> 1.0"\n  s.add_development_dependency "rake", ">= 12"'),
      await build('far_lib', '2.1.0.rc1', '  s.add_dependency "far_base", "~> 1.0"'),
      // A name both hold: the local's version and the remote's merge.
      await build('shared', '1.0.0'),
    ])
      await push(file, `${upstreamBase}/api/gems/far`, upKey)
    // Here: an app gem that needs far_lib, and the other version of the shared name.
    const localKey = `Bearer ${token}`
    await push(
      await build('near_app', '0.1.0', '  s.add_dependency "far_lib", ">= 2.0"'),
      `${base}/api/gems/gems-local`,
      localKey,
    )
    await push(await build('shared', '2.0.0'), `${base}/api/gems/gems-local`, localKey)
  }, 120_000)
  afterAll(async () => {
    await t?.close()
    await upstream?.close()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it("serves its upstream's compact index, and the virtual merges it with the local one", async () => {
    const remoteInfo = await (await get('gems-remote', 'info/far_lib')).text()
    const upstreamInfo = await (
      await fetch(`${upstreamBase}/api/gems/far/info/far_lib`, { headers: { authorization: `Bearer ${upToken}` } })
    ).text()
    expect(remoteInfo).toBe(upstreamInfo)
    expect(await (await get('gems-remote', 'names')).text()).toBe('---\nfar_base\nfar_lib\nshared\n')
    expect((await get('gems-remote', 'info/nothing')).status).toBe(404)

    expect(await (await get('gems-all', 'names')).text()).toBe('---\nfar_base\nfar_lib\nnear_app\nshared\n')
    const versions = await (await get('gems-all', 'versions')).text()
    expect(versions).toMatch(/\nfar_lib 2\.0\.0,2\.1\.0\.rc1 [0-9a-f]{32}\n/)
    expect(versions).toMatch(/\nshared 2\.0\.0,1\.0\.0 [0-9a-f]{32}\n/)
    // Each md5 is that of the info file the virtual serves, so Bundler keeps what it fetched.
    const crypto = await import('node:crypto')
    for (const line of versions.split('---\n')[1]?.trim().split('\n') ?? []) {
      const [name, , md5] = line.split(' ')
      const info = await (await get('gems-all', `info/${name}`)).text()
      expect(crypto.createHash('md5').update(info).digest('hex'), name).toBe(md5)
    }
    const shared = await (await get('gems-all', 'info/shared')).text()
    expect(shared).toMatch(/^---\n2\.0\.0 \|checksum:[0-9a-f]{64}\n1\.0\.0 \|checksum:[0-9a-f]{64}\n$/)

    // gem list reads the Marshal specs indexes made from it.
    const listed = await gem(['list', '--remote', '--all', '--clear-sources', '--source', sourceOf('gems-all')])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain('far_base (1.1.0, 1.0.0)')
    expect(listed.stdout).toContain('near_app (0.1.0)')
    expect(listed.stdout).toContain('shared (2.0.0, 1.0.0)')
    const pre = await gem(['list', '--remote', '--prerelease', '--clear-sources', '--source', sourceOf('gems-all')])
    expect(pre.stdout).toContain('far_lib (2.1.0.rc1)')
  }, 60_000)

  it('installs with gem through the virtual: the local gem and its dependencies from the remote', async () => {
    const installDir = path.join(work, 'installed')
    const installed = await gem([
      'install',
      'near_app',
      '--clear-sources',
      '--source',
      sourceOf('gems-all'),
      '--install-dir',
      installDir,
      '--no-document',
    ])
    expect(installed.code, installed.stderr + installed.stdout).toBe(0)
    for (const dir of ['near_app-0.1.0', 'far_lib-2.0.0', 'far_base-1.1.0'])
      expect(fs.existsSync(path.join(installDir, 'gems', dir, 'lib')), dir).toBe(true)
  }, 120_000)

  it('installs with Bundler through the virtual', async () => {
    const app = writeFiles(path.join(work, 'app'), {
      Gemfile: `source "${sourceOf('gems-all')}"\ngem "near_app"\ngem "far_base", "1.0.0"\ngem "shared", "1.0.0"\n`,
    })
    const bundled = await run(BUNDLE, ['install'], {
      cwd: app,
      env: { ...env(), BUNDLE_PATH: path.join(app, 'vendor'), BUNDLE_USER_HOME: path.join(work, 'bundle-home') },
    })
    expect(bundled.code, bundled.stderr + bundled.stdout).toBe(0)
    const lock = fs.readFileSync(path.join(app, 'Gemfile.lock'), 'utf8')
    expect(lock).toContain('    near_app (0.1.0)\n      far_lib (>= 2.0)')
    expect(lock).toContain('    far_lib (2.0.0)\n      far_base (~> 1.0)')
    expect(lock).toContain('    far_base (1.0.0)')
    expect(lock).toContain('    shared (1.0.0)')
  }, 120_000)

  it('records the gems the remote cached, with their summary, licences and dependencies', async () => {
    const rows = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.name', 'v.version', 'v.id', 'v.description', 'v.readme', 'v.licenses'])
      .where('v.repo_key', '=', 'gems-remote')
      .orderBy('p.name')
      .orderBy('v.version')
      .execute()
    expect(rows.map((r) => `${r.name} ${r.version}`)).toEqual([
      'far_base 1.0.0',
      'far_base 1.1.0',
      'far_lib 2.0.0',
      'shared 1.0.0',
    ])
    const lib = rows.find((r) => r.name === 'far_lib')
    expect(lib).toMatchObject({ description: 'The far_lib gem', readme: 'A longer description of far_lib.' })
    expect(JSON.parse(lib?.licenses ?? '[]')).toEqual(['Apache-2.0'])
    const deps = await t.app.db.kysely
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', lib?.id ?? -1)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'far_base', range: '~> 1.0', scope: 'runtime' },
      { name: 'rake', range: '>= 12', scope: 'development' },
    ])
    // The files the remote cached: the gems and the quick gemspecs gem read.
    const files = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'gems-remote').execute()
    expect(files.map((f) => f.path).sort()).toEqual(
      expect.arrayContaining(['gems/far_lib-2.0.0.gem', 'gems/far_base-1.1.0.gem', 'quick/Marshal.4.8/far_lib-2.0.0.gemspec.rz']),
    )
    // The cached file answers again without the upstream, and stays one version.
    await upstream.fastify.close()
    const again = await get('gems-all', 'gems/far_lib-2.0.0.gem')
    expect(again.status).toBe(200)
    expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(0)
  })
})
