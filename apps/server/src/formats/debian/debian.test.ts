import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { arOf } from '../../../test/zip.js'
import { isDebianVersion, parseRelations } from './control.js'
import { dep5Licenses } from './deb.js'

/** The architecture apt installs for here. */
const ARCH = execFileSync('dpkg', ['--print-architecture']).toString().trim()
const DEP5 = (license: string) =>
  `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: trove\n\nFiles: *\nCopyright: 2026 Trove\nLicense: ${license}\n Some licence text.\n`

interface DebSpec {
  name: string
  version: string
  arch?: string
  depends?: string
  license?: string
  readme?: string
  /** dpkg-deb's compressor for both archives: xz (its default), gzip, zstd */
  compression?: string
  script?: string
  /** Symbolic links to make in the tree: path → target (absolute ones are common in real packages). */
  links?: Record<string, string>
}

/** Builds a real .deb with Debian's dpkg-deb: a control file, a script in /usr/bin, the copyright file and a README. */
function buildDeb(dir: string, spec: DebSpec): string {
  const root = path.join(dir, `${spec.name}_${spec.version}_${spec.arch ?? ARCH}`)
  fs.rmSync(root, { recursive: true, force: true })
  fs.mkdirSync(path.join(root, 'DEBIAN'), { recursive: true })
  fs.mkdirSync(path.join(root, 'usr/bin'), { recursive: true })
  fs.mkdirSync(path.join(root, `usr/share/doc/${spec.name}`), { recursive: true })
  const control = [
    `Package: ${spec.name}`,
    `Version: ${spec.version}`,
    `Architecture: ${spec.arch ?? ARCH}`,
    'Maintainer: Trove <trove@example.com>',
    'Section: utils',
    'Priority: optional',
    ...(spec.depends ? [`Depends: ${spec.depends}`] : []),
    `Description: ${spec.name} for Trove`,
    ' A package built by the Debian repository test.',
    ' .',
    ' It has a second paragraph.',
  ]
  fs.writeFileSync(path.join(root, 'DEBIAN/control'), `${control.join('\n')}\n`)
  fs.writeFileSync(path.join(root, 'usr/bin', spec.name), spec.script ?? `#!/bin/sh\necho ${spec.name} ${spec.version}\n`, {
    mode: 0o755,
  })
  fs.writeFileSync(path.join(root, `usr/share/doc/${spec.name}/copyright`), DEP5(spec.license ?? 'MIT'))
  if (spec.readme) fs.writeFileSync(path.join(root, `usr/share/doc/${spec.name}/README.md`), spec.readme)
  for (const [link, target] of Object.entries(spec.links ?? {})) {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true })
    fs.symlinkSync(target, path.join(root, link))
  }
  const out = `${root}.deb`
  execFileSync('dpkg-deb', ['--root-owner-group', `-Z${spec.compression ?? 'xz'}`, '--build', root, out], { stdio: 'ignore' })
  return out
}

describe('Debian control data', () => {
  it('checks versions by policy and reads relations and DEP-5 licences', () => {
    for (const ok of ['1.0', '1:2.3-4', '2.0~rc1+dfsg-1ubuntu2', '0.1']) expect(isDebianVersion(ok), ok).toBe(true)
    for (const bad of ['', 'a1.0', '1.0-', 'x:1.0', '1:a', '1.0_1', '1.0 2']) expect(isDebianVersion(bad), bad).toBe(false)
    expect(parseRelations('libc6 (>= 2.34), foo:any | bar (<< 2), baz')).toEqual([
      { name: 'libc6', constraint: '>= 2.34' },
      { name: 'foo', constraint: '' },
      { name: 'bar', constraint: '<< 2' },
      { name: 'baz', constraint: '' },
    ])
    expect(dep5Licenses(`${DEP5('GPL-2+')}\nFiles: debian/*\nCopyright: 2026 Trove\nLicense: MIT\n`)).toEqual(['GPL-2+', 'MIT'])
    expect(dep5Licenses('This package is under the MIT licence.\n')).toEqual([])
  })
})

