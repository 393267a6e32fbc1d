import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { marshal, RubyHash, RubyUserMarshal, sym } from './marshal.js'

/** Debian's Ruby: gem and bundle are its clients. */
const GEM = '/usr/bin/gem'
const BUNDLE = '/usr/bin/bundle'
const RUBY = '/usr/bin/ruby'

describe('Ruby Marshal', () => {
  it('writes what Ruby reads back', async () => {
    const dumped = marshal([
      'ünïcode',
      0,
      122,
      123,
      -124,
      70_000,
      -70_000,
      null,
      true,
      false,
      sym('runtime'),
      sym('runtime'),
      new RubyHash([['k', [1, 2]]]),
      new RubyUserMarshal('Gem::Version', ['1.2.3']),
    ])
    const dir = tempDir('trove-marshal-')
    fs.writeFileSync(path.join(dir, 'dump'), dumped)
    const read = await run(RUBY, ['-e', 'require "rubygems"; p Marshal.load(File.binread("dump"))'], { cwd: dir })
    fs.rmSync(dir, { recursive: true, force: true })
    expect(read.stderr).toBe('')
    expect(read.stdout.trim()).toBe(
      '["ünïcode", 0, 122, 123, -124, 70000, -70000, nil, true, false, :runtime, :runtime, {"k"=>[1, 2]}, #<Gem::Version "1.2.3">]',
    )
  })
})

/**
 * RubyGems repositories with Debian's gem and bundle: `gem push` with the API key Trove hands out,
 * `gem install` and `gem list` (the compact index, the Marshal specs indexes and quick gemspecs),
 * `bundle install` through a virtual repository, `gem yank`.
 */
