import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import tar from 'tar-stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { crateNameProblem, indexPath, isCrateVersion, packageTable, parsePublishBody } from './crate.js'
import { crateOfIndexPath } from './index.js'

/** Debian's cargo (the cargo-web package), never a rustup one that happens to be on PATH. */
const CARGO = '/usr/bin/cargo'
const RUSTC = '/usr/bin/rustc'

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** A `.crate` as cargo package makes one: a gzipped tar of `<folder>/…`. */
async function crateOf(folder: string, files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack()
  // A name starting with / is put at the archive's root (outside the crate's folder).
  for (const [name, data] of Object.entries(files))
    pack.entry({ name: name.startsWith('/') ? name.slice(1) : `${folder}/${name}` }, data)
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  return zlib.gzipSync(Buffer.concat(chunks))
}

/** The body of `PUT api/v1/crates/new`: u32 LE JSON length, JSON, u32 LE crate length, crate. */
function publishBody(metadata: Record<string, unknown>, crate: Buffer, lie = 0): Buffer {
  const json = Buffer.from(JSON.stringify(metadata))
  const a = Buffer.alloc(4)
  a.writeUInt32LE(json.length)
  const b = Buffer.alloc(4)
  b.writeUInt32LE(crate.length + lie)
  return Buffer.concat([a, json, b, crate])
}

describe('cargo names, versions and documents', () => {
  it('checks names and versions by Cargo’s rules and places index files by name length', () => {
    expect(crateNameProblem('serde_json')).toBeNull()
    expect(crateNameProblem('Foo-Bar')).toBeNull()
    expect(crateNameProblem('1abc')).toMatch(/start with/)
    expect(crateNameProblem('a.b')).toMatch(/only ASCII/)
    expect(crateNameProblem('a'.repeat(65))).toMatch(/64/)
    expect(crateNameProblem('')).toMatch(/empty/)
    for (const ok of ['0.1.0', '1.2.3-alpha.1', '1.0.0+build.5']) expect(isCrateVersion(ok), ok).toBe(true)
    for (const bad of ['v1.0.0', '1.0', '01.0.0', '1.0.0-', 'latest']) expect(isCrateVersion(bad), bad).toBe(false)
    expect(['a', 'ab', 'abc', 'abcd', 'Serde'].map(indexPath)).toEqual(['1/a', '2/ab', '3/a/abc', 'ab/cd/abcd', 'se/rd/serde'])
    expect(crateOfIndexPath('3/a/abc')).toBe('abc')
    expect(crateOfIndexPath('se/rd/serde')).toBe('serde')
    expect(crateOfIndexPath('se/xx/serde')).toBeUndefined()
    expect(crateOfIndexPath('Se/rd/Serde')).toBeUndefined()
  })

  it('refuses a publish body whose length prefixes lie', () => {
    const crate = Buffer.from('crate')
    expect(parsePublishBody(publishBody({ name: 'a', vers: '1.0.0', deps: [] }, crate)).crate).toEqual(crate)
    expect(() => parsePublishBody(publishBody({ name: 'a', vers: '1.0.0' }, crate, 3))).toThrow(
      /crate length says 8 bytes; 5 follow/,
    )
    const lying = publishBody({ name: 'a', vers: '1.0.0' }, crate)
    lying.writeUInt32LE(10_000, 0)
    expect(() => parsePublishBody(lying)).toThrow(/metadata length is longer/)
    expect(() => parsePublishBody(Buffer.from([1]))).toThrow(/too short/)
  })

  it('reads the [package] table of a normalized Cargo.toml', () => {
    const table = packageTable(
      '[package]\nedition = "2021"\nname = "x"\ndescription = """\nTwo\nlines"""\nkeywords = [\n    "a",\n    "b",\n]\nlicense = \'MIT OR Apache-2.0\'\nreadme = "docs/README.md"\n\n[dependencies.y]\nversion = "1"\n',
    )
    expect(table).toMatchObject({
      name: 'x',
      description: 'Two\nlines',
      keywords: ['a', 'b'],
      license: 'MIT OR Apache-2.0',
      readme: 'docs/README.md',
    })
    expect(table.version).toBeUndefined()
  })
})