/**
 * Debian repositories with Debian's own tools: .debs built by dpkg-deb and uploaded as set-me-up
 * says, the signed Release checked by gpgv, then `apt-get update` and `apt-get install` (into a
 * root of their own, with dpkg --root) through a virtual repository whose members are a local one
 * and a remote proxying a second Trove; the credentials go in auth.conf by set-me-up's lines.
 */
describe('debian repositories', () => {
  let t: TestApp
  let upstream: TestApp | undefined
  let admin: Session
  let base: string
  let token: string
  let work: string
  let snippets: (
    repoKey: string,
    rclass?: 'local' | 'virtual',
    at?: { baseUrl: string; token: string },
  ) => (id: string) => SetMeUpSnippet

  const auth = () => `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`
  const put = (url: string, body: Buffer) =>
    fetch(`${base}${url}`, { method: 'PUT', headers: { authorization: auth() }, body: new Uint8Array(body) })
  const get = (url: string) => fetch(`${base}${url}`, { headers: { authorization: auth() } })
  const text = async (url: string) => {
    const res = await get(url)
    expect(res.status, url).toBe(200)
    return res.text()
  }
  const shell = async (script: string, env: Record<string, string> = {}) => {
    const result = await run('bash', ['-euc', script], { cwd: work, env: { PATH: `/usr/sbin:/usr/bin:/sbin:/bin`, ...env } })
    expect(result.code, `${script}\n${result.stdout}\n${result.stderr}`).toBe(0)
    return result
  }

  /**
   * An apt of its own under `dir`: its configuration, lists, cache and a target root for dpkg
   * (nothing of this machine's apt or dpkg state is touched). Set-me-up's files go where they say,
   * under dir.
   */
  const aptRoot = (dir: string, repoKey: string, sources: string) => {
    const etc = path.join(dir, 'etc')
    for (const d of [
      'etc/sources.list.d',
      'etc/auth.conf.d',
      'etc/keyrings',
      'etc/apt.conf.d',
      'etc/preferences.d',
      'etc/trusted.gpg.d',
    ]) {
      fs.mkdirSync(path.join(dir, d), { recursive: true })
    }
    for (const d of [
      'state/lists/partial',
      'cache/archives/partial',
      'log',
      'target/var/lib/dpkg/info',
      'target/var/lib/dpkg/updates',
    ]) {
      fs.mkdirSync(path.join(dir, d), { recursive: true })
    }
    fs.writeFileSync(path.join(dir, 'target/var/lib/dpkg/status'), '')
    fs.writeFileSync(
      path.join(dir, 'apt.conf'),
      [
        `Dir::Etc "${etc}/";`,
        `Dir::State "${dir}/state/";`,
        `Dir::State::status "${dir}/target/var/lib/dpkg/status";`,
        `Dir::Cache "${dir}/cache/";`,
        `Dir::Log "${dir}/log/";`,
        `APT::Architecture "${ARCH}";`,
        'APT::Sandbox::User "root";',
        'Acquire::Languages "none";',
        'Debug::NoLocking "true";',
        // set-me-up's install command asks before it installs dependencies: nobody is there to answer.
        'APT::Get::Assume-Yes "true";',
        `DPkg::Options { "--root=${dir}/target"; "--log=${dir}/log/dpkg.log"; "--force-not-root"; };`,
        '',
      ].join('\n'),
    )
    const local = (p: string) => p.replace('/etc/apt/', `${etc}/`)
    const s = snippets(repoKey, 'virtual')
    fs.writeFileSync(local(s('debian-auth').file as string), s('debian-auth').text)
    fs.writeFileSync(
      local(s('debian-sources').file as string),
      local(s('debian-sources').text).replace('<DISTRIBUTION> <COMPONENT>', sources),
    )
    return { env: { APT_CONFIG: path.join(dir, 'apt.conf') }, keyCommand: local(s('debian-key').text) }
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-debian-')
    await createRepo(t.fastify, admin, 'debian-local', { rclass: 'local', packageType: 'debian' })
    snippets = (repoKey, rclass = 'local', at = { baseUrl: base, token }) => {
      const all = setMeUpSnippets({ ...at, repoKey, packageType: 'debian', rclass, user: 'admin' })
      return (id) => {
        const found = all.find((s) => s.id === id)
        if (!found) throw new Error(`no snippet ${id}`)
        return found
      }
    }
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('takes .debs (set-me-up’s upload), lists them in signed indexes gpgv accepts, and records them', async () => {
    const lib = buildDeb(work, {
      name: 'trove-lib',
      version: '1.0-1',
      arch: 'all',
      license: 'Apache-2.0',
      readme: '# trove-lib\n\nThe readme of trove-lib.\n',
      // as texlive-base's ls-R and the alternatives links of many packages
      links: {
        'usr/share/trove-lib/ls-R': '/var/lib/texmf/ls-R-TROVE',
        'usr/share/trove-lib/zz-config': '../../../etc/trove-lib.conf',
        'usr/share/doc/trove-lib/changelog.gz': '/usr/share/doc/dpkg/changelog.gz',
      },
    })
    const app = buildDeb(work, { name: 'trove-app', version: '2:1.2.3-1', depends: 'trove-lib (>= 1.0)', compression: 'gzip' })
    const upload = snippets('debian-local')('debian-upload').text
    await shell(
      upload
        .replaceAll('<FILE>', path.basename(lib, '.deb'))
        .replace('<DISTRIBUTION>', 'bookworm')
        .replace('<COMPONENT>', 'main'),
    )
    const res = await put(
      `/artifactory/debian-local/pool/main/trove-app.deb;deb.distribution=bookworm,trixie;deb.component=main`,
      fs.readFileSync(app),
    )
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ package: 'trove-app', version: '2:1.2.3-1', architecture: ARCH })

    // The Release lists the Packages files with their hashes; InRelease and Release.gpg verify with the published key.
    const release = await text('/artifactory/debian-local/dists/bookworm/Release')
    expect(release).toContain('Suite: bookworm')
    expect(release).toContain('Acquire-By-Hash: yes')
    expect(release).toContain(`Architectures: ${ARCH}`)
    const packages = await text(`/artifactory/debian-local/dists/bookworm/main/binary-${ARCH}/Packages`)
    expect(packages).toContain('Package: trove-app\n')
    expect(packages).toContain('Package: trove-lib\n')
    expect(packages).toMatch(/Filename: pool\/main\/trove-app\.deb\n/)
    const { createHash } = await import('node:crypto')
    const packagesSha = createHash('sha256').update(packages).digest('hex')
    expect(release).toContain(`${packagesSha} ${String(Buffer.byteLength(packages)).padStart(8)} main/binary-${ARCH}/Packages`)
    expect(await text(`/artifactory/debian-local/dists/bookworm/main/binary-${ARCH}/by-hash/SHA256/${packagesSha}`)).toBe(
      packages,
    )
    const keyFile = path.join(work, 'key.asc')
    fs.writeFileSync(keyFile, await text('/artifactory/api/gpg/key/public'))
    fs.writeFileSync(path.join(work, 'InRelease'), await text('/artifactory/debian-local/dists/bookworm/InRelease'))
    fs.writeFileSync(path.join(work, 'Release'), release)
    fs.writeFileSync(path.join(work, 'Release.gpg'), await text('/artifactory/debian-local/dists/bookworm/Release.gpg'))
    await shell(
      `gpg --batch --yes --dearmor -o key.gpg key.asc && gpgv --keyring ./key.gpg InRelease && gpgv --keyring ./key.gpg Release.gpg Release`,
      {
        GNUPGHOME: work,
      },
    )
    // trixie lists only the package uploaded there.
    expect(await text(`/artifactory/debian-local/dists/trixie/main/binary-${ARCH}/Packages`)).not.toContain('Package: trove-lib')

    // What the packages browser shows: description, readme, licences, dependencies.
    const db = t.app.db.kysely
    const version = await db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'v.description', 'v.readme', 'v.licenses', 'v.id'])
      .where('p.name', '=', 'trove-lib')
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({ package_type: 'debian', description: 'trove-lib for Trove' })
    expect(version.readme).toContain('The readme of trove-lib.')
    expect(JSON.parse(version.licenses)).toEqual(['Apache-2.0'])
    const appVersion = await db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.id', 'v.readme', 'v.licenses'])
      .where('p.name', '=', 'trove-app')
      .executeTakeFirstOrThrow()
    // Without a README, the extended description is the readme.
    expect(appVersion.readme).toBe('A package built by the Debian repository test.\n\nIt has a second paragraph.')
    expect(
      await db
        .selectFrom('package_dependencies')
        .select(['name', 'range', 'scope'])
        .where('version_id', '=', appVersion.id)
        .execute(),
    ).toEqual([{ name: 'trove-lib', range: '>= 1.0', scope: 'depends' }])
  }, 60_000)

  it('refuses what is not a package, or lacks a distribution, with 400 and stores nothing; 409 for another file under a stored version', async () => {
    const refused = async (url: string, body: Buffer, message: RegExp) => {
      const res = await put(url, body)
      expect(res.status, url).toBe(400)
      expect(((await res.json()) as { errors: { message: string }[] }).errors[0]?.message).toMatch(message)
    }
    await refused(
      '/artifactory/debian-local/pool/x.deb;deb.distribution=bookworm',
      Buffer.from('not a package'),
      /not an ar archive/,
    )
    await refused(
      '/artifactory/debian-local/pool/nocontrol.deb;deb.distribution=bookworm',
      arOf([
        ['debian-binary', Buffer.from('2.0\n')],
        ['data.tar.gz', Buffer.alloc(10)],
      ]),
      /no control archive/,
    )
    const good = fs.readFileSync(buildDeb(work, { name: 'trove-zst', version: '0.1', compression: 'zstd' }))
    await refused('/artifactory/debian-local/pool/trove-zst.deb', good, /deb\.distribution: name the distribution/)
    await refused('/artifactory/debian-local/dists/bookworm/x.deb;deb.distribution=bookworm', good, /makes the files under dists/)
    await refused(
      '/artifactory/debian-local/pool/trove-zst.deb;deb.distribution=../x',
      good,
      /not a distribution or component name/,
    )
    await refused(
      '/artifactory/debian-local/pool/trove-zst.deb;deb.distribution=bookworm;deb.architecture=s390x',
      good,
      /built for/,
    )
    const files = await t.app.db.kysely
      .selectFrom('files')
      .select('path')
      .where('repo_key', '=', 'debian-local')
      .where('path', 'like', 'pool/%')
      .execute()
    expect(files.map((f) => f.path).sort()).toEqual(['pool/main/trove-app.deb', 'pool/trove-lib_1.0-1_all.deb'])

    // zstd archives read too; the same file again is a retry; another under its version and architecture is 409.
    expect((await put('/artifactory/debian-local/pool/trove-zst.deb;deb.distribution=bookworm', good)).status).toBe(201)
    expect((await put('/artifactory/debian-local/pool/trove-zst.deb;deb.distribution=bookworm', good)).status).toBe(201)
    const other = fs.readFileSync(buildDeb(work, { name: 'trove-zst', version: '0.1', script: '#!/bin/sh\necho other\n' }))
    const conflict = await put('/artifactory/debian-local/pool/trove-zst-other.deb;deb.distribution=bookworm', other)
    expect(conflict.status).toBe(409)
    expect(((await conflict.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(
      `trove-zst 0.1 (${ARCH}) already exists in debian-local as pool/trove-zst.deb`,
    )
    // Deleting the package takes it out of the indexes.
    const gone = await fetch(`${base}/artifactory/debian-local/pool/trove-zst.deb`, {
      method: 'DELETE',
      headers: { authorization: auth() },
    })
    expect(gone.status).toBe(204)
    expect(await text(`/artifactory/debian-local/dists/bookworm/main/binary-${ARCH}/Packages`)).not.toContain('trove-zst')
    // Anonymous callers get a challenge.
    expect((await fetch(`${base}/artifactory/debian-local/dists/bookworm/InRelease`)).status).toBe(401)
  }, 60_000)

  it('installs with apt-get through a virtual repository over a local one and a remote proxying a second Trove', async () => {
    upstream = await createTestApp()
    const upstreamBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    const upToken = await accessToken(upstream.fastify, upAdmin)
    await createRepo(upstream.fastify, upAdmin, 'far', { rclass: 'local', packageType: 'debian' })
    const far = buildDeb(work, {
      name: 'trove-far',
      version: '3.0',
      depends: 'trove-lib',
      license: 'GPL-2.0-or-later',
      links: { 'usr/lib/trove-far/ls-R': '/var/lib/texmf/ls-R-TROVE-FAR', 'usr/bin/trove-far-alias': '/usr/bin/trove-far' },
    })
    await shell(
      snippets('far', 'local', { baseUrl: upstreamBase, token: upToken })('debian-upload')
        .text.replaceAll('<FILE>', path.basename(far, '.deb'))
        .replace('<DISTRIBUTION>', 'bookworm')
        .replace('<COMPONENT>', 'main'),
    )
    await createRepo(t.fastify, admin, 'debian-remote', {
      rclass: 'remote',
      packageType: 'debian',
      url: `${upstreamBase}/artifactory/far`,
      username: 'admin',
      password: upToken,
    })
    await createRepo(t.fastify, admin, 'debian-virtual', {
      rclass: 'virtual',
      packageType: 'debian',
      repositories: ['debian-local', 'debian-remote'],
      defaultDeploymentRepo: 'debian-local',
    })
    const merged = await text(`/artifactory/debian-virtual/dists/bookworm/main/binary-${ARCH}/Packages`)
    expect(merged).toContain('Package: trove-far\n')
    expect(merged).toContain('Package: trove-app\n')

    const dir = path.join(work, 'apt')
    const apt = aptRoot(dir, 'debian-virtual', 'bookworm main')
    await shell(apt.keyCommand)
    await shell(snippets('debian-virtual', 'virtual')('debian-install').text.replace('<PACKAGE>', 'trove-app trove-far'), apt.env)
    expect(execFileSync(path.join(dir, 'target/usr/bin/trove-app')).toString()).toBe('trove-app 2:1.2.3-1\n')
    expect(execFileSync(path.join(dir, 'target/usr/bin/trove-far')).toString()).toBe('trove-far 3.0\n')
    expect(fs.existsSync(path.join(dir, 'target/usr/bin/trove-lib'))).toBe(true)

    // The remote recorded what it cached, so the packages browser shows it with its readme (the
    // extended description), licences and dependencies; downloads are counted.
    const cached = await t.app.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.repo_key', 'v.version'])
      .where('p.name', '=', 'trove-far')
      .executeTakeFirstOrThrow()
    expect(cached).toMatchObject({ repo_key: 'debian-remote', version: '3.0' })
    const browser = packagesBrowser(t.fastify, admin)
    await browser.installSecurityLicense()
    expect(await browser.package('debian://trove-far')).toMatchObject({
      name: 'trove-far',
      packageType: 'debian',
      latestVersion: '3.0',
      description: 'trove-far for Trove',
      licenses: [{ name: 'GPL-2.0-or-later', source: 'declared' }],
    })
    expect(await browser.readme({ id: 'debian://trove-far:3.0' })).toBe(
      'A package built by the Debian repository test.\n\nIt has a second paragraph.',
    )
    expect(await browser.dependencies('debian://trove-far:3.0')).toEqual([{ name: 'trove-lib', range: '', scope: 'depends' }])
    expect(await browser.package('debian://trove-lib')).toMatchObject({ licenses: [{ name: 'Apache-2.0', source: 'declared' }] })
    expect(await browser.readme({ path: 'debian-local/pool/trove-lib_1.0-1_all.deb' })).toBe(
      '# trove-lib\n\nThe readme of trove-lib.\n',
    )
    await browser.downloads('debian://trove-app', 1)
    await browser.downloads('debian://trove-far', 1)
  }, 120_000)
})