describe('gems repositories', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  let baseGem: string

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
  /** A gem built with `gem build` from a gemspec written here. */
  async function build(name: string, version: string, extra = '', summary = `The ${name} gem`): Promise<string> {
    const dir = path.join(work, `${name}-${version}-${summary.length}`)
    writeFiles(dir, {
      [`${name}.gemspec`]: `Gem::Specification.new do |s|
  s.name = "${name}"
  s.version = "${version}"
  s.summary = "${summary}"
  s.description = "A longer description of ${name}."
  s.authors = ["Ada Lovelace"]
  s.email = "ada@example.com"
  s.homepage = "https://example.com/${name}"
  s.files = ["lib/${name}.rb"]
  s.license = "MIT"
${extra}
end
`,
      [`lib/${name}.rb`]: `module ${name[0]?.toUpperCase()}${name.slice(1)}; VERSION = "${version}"; end\n`,
    })
    const built = await gem(['build', `${name}.gemspec`], dir)
    expect(built.code, built.stderr).toBe(0)
    return path.join(dir, `${name}-${version}.gem`)
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-gems-')
    await createRepo(t.fastify, admin, 'gems-local', { rclass: 'local', packageType: 'gems' })
    await createRepo(t.fastify, admin, 'gems-virtual', {
      rclass: 'virtual',
      packageType: 'gems',
      repositories: ['gems-local'],
      defaultDeploymentRepo: 'gems-local',
    })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('pushes with the API key Trove hands out, and records each version for the packages browser', async () => {
    const key = await run('curl', ['-sS', '-f', '-u', `admin:${token}`, `${base}/api/gems/gems-local/api/v1/api_key.yaml`], {
      cwd: work,
    })
    expect(key.code, key.stderr).toBe(0)
    expect(key.stdout).toMatch(/^---\n:rubygems_api_key: Basic [A-Za-z0-9+/=]+\n$/)
    fs.mkdirSync(path.join(work, '.gem'), { recursive: true })
    fs.writeFileSync(path.join(work, '.gem', 'credentials'), key.stdout, { mode: 0o600 })

    const host = `${base}/api/gems/gems-local`
    baseGem = await build('base', '1.0.0')
    for (const file of [
      baseGem,
      await build(
        'demo',
        '1.0.0',
        '  s.add_dependency "base", ">= 1.0", "< 2"\n  s.add_development_dependency "rake", "~> 13.0"',
      ),
      await build('demo', '2.0.0.pre1', '  s.add_dependency "base", ">= 1.0"'),
    ]) {
      const pushed = await gem(['push', file, '--host', host])
      expect(pushed.code, pushed.stderr + pushed.stdout).toBe(0)
      expect(pushed.stdout).toMatch(/Successfully registered gem: (base|demo) \(/)
    }

    const version = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'v.id', 'v.description', 'v.readme', 'v.licenses'])
      .where('p.name', '=', 'demo')
      .where('v.version', '=', '1.0.0')
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({
      package_type: 'gems',
      description: 'The demo gem',
      readme: 'A longer description of demo.',
    })
    expect(JSON.parse(version.licenses)).toEqual(['MIT'])
    const deps = await t.app.db.kysely
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', version.id)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'base', range: '>= 1.0&< 2', scope: 'runtime' },
      { name: 'rake', range: '~> 13.0', scope: 'development' },
    ])
  }, 120_000)

  it('serves the compact index, the specs indexes and quick gemspecs that gem and Bundler read', async () => {
    const get = (p: string) => fetch(`${base}/api/gems/gems-virtual/${p}`, { headers: { authorization: `Bearer ${token}` } })
    const info = await (await get('info/demo')).text()
    expect(info).toMatch(
      /^---\n1\.0\.0 base:>= 1\.0&< 2\|checksum:[0-9a-f]{64}\n2\.0\.0\.pre1 base:>= 1\.0\|checksum:[0-9a-f]{64}/,
    )
    expect(await (await get('names')).text()).toBe('---\nbase\ndemo\n')
    expect(await (await get('versions')).text()).toMatch(
      /\n---\nbase 1\.0\.0 [0-9a-f]{32}\ndemo 1\.0\.0,2\.0\.0\.pre1 [0-9a-f]{32}\n$/,
    )

    // gem list reads the Marshal indexes.
    const listed = await gem(['list', '--remote', '--clear-sources', '--source', sourceOf('gems-virtual')])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain('base (1.0.0)')
    expect(listed.stdout).toContain('demo (1.0.0)')
    const pre = await gem(['list', '--remote', '--prerelease', '--clear-sources', '--source', sourceOf('gems-virtual')])
    expect(pre.stdout).toContain('demo (2.0.0.pre1)')
    // The quick gemspec is the gemspec gem built (RubyGems' own _load keeps the licences in @license).
    fs.writeFileSync(
      path.join(work, 'demo.gemspec.rz'),
      Buffer.from(await (await get('quick/Marshal.4.8/demo-1.0.0.gemspec.rz')).arrayBuffer()),
    )
    const spec = await run(
      RUBY,
      [
        '-e',
        'require "rubygems"; s = Marshal.load(Gem::Util.inflate(File.binread("demo.gemspec.rz"))); puts [s.name, s.version, s.summary, s.instance_variable_get(:@license).inspect, s.dependencies.map(&:to_s).inspect, s.authors.inspect].join("|")',
      ],
      { cwd: work },
    )
    expect(spec.stderr).toBe('')
    expect(spec.stdout.trim()).toBe(
      'demo|1.0.0|The demo gem|["MIT"]|["base (>= 1.0, < 2)", "rake (~> 13.0, development)"]|["Ada Lovelace"]',
    )
  })

  it('installs with gem (its dependency too) and with Bundler through the virtual repository', async () => {
    const installDir = path.join(work, 'installed')
    const installed = await gem([
      'install',
      'demo',
      '--clear-sources',
      '--source',
      sourceOf('gems-virtual'),
      '--install-dir',
      installDir,
      '--no-document',
    ])
    expect(installed.code, installed.stderr + installed.stdout).toBe(0)
    expect(fs.readFileSync(path.join(installDir, 'gems', 'demo-1.0.0', 'lib', 'demo.rb'), 'utf8')).toContain('VERSION = "1.0.0"')
    expect(fs.existsSync(path.join(installDir, 'gems', 'base-1.0.0', 'lib', 'base.rb'))).toBe(true)

    const app = writeFiles(path.join(work, 'app'), { Gemfile: `source "${sourceOf('gems-virtual')}"\ngem "demo"\n` })
    const bundled = await run(BUNDLE, ['install'], {
      cwd: app,
      env: { ...env(), BUNDLE_PATH: path.join(app, 'vendor'), BUNDLE_USER_HOME: path.join(work, 'bundle-home') },
    })
    expect(bundled.code, bundled.stderr + bundled.stdout).toBe(0)
    const lock = fs.readFileSync(path.join(app, 'Gemfile.lock'), 'utf8')
    expect(lock).toContain('    demo (1.0.0)\n      base (>= 1.0, < 2)')
    expect(lock).toContain('    base (1.0.0)')
  }, 120_000)

  it('takes the same gem again, refuses another under a pushed version (409) and broken gems (422)', async () => {
    const host = `${base}/api/gems/gems-local`
    // The very file again: a client retrying a push whose answer it lost.
    const again = await gem(['push', baseGem, '--host', host])
    expect(again.code, again.stderr + again.stdout).toBe(0)
    const other = await gem(['push', await build('base', '1.0.0', '', 'Another summary'), '--host', host])
    expect(other.code).not.toBe(0)
    expect(other.stdout + other.stderr).toContain('Repushing of gem versions is not allowed: base 1.0.0 is in gems-local')

    const post = (body: Buffer) =>
      fetch(`${host}/api/v1/gems`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body })
    const notTar = await post(Buffer.from('not a gem'))
    expect(notTar.status).toBe(422)
    expect(await notTar.text()).toMatch(/^Refused gem: /)
    const empty = path.join(work, 'empty')
    writeFiles(empty, { 'data.tar.gz': 'x' })
    expect((await run('tar', ['-cf', 'empty.gem', 'data.tar.gz'], { cwd: empty })).code).toBe(0)
    const noMetadata = await post(fs.readFileSync(path.join(empty, 'empty.gem')))
    expect(noMetadata.status).toBe(422)
    expect(await noMetadata.text()).toBe('Refused gem: no metadata.gz in the archive: is it a .gem?')
    expect((await fetch(`${host}/names`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text())).trim()).toBe(
      '---\nbase\ndemo',
    )
  }, 60_000)

  it('yanks a version: it leaves the indexes and cannot be installed', async () => {
    const yanked = await gem(['yank', 'demo', '-v', '1.0.0', '--host', `${base}/api/gems/gems-local`])
    expect(yanked.code, yanked.stderr + yanked.stdout).toBe(0)
    const info = await (
      await fetch(`${base}/api/gems/gems-local/info/demo`, { headers: { authorization: `Bearer ${token}` } })
    ).text()
    expect(info).not.toContain('1.0.0 ')
    const refused = await gem([
      'install',
      'demo',
      '-v',
      '1.0.0',
      '--clear-sources',
      '--source',
      sourceOf('gems-local'),
      '--install-dir',
      path.join(work, 'after-yank'),
      '--no-document',
    ])
    expect(refused.code).not.toBe(0)
  }, 60_000)
})