/** Publishing with cargo, the sparse index, and cargo build through a virtual repository. */
describe('cargo registries', () => {
  let t: TestApp
  let upstream: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  let cargoHome: string

  /** The environment cargo runs in: its own home, Debian's rustc, Trove's registries only. */
  const env = (registries: Record<string, { index: string; token: string }>) => ({
    CARGO_HOME: cargoHome,
    RUSTC,
    CARGO_NET_OFFLINE: 'false',
    CARGO_REGISTRY_GLOBAL_CREDENTIAL_PROVIDERS: 'cargo:token',
    CARGO_TERM_COLOR: 'never',
    CARGO_TARGET_DIR: path.join(work, 'target'),
    ...Object.fromEntries(
      Object.entries(registries).flatMap(([name, r]) => {
        const key = name.toUpperCase().replace(/-/g, '_')
        return [
          [`CARGO_REGISTRIES_${key}_INDEX`, r.index],
          [`CARGO_REGISTRIES_${key}_TOKEN`, r.token],
        ]
      }),
    ),
  })
  const cargo = (dir: string, args: string[], registries: Record<string, { index: string; token: string }>) =>
    run(CARGO, args, { cwd: dir, env: env(registries) })
  const local = () => ({ 'cargo-local': { index: `sparse+${base}/api/cargo/cargo-local/index/`, token } })
  const raw = () => ({ authorization: token })

  /** A tiny library crate's folder. */
  const lib = (name: string, version: string, deps = '', code = `pub fn hello() -> &'static str { "${name}" }\n`) =>
    writeFiles(path.join(work, `${name}-${version}`), {
      'Cargo.toml': `[package]
name = "${name}"
version = "${version}"
edition = "2021"
description = "The ${name} crate, for Trove's tests"
license = "MIT OR Apache-2.0"
keywords = ["trove", "demo"]
readme = "README.md"

[dependencies]
${deps}`,
      'src/lib.rs': code,
      'README.md': `# ${name}\n\nThe readme of ${name} ${version}.\n`,
    })

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-cargo-')
    cargoHome = path.join(work, 'cargo-home')
    fs.mkdirSync(cargoHome)
    await createRepo(t.fastify, admin, 'cargo-local', { rclass: 'local', packageType: 'cargo' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('serves config.json and takes cargo publish, with the raw token cargo sends', async () => {
    const config = await t.fastify.inject({ url: '/api/cargo/cargo-local/index/config.json', headers: raw() })
    expect(config.statusCode).toBe(200)
    expect(config.json()).toEqual({
      dl: 'http://localhost:80/api/cargo/cargo-local/api/v1/crates',
      api: 'http://localhost:80/api/cargo/cargo-local',
      'auth-required': true,
    })
    // Anonymous: 401, which makes cargo send its token.
    const anonymous = await t.fastify.inject({ url: '/api/cargo/cargo-local/index/config.json' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json()).toEqual({ errors: [{ detail: 'Authentication is required' }] })

    const greet = lib('trove-greet', '0.1.0')
    const published = await cargo(greet, ['publish', '--registry', 'cargo-local', '--allow-dirty', '--no-verify'], local())
    expect(published.code, published.stderr).toBe(0)
    const hello = lib(
      'trove-hello',
      '0.1.0',
      'trove-greet = { version = "0.1", registry = "cargo-local" }\n',
      'pub fn hello() -> String { format!("hello from {}", trove_greet::hello()) }\n',
    )
    const second = await cargo(hello, ['publish', '--registry', 'cargo-local', '--allow-dirty', '--no-verify'], local())
    expect(second.code, second.stderr).toBe(0)

    const index = await t.fastify.inject({ url: '/api/cargo/cargo-local/index/tr/ov/trove-hello', headers: raw() })
    expect(index.statusCode).toBe(200)
    const line = JSON.parse(index.body.trim())
    const stored = await t.app.db.kysely
      .selectFrom('files')
      .select(['sha256', 'path'])
      .where('repo_key', '=', 'cargo-local')
      .where('path', 'like', 'crates/trove-hello/%')
      .executeTakeFirstOrThrow()
    expect(stored.path).toBe('crates/trove-hello/trove-hello-0.1.0.crate')
    expect(line).toEqual({
      name: 'trove-hello',
      vers: '0.1.0',
      deps: [
        {
          name: 'trove-greet',
          req: '^0.1',
          features: [],
          optional: false,
          default_features: true,
          target: null,
          kind: 'normal',
          registry: null,
        },
      ],
      cksum: stored.sha256,
      features: {},
      yanked: false,
      links: null,
      v: 2,
    })
    // What the packages browser shows: description, readme, licence, keywords and dependencies.
    const version = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'v.description', 'v.readme', 'v.licenses', 'v.id', 'v.created_by', 'p.id as pkg'])
      .where('p.name', '=', 'trove-hello')
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({
      package_type: 'cargo',
      description: "The trove-hello crate, for Trove's tests",
      created_by: 'admin',
    })
    expect(version.readme).toContain('The readme of trove-hello 0.1.0.')
    expect(JSON.parse(version.licenses)).toEqual(['MIT OR Apache-2.0'])
    const deps = await t.app.db.kysely
      .selectFrom('package_dependencies')
      .selectAll()
      .where('version_id', '=', version.id)
      .execute()
    expect(deps.map((d) => [d.name, d.range, d.scope])).toEqual([['trove-greet', '^0.1', 'runtime']])
    const tags = await t.app.db.kysely.selectFrom('package_tags').select('tag').where('package_id', '=', version.pkg).execute()
    expect(tags.map((r) => r.tag).sort()).toEqual(['demo', 'trove'])

    // Owners: the publisher.
    const owners = await cargo(greet, ['owner', '--list', '--registry', 'cargo-local', 'trove-greet'], local())
    expect(owners.code, owners.stderr).toBe(0)
    expect(owners.stdout).toContain('admin')
  }, 120_000)

  it('refuses bad publishes in Cargo’s error shape, storing nothing', async () => {
    const put = (body: Buffer) =>
      t.fastify.inject({ method: 'PUT', url: '/api/cargo/cargo-local/api/v1/crates/new', headers: raw(), payload: body })
    const meta = (name: string, vers: string) => ({ name, vers, deps: [], features: {}, license: 'MIT' })
    const good = (name: string, vers: string) =>
      crateOf(`${name}-${vers}`, { 'Cargo.toml': `[package]\nname = "${name}"\nversion = "${vers}"\n`, 'src/lib.rs': '' })
    const cases: [string, Buffer, number, RegExp][] = [
      [
        'an existing version',
        publishBody(meta('trove-greet', '0.1.0'), await good('trove-greet', '0.1.0')),
        409,
        /already exists/,
      ],
      ['a lying length', publishBody(meta('lies', '1.0.0'), await good('lies', '1.0.0'), 7), 400, /crate length says/],
      ['not a gzip tar', publishBody(meta('plain', '1.0.0'), Buffer.from('just text')), 400, /not a gzipped tar/],
      [
        'an entry outside its folder',
        publishBody(
          meta('outside', '1.0.0'),
          await crateOf('outside-1.0.0', { 'Cargo.toml': '[package]\n', '/elsewhere/x.rs': '' }),
        ),
        400,
        /outside outside-1.0.0\/: elsewhere\/x.rs/,
      ],
      ['a bad name', publishBody(meta('1bad', '1.0.0'), await good('1bad', '1.0.0')), 400, /Invalid crate name/],
      ['a bad version', publishBody(meta('badver', 'v1'), await good('badver', 'v1')), 400, /not a SemVer version/],
      [
        'a name another crate holds up to case and -/_',
        publishBody(meta('Trove_Greet', '0.2.0'), await good('Trove_Greet', '0.2.0')),
        400,
        /"trove-greet" already exists/,
      ],
    ]
    for (const [what, body, status, detail] of cases) {
      const res = await put(body)
      expect(res.statusCode, what).toBe(status)
      expect(res.json().errors[0].detail, what).toMatch(detail)
    }
    const names = await t.app.db.kysely.selectFrom('packages').select('name').where('package_type', '=', 'cargo').execute()
    expect(names.map((n) => n.name).sort()).toEqual(['trove-greet', 'trove-hello'])
    // A raw token is a credential for the cargo routes only: elsewhere it is no one.
    const elsewhere = await t.fastify.inject({
      url: '/artifactory/cargo-local/crates/trove-greet/trove-greet-0.1.0.crate',
      headers: raw(),
    })
    expect(elsewhere.statusCode).toBe(401)
    const bearer = await t.fastify.inject({
      url: '/artifactory/cargo-local/crates/trove-greet/trove-greet-0.1.0.crate',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(bearer.statusCode).toBe(200)
  })

  it('refuses a publish body whose JSON length prefix lies, in Cargo’s error shape, storing nothing', async () => {
    const files = () => t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'cargo-local').execute()
    const before = await files()
    const crate = await crateOf('liar-1.0.0', { 'Cargo.toml': '[package]\nname = "liar"\nversion = "1.0.0"\n', 'src/lib.rs': '' })
    const metadata = { name: 'liar', vers: '1.0.0', deps: [], features: {}, license: 'MIT' }
    const json = Buffer.byteLength(JSON.stringify(metadata))
    for (const [said, detail] of [
      [json + 10_000, 'The publish request’s metadata length is longer than the request'],
      [json - 5, 'The publish request’s metadata is not JSON'],
    ] as const) {
      const body = publishBody(metadata, crate)
      body.writeUInt32LE(said, 0)
      const res = await t.fastify.inject({
        method: 'PUT',
        url: '/api/cargo/cargo-local/api/v1/crates/new',
        headers: raw(),
        payload: body,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ errors: [{ detail }] })
    }
    expect(await files()).toEqual(before)
    const liar = await t.app.db.kysely.selectFrom('packages').select('id').where('name', '=', 'liar').execute()
    expect(liar).toEqual([])
    const index = await t.fastify.inject({ url: '/api/cargo/cargo-local/index/li/ar/liar', headers: raw() })
    expect(index.statusCode).toBe(404)
  })

  it('builds through a virtual repository whose remote proxies a second Trove, then honours yanks', async () => {
    upstream = await createTestApp()
    const upBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    const upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'crates', { rclass: 'local', packageType: 'cargo' })
    // Far away: faraway, and farbase it depends on.
    const up = { up: { index: `sparse+${upBase}/api/cargo/crates/index/`, token: upToken } }
    for (const far of [lib('farbase', '1.0.0'), lib('faraway', '1.0.0', 'farbase = { version = "1", registry = "up" }\n')]) {
      const upPublished = await cargo(far, ['publish', '--registry', 'up', '--allow-dirty', '--no-verify'], up)
      expect(upPublished.code, upPublished.stderr).toBe(0)
    }

    await createRepo(t.fastify, admin, 'cargo-remote', {
      rclass: 'remote',
      packageType: 'cargo',
      url: `${upBase}/api/cargo/crates/index`,
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'cargo-virtual', {
      rclass: 'virtual',
      packageType: 'cargo',
      repositories: ['cargo-local', 'cargo-remote'],
      defaultDeploymentRepo: 'cargo-local',
    })

    // The set-me-up snippet for the virtual, as a user writes it into ~/.cargo/config.toml.
    const snippets = setMeUpSnippets({
      baseUrl: base,
      repoKey: 'cargo-virtual',
      packageType: 'cargo',
      rclass: 'virtual',
      user: 'admin',
      token,
    })
    const config = snippets.find((s: SetMeUpSnippet) => s.id === 'cargo-config')
    expect(config?.file).toBe('~/.cargo/config.toml')
    expect(config?.text).toContain(`index = "sparse+${base}/api/cargo/cargo-virtual/index/"`)
    expect(config?.text).toContain('replace-with = "cargo-virtual"')
    expect(snippets.find((s) => s.id === 'cargo-login')?.text).toContain('CARGO_REGISTRIES_CARGO_VIRTUAL_TOKEN')
    fs.writeFileSync(path.join(cargoHome, 'config.toml'), config?.text ?? '')

    const app = writeFiles(path.join(work, 'app'), {
      'Cargo.toml':
        '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntrove-hello = "0.1"\nfaraway = "1"\n',
      'src/main.rs': 'fn main() { println!("{} and {}", trove_hello::hello(), faraway::hello()); }\n',
    })
    const virtual = { 'cargo-virtual': { index: `sparse+${base}/api/cargo/cargo-virtual/index/`, token } }
    const built = await cargo(app, ['build'], virtual)
    expect(built.code, built.stderr).toBe(0)
    const ran = await run(path.join(work, 'target', 'debug', 'app'), [], { cwd: app })
    expect(ran.stdout.trim()).toBe('hello from trove-greet and faraway')

    // The remote recorded what it cached, so the packages browser shows it with its readme,
    // licences and dependencies; each download was counted. So is the crate published here.
    const cached = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.repo_key'])
      .where('p.name', '=', 'faraway')
      .executeTakeFirstOrThrow()
    expect(cached.repo_key).toBe('cargo-remote')
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    expect(await browser.package('cargo://faraway')).toMatchObject({
      name: 'faraway',
      packageType: 'cargo',
      latestVersion: '1.0.0',
      description: "The faraway crate, for Trove's tests",
      licenses: [{ name: 'MIT OR Apache-2.0', source: 'declared' }],
    })
    expect(await browser.readme({ id: 'cargo://faraway:1.0.0' })).toBe('# faraway\n\nThe readme of faraway 1.0.0.\n')
    expect(await browser.dependencies('cargo://faraway:1.0.0')).toEqual([{ name: 'farbase', range: '^1', scope: 'runtime' }])
    expect(await browser.dependencies('cargo://trove-hello:0.1.0')).toEqual([
      { name: 'trove-greet', range: '^0.1', scope: 'runtime' },
    ])
    await browser.downloads('cargo://faraway', 1)
    await browser.downloads('cargo://farbase', 1)
    await browser.downloads('cargo://trove-hello', 1)

    // A yanked version is left out of a new lock file; unyanked, it is back.
    const yanked = await cargo(app, ['yank', '--registry', 'cargo-local', 'trove-greet@0.1.0'], local())
    expect(yanked.code, yanked.stderr).toBe(0)
    const index = await t.fastify.inject({ url: '/api/cargo/cargo-virtual/index/tr/ov/trove-greet', headers: raw() })
    expect(JSON.parse(index.body.trim()).yanked).toBe(true)
    fs.rmSync(path.join(app, 'Cargo.lock'))
    const refused = await cargo(app, ['generate-lockfile'], virtual)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/trove-greet = "\^0.1"`\n\s*version 0.1.0 is yanked/)
    const undone = await cargo(app, ['yank', '--undo', '--registry', 'cargo-local', 'trove-greet@0.1.0'], local())
    expect(undone.code, undone.stderr).toBe(0)
    const locked = await cargo(app, ['generate-lockfile'], virtual)
    expect(locked.code, locked.stderr).toBe(0)
  }, 240_000)

  it('deletes a version (a yank does not), and counts downloads', async () => {
    const download = await t.fastify.inject({
      url: '/api/cargo/cargo-local/api/v1/crates/trove-hello/0.1.0/download',
      headers: raw(),
    })
    expect(download.statusCode).toBe(200)
    expect(sha256(download.rawPayload)).toBe(
      JSON.parse((await t.fastify.inject({ url: '/api/cargo/cargo-local/index/tr/ov/trove-hello', headers: raw() })).body).cksum,
    )
    const deleted = await t.fastify.inject({
      method: 'DELETE',
      url: '/api/cargo/cargo-local/api/v1/crates/trove-hello/0.1.0',
      headers: raw(),
    })
    expect(deleted.statusCode).toBe(200)
    const gone = await t.fastify.inject({ url: '/api/cargo/cargo-local/index/tr/ov/trove-hello', headers: raw() })
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toEqual({ errors: [{ detail: 'crate trove-hello does not exist in cargo-local' }] })
  })
})
