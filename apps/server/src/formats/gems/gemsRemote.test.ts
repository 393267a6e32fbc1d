import fs from 'node:fs'
import path from 'node:path'
import { type SetMeUpTarget, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { parseVersionsFile } from './repository.js'

/** Debian's Ruby: gem and bundle are its clients. */
const GEM = '/usr/bin/gem'

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
 * local and that remote serves both to Debian's gem and bundle. Gems are pushed, installed and
 * bundled with the commands the set-me-up panel shows.
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
  /** A set-me-up snippet's commands with its placeholders filled in. */
  const snippet = (target: Omit<SetMeUpTarget, 'packageType' | 'user'>, id: string, values: Record<string, string> = {}) => {
    const found = setMeUpSnippets({ ...target, packageType: 'gems', user: 'admin' }).find((s) => s.id === id)
    expect(found, id).toBeDefined()
    return Object.entries(values).reduce((text, [k, v]) => text.replaceAll(`<${k}>`, v), found?.text ?? '')
  }
  const shell = async (text: string, cwd: string, env: Record<string, string>) => {
    const result = await run('bash', ['-euc', text], { cwd, env })
    expect(result.code, `${text}\n${result.stdout}\n${result.stderr}`).toBe(0)
    return result
  }
  /** Pushes a gem built with `build` as the panel says: the API key from Trove, then `gem push`. */
  const push = (file: string, target: Omit<SetMeUpTarget, 'packageType' | 'user'>) => {
    const [, name = '', version = ''] = /^(.+)-([^-]+)\.gem$/.exec(path.basename(file)) ?? []
    return shell(snippet(target, 'gem-push', { GEM: name, VERSION: version }), path.dirname(file), env())
  }
  /** A consumer with nothing set up: its own home and gem directory. */
  const consumer = (name: string) => {
    const home = path.join(work, name)
    fs.mkdirSync(home, { recursive: true })
    return { HOME: home, GEM_HOME: path.join(home, 'gems'), GEM_PATH: path.join(home, 'gems'), LANG: 'C.UTF-8' }
  }
  const virtual = () => ({ baseUrl: base, repoKey: 'gems-all', rclass: 'virtual' as const, token })

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
    const far = { baseUrl: upstreamBase, repoKey: 'far', rclass: 'local' as const, token: upToken }
    for (const file of [
      await build('far_base', '1.0.0'),
      await build('far_base', '1.1.0'),
      await build('far_lib', '2.0.0', '  s.add_dependency "far_base", "~> 1.0"\n  s.add_development_dependency "rake", ">= 12"'),
      await build('far_lib', '2.1.0.rc1', '  s.add_dependency "far_base", "~> 1.0"'),
      // A name both hold: the local's version and the remote's merge.
      await build('shared', '1.0.0'),
    ])
      await push(file, far)
    // Here, pushed through the virtual (it lands in gems-local): an app gem that needs far_lib, and
    // the other version of the shared name.
    await push(await build('near_app', '0.1.0', '  s.add_dependency "far_lib", ">= 2.0"'), virtual())
    await push(await build('shared', '2.0.0'), virtual())
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
    const env = consumer('gem-consumer')
    await shell(snippet(virtual(), 'gem-install', { GEM: 'near_app' }), env.HOME, env)
    for (const dir of ['near_app-0.1.0', 'far_lib-2.0.0', 'far_base-1.1.0'])
      expect(fs.existsSync(path.join(env.GEM_HOME, 'gems', dir, 'lib')), dir).toBe(true)
  }, 120_000)

  it('installs with Bundler through the virtual', async () => {
    const env = { ...consumer('bundle-consumer'), BUNDLE_PATH: path.join(work, 'bundle-consumer', 'vendor') }
    const app = writeFiles(path.join(env.HOME, 'app'), {
      Gemfile: 'gem "near_app"\ngem "far_base", "1.0.0"\ngem "shared", "1.0.0"\n',
    })
    await shell(snippet(virtual(), 'bundler'), app, env)
    const lock = fs.readFileSync(path.join(app, 'Gemfile.lock'), 'utf8')
    expect(lock).toContain('    near_app (0.1.0)\n      far_lib (>= 2.0)')
    expect(lock).toContain('    far_lib (2.0.0)\n      far_base (~> 1.0)')
    expect(lock).toContain('    far_base (1.0.0)')
    expect(lock).toContain('    shared (1.0.0)')
  }, 120_000)

  it('shows the pushed gem and those the remote cached in the packages browser, with readme, licences, dependencies and downloads', async () => {
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    // near_app, pushed through the virtual: installed once with gem and once with Bundler.
    expect(await browser.package('gems://near_app')).toMatchObject({
      name: 'near_app',
      packageType: 'gems',
      latestVersion: '0.1.0',
      description: 'The near_app gem',
      licenses: [{ name: 'Apache-2.0', source: 'declared' }],
    })
    await browser.downloads('gems://near_app', 2)
    expect(await browser.readme({ id: 'gems://near_app:0.1.0' })).toBe('A longer description of near_app.')
    expect(await browser.dependencies('gems://near_app:0.1.0')).toEqual([{ name: 'far_lib', range: '>= 2.0', scope: 'runtime' }])

    // What the remote fetched, it recorded with the upstream's metadata.
    const rows = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.name', 'v.version'])
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
    expect(await browser.package('gems://far_lib')).toMatchObject({
      description: 'The far_lib gem',
      licenses: [{ name: 'Apache-2.0', source: 'declared' }],
    })
    expect(await browser.readme({ path: 'gems-remote/gems/far_lib-2.0.0.gem' })).toBe('A longer description of far_lib.')
    expect(await browser.dependencies('gems://far_lib:2.0.0')).toEqual([
      { name: 'rake', range: '>= 12', scope: 'development' },
      { name: 'far_base', range: '~> 1.0', scope: 'runtime' },
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
