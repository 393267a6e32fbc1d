import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  PACKAGE_QUERY,
  PACKAGES_COUNT_QUERY,
  PACKAGES_QUERY,
  VERSIONS_QUERY,
  VERSIONS_WITH_FILES_QUERY,
  versionIdOf,
} from '@trove/contracts/packages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, grantRepos, listen, run, writeFiles } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { userWithToken } from '../../identity/access/testUsers.js'

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')
const sha1 = (data: string | Buffer) => crypto.createHash('sha1').update(data).digest('hex')
const PYTHON = '/usr/bin/python3'
const PY_ENV = {
  PIP_CONFIG_FILE: '/dev/null',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring',
  PYTHONWARNINGS: 'ignore',
}

/** Packages published by real clients, then read back through the metadata API and every tab call. */
describe('packages browser', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  let reader: { authorization: string }
  let outsider: { authorization: string }
  const NPM_VERSIONS = ['1.0.0', '1.2.0', '1.10.0', '2.0.0-beta.1', '2.0.0-beta.10', '2.0.0-beta.2', '2.0.0']

  const npmEnv = () => ({
    npm_config_userconfig: path.join(work, '.npmrc'),
    npm_config_cache: path.join(work, 'cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'warn',
  })
  const npmPublish = async (dir: string, args: string[] = []) => {
    const res = await run('npm', ['publish', ...args], { cwd: dir, env: npmEnv() })
    expect(res.stderr).not.toMatch(/npm error/)
    expect(res.code).toBe(0)
  }
  const gql = (body: unknown, headers: Record<string, string> = sessionHeaders(admin)) =>
    t.fastify.inject({ method: 'POST', url: '/metadata/api/v1/query', headers, payload: body as object })
  const adminPut = (url: string, payload: object) =>
    t.fastify.inject({ method: 'PUT', url, headers: sessionHeaders(admin), payload })
  const helloLayers = () =>
    t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/views/dockerv2',
      headers: sessionHeaders(admin),
      payload: { repoKey: 'docker-local', path: 'hello/1.0/manifest.json', view: 'dockerv2' },
    })
  const mds = (
    field: 'packages' | 'package' | 'versions',
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string> = sessionHeaders(admin),
  ) =>
    t.fastify.inject({
      method: 'POST',
      url: `/ui/api/v1/mds/${field}`,
      headers,
      payload: { graphQL: { query, variables } },
    })
  const packages = async (variables: Record<string, unknown>, headers?: Record<string, string>) => {
    const res = await mds('packages', PACKAGES_QUERY, variables, headers)
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.packages as {
      edges: { node: Record<string, unknown> }[]
      pageInfo: { hasNextPage: boolean; endCursor: string | null }
    }
  }
  const versionNames = async (variables: Record<string, unknown>, headers?: Record<string, string>) => {
    const res = await mds('versions', VERSIONS_QUERY, variables, headers)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json().data.versions.edges as { node: { name: string } }[]).map((e) => e.node.name)
  }

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-packages-')
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'npm-team', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
    await createRepo(t.fastify, admin, 'generic-local', { rclass: 'local', packageType: 'generic' })
    const adminHeaders = sessionHeaders(admin)
    reader = await userWithToken(t.fastify, adminHeaders, 'reader')
    outsider = await userWithToken(t.fastify, adminHeaders, 'outsider')
    await grantRepos(t.fastify, admin, 'reader-npm', { repos: ['npm-local', 'docker-local'], user: 'reader', actions: ['read'] })

    // npm: one package in seven versions (semver order differs from text order), a scoped one with
    // dependencies, and one in a repository the reader may not read.
    const host = `${base}/api/npm/npm-local/`.replace(/^http:/, '')
    const npmrc = (repo: string) =>
      fs.writeFileSync(
        path.join(work, '.npmrc'),
        `registry=${base}/api/npm/${repo}/\n${host.replace('npm-local', repo)}:_authToken=${token}\n`,
      )
    npmrc('npm-local')
    for (const version of NPM_VERSIONS) {
      const dir = writeFiles(path.join(work, `lib-${version}`), {
        'package.json': JSON.stringify({
          name: 'trove-lib',
          version,
          description: 'A library of the packages browser test',
          keywords: ['browser', 'trove'],
          license: 'MIT',
        }),
        'index.js': `module.exports = '${version}'\n`,
        'README.md': `# trove-lib ${version}\n\nReadme of ${version}.\n`,
      })
      await npmPublish(dir, version.includes('-') ? ['--tag', 'next'] : [])
    }
    await npmPublish(
      writeFiles(path.join(work, 'util'), {
        'package.json': JSON.stringify({
          name: '@acme/util',
          version: '0.1.0',
          description: 'Scoped utilities',
          license: 'Apache-2.0',
          dependencies: { 'trove-lib': '^1.0.0' },
          devDependencies: { 'left-pad': '^1.3.0' },
        }),
        'index.js': 'module.exports = 1\n',
      }),
      ['--access', 'public'],
    )
    npmrc('npm-team')
    await npmPublish(
      writeFiles(path.join(work, 'secret'), {
        'package.json': JSON.stringify({ name: 'team-secret', version: '3.0.0', description: 'Only the team sees it' }),
        'index.js': 'module.exports = 1\n',
      }),
    )

    // docker: an image pushed with skopeo.
    const image = writeOciImage(path.join(work, 'image'), { content: 'hello 1.0\n', tag: '1.0' })
    const pushed = await run(
      'skopeo',
      [
        '--insecure-policy',
        'copy',
        '--dest-creds',
        `admin:${token}`,
        '--dest-tls-verify=false',
        `oci:${image.layout}:1.0`,
        `docker://${new URL(base).host}/docker-local/hello:1.0`,
      ],
      { cwd: work },
    )
    expect(pushed.code, pushed.stderr).toBe(0)

    // pypi: a wheel uploaded with twine.
    const dir = writeFiles(path.join(work, 'py'), {
      'pyproject.toml': `[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "trove-py"
version = "0.3.0"
description = "A Python package of the packages browser test"
readme = "README.md"
license = {text = "BSD-3-Clause"}
`,
      'README.md': '# trove-py\n\nThe Python readme.\n',
      'src/trove_py/__init__.py': 'X = 1\n',
    })
    const built = await run(PYTHON, ['-m', 'build', '--wheel', '--no-isolation', '--outdir', 'dist', '.'], {
      cwd: dir,
      env: PY_ENV,
    })
    expect(built.code, built.stderr).toBe(0)
    const wheel = path.join(dir, 'dist', fs.readdirSync(path.join(dir, 'dist'))[0] as string)
    const uploaded = await run(
      'twine',
      [
        'upload',
        '--non-interactive',
        '--disable-progress-bar',
        '--repository-url',
        `${base}/api/pypi/pypi-local`,
        '-u',
        '__token__',
        '-p',
        token,
        wheel,
      ],
      { cwd: work, env: PY_ENV },
    )
    expect(uploaded.code, uploaded.stderr).toBe(0)
  }, 240_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('lists packages by name in pages, with their real data', async () => {
    const all = await packages({ filter: { package_type: '*', versionCountMin: 1 } })
    expect(all.edges.map((e) => e.node.id)).toEqual([
      'npm://@acme/util',
      'docker://hello',
      'npm://team-secret',
      'npm://trove-lib',
      'pypi://trove-py',
    ])
    const lib = all.edges.find((e) => e.node.id === 'npm://trove-lib')?.node
    expect(lib).toMatchObject({
      name: 'trove-lib',
      packageType: 'npm',
      versionsCount: 7,
      latestVersion: '2.0.0',
      description: 'A library of the packages browser test',
      tags: ['browser', 'trove'],
      stats: { downloads: 0, followers: 0 },
      vulnerabilities: null,
    })
    expect(Date.parse(lib?.created as string)).toBeGreaterThan(0)

    // Pages of two, following endCursor, give the same order without repeats.
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const page: Awaited<ReturnType<typeof packages>> = await packages({ first: 2, after })
      seen.push(...page.edges.map((e) => e.node.id as string))
      if (!page.pageInfo.hasNextPage) break
      after = page.pageInfo.endCursor
    }
    expect(seen).toEqual(all.edges.map((e) => e.node.id))

    const desc = await packages({ orderBy: { field: 'NAME', direction: 'DESC' } })
    expect(desc.edges.map((e) => e.node.id)).toEqual([...seen].reverse())
    const newest = await packages({ orderBy: { field: 'CREATED', direction: 'DESC' }, first: 1 })
    expect(newest.edges[0]?.node.id).toBe('pypi://trove-py')

    const count = await mds('packages', PACKAGES_COUNT_QUERY, { filter: { package_type: '*' } })
    expect(count.json().data.packages.totalCount).toBe(5)
  })

  it('filters packages by type, name prefix, description, tags, scope, repositories and dates', async () => {
    const ids = async (filter: Record<string, unknown>) => (await packages({ filter })).edges.map((e) => e.node.id)
    expect(await ids({ package_type: 'docker' })).toEqual(['docker://hello'])
    expect(await ids({ packageTypeIn: ['pypi', 'docker'] })).toEqual(['docker://hello', 'pypi://trove-py'])
    expect(await ids({ lowercase_name: 'TROVE*' })).toEqual(['npm://trove-lib', 'pypi://trove-py'])
    expect(await ids({ name: 'trove-?ib' })).toEqual(['npm://trove-lib'])
    expect(await ids({ name: 'Trove-lib' })).toEqual([])
    expect(await ids({ lowercase_name: '*util' })).toEqual(['npm://@acme/util'])
    expect(await ids({ description: '*BROWSER TEST*' })).toEqual(['npm://trove-lib', 'pypi://trove-py'])
    expect(await ids({ tags: ['browser'] })).toEqual(['npm://trove-lib'])
    expect(await ids({ scope: 'acme' })).toEqual(['npm://@acme/util'])
    expect(await ids({ repositories: ['npm-team'] })).toEqual(['npm://team-secret'])
    expect(await ids({ after: '2000-01-01', before: '2999-01-01', package_type: 'pypi' })).toEqual(['pypi://trove-py'])
    expect(await ids({ before: '2000-01-01' })).toEqual([])
    expect(await ids({ versionCountMin: 2 })).toEqual(['npm://trove-lib'])
  })

  it('lists versions in semantic-version order, filtered and paged', async () => {
    const filter = { packageId: 'npm://trove-lib' }
    expect(await versionNames({ filter })).toEqual([
      '2.0.0',
      '2.0.0-beta.10',
      '2.0.0-beta.2',
      '2.0.0-beta.1',
      '1.10.0',
      '1.2.0',
      '1.0.0',
    ])
    expect(await versionNames({ filter, orderBy: { field: 'NAME_SEMVER', direction: 'ASC' } })).toEqual([
      '1.0.0',
      '1.2.0',
      '1.10.0',
      '2.0.0-beta.1',
      '2.0.0-beta.2',
      '2.0.0-beta.10',
      '2.0.0',
    ])
    expect(await versionNames({ filter, orderBy: { field: 'NAME', direction: 'ASC' }, first: 3 })).toEqual([
      '1.0.0',
      '1.10.0',
      '1.2.0',
    ])
    expect(await versionNames({ filter: { ...filter, ignorePreRelease: true } })).toEqual(['2.0.0', '1.10.0', '1.2.0', '1.0.0'])
    expect(await versionNames({ filter: { ...filter, name: '2.0.0-*' } })).toEqual([
      '2.0.0-beta.10',
      '2.0.0-beta.2',
      '2.0.0-beta.1',
    ])
    expect(await versionNames({ filter: { ...filter, tags: ['next'] } })).toEqual(['2.0.0-beta.2'])
    expect(await versionNames({ filter: { ...filter, licenses: ['MIT'] }, first: 1 })).toEqual(['2.0.0'])
    expect(await versionNames({ filter: { ...filter, licenses: ['GPL-3.0'] } })).toEqual([])
    expect(await versionNames({ filter: { ...filter, severities: ['critical'] } })).toEqual([])
    expect(await versionNames({ filter: { ...filter, repos: ['npm-team'] } })).toEqual([])

    // Paging by CREATED (the publish order) through cursors.
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const res = await mds('versions', VERSIONS_QUERY, {
        filter,
        first: 3,
        after,
        orderBy: { field: 'CREATED', direction: 'ASC' },
      })
      const page = res.json().data.versions
      seen.push(...page.edges.map((e: { node: { name: string } }) => e.node.name))
      if (!page.pageInfo.hasNextPage) break
      after = page.pageInfo.endCursor
    }
    expect(seen).toEqual(NPM_VERSIONS)
  })

  it('answers one package, and 404 for an unknown one', async () => {
    const res = await mds('package', PACKAGE_QUERY, { pkgid: 'npm://@acme/util' })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.package).toMatchObject({ id: 'npm://@acme/util', versionsCount: 1, latestVersion: '0.1.0' })
    const missing = await mds('package', PACKAGE_QUERY, { pkgid: 'npm://no-such-package' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual({ errors: [{ status: 404, message: 'Package not found' }] })
    // The plain GraphQL endpoint answers null.
    const raw = await gql({ query: PACKAGE_QUERY, variables: { pkgid: 'npm://no-such-package' } })
    expect(raw.json()).toEqual({ data: { package: null } })
  })

  it('gives a version its repositories, files and tags; docker versions their manifest', async () => {
    const res = await mds('versions', VERSIONS_WITH_FILES_QUERY, { filter: { packageId: 'npm://trove-lib', name: '2.0.0' } })
    const node = res.json().data.versions.edges[0].node
    expect(node).toMatchObject({
      id: 'npm://trove-lib:2.0.0',
      name: '2.0.0',
      package: { id: 'npm://trove-lib' },
      repos: [{ name: 'npm-local', type: 'local', leadFilePath: 'trove-lib/-/trove-lib-2.0.0.tgz' }],
      tags: ['latest'],
      stats: { downloadCount: 0 },
    })
    expect(node.files).toHaveLength(1)
    expect(node.files[0]).toMatchObject({ name: 'trove-lib-2.0.0.tgz', lead: true, mimeType: 'application/gzip' })
    expect(node.files[0].sha256).toMatch(/^[a-f0-9]{64}$/)
    expect(node.size).toBe(node.files[0].size)

    const docker = await mds('versions', VERSIONS_WITH_FILES_QUERY, { filter: { packageId: 'docker://hello' } })
    const tag = docker.json().data.versions.edges[0].node
    expect(tag.name).toBe('1.0')
    expect(tag.repos[0].leadFilePath).toBe('hello/1.0/manifest.json')
    expect(tag.files.some((f: { name: string }) => f.name.endsWith('manifest.json'))).toBe(true)
  })

  it('serves the readme, dependencies and properties by version id and by path', async () => {
    const get = (url: string) => t.fastify.inject({ url, headers: sessionHeaders(admin) })
    const id = encodeURIComponent(versionIdOf('npm://trove-lib', '1.2.0'))
    const readme = await get(`/ui/api/v1/ui/v1/native/versions/${id}/readme`)
    expect(readme.statusCode).toBe(200)
    expect(readme.json().readme).toContain('Readme of 1.2.0.')
    const byPath = await get(
      `/ui/api/v1/ui/v1/native/versions/readme?path=${encodeURIComponent('npm-local/trove-lib/-/trove-lib-1.10.0.tgz')}`,
    )
    expect(byPath.json().readme).toContain('Readme of 1.10.0.')
    const py = await get(`/ui/api/v1/ui/v1/native/versions/${encodeURIComponent('pypi://trove-py:0.3.0')}/readme`)
    expect(py.json().readme).toContain('The Python readme.')

    const deps = await get(`/ui/api/v1/ui/v1/native/versions/npm/dependencies?id=${encodeURIComponent('npm://@acme/util:0.1.0')}`)
    expect(deps.statusCode).toBe(200)
    expect(deps.json().dependencies).toEqual([
      { name: 'left-pad', range: '^1.3.0', scope: 'dev' },
      { name: 'trove-lib', range: '^1.0.0', scope: 'runtime' },
    ])

    // Properties set through the REST API on the lead file, read by version and by path.
    const path = 'trove-lib/-/trove-lib-1.0.0.tgz'
    const set = await t.fastify.inject({
      method: 'PUT',
      url: `/api/storage/npm-local/${path}?properties=${encodeURIComponent('qa.status=passed;team=web')}`,
      headers: sessionHeaders(admin),
    })
    expect(set.statusCode, set.body).toBe(204)
    const props = await get(`/ui/api/v1/ui/v1/native/versions/npm/props?id=${encodeURIComponent('npm://trove-lib:1.0.0')}`)
    expect(props.statusCode).toBe(200)
    expect(props.json()).toEqual({
      path: `npm-local/${path}`,
      properties: [
        { name: 'qa.status', values: ['passed'] },
        { name: 'team', values: ['web'] },
      ],
    })
    const propsByPath = await get(`/ui/api/v1/ui/v1/native/versions/npm/props?path=${encodeURIComponent(`npm-local/${path}`)}`)
    expect(propsByPath.json()).toEqual(props.json())

    const unknown = await get(`/ui/api/v1/ui/v1/native/versions/${encodeURIComponent('npm://trove-lib:9.9.9')}/readme`)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().errors[0]).toMatchObject({ status: 404, message: 'Version not found: npm://trove-lib:9.9.9' })
    const badId = await get('/ui/api/v1/ui/v1/native/versions/npm/dependencies?id=nonsense')
    expect(badId.statusCode).toBe(400)
  })

  it('shows docker layers from the stored manifest and config', async () => {
    const res = await helloLayers()
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json()
    expect(body.tagInfo).toMatchObject({ title: 'hello:1.0', architecture: 'amd64', os: 'linux' })
    expect(body.tagInfo.digest).toMatch(/^sha256:[a-f0-9]{64}$/)
    expect(body.layers).toHaveLength(1)
    expect(body.layers[0]).toMatchObject({ command: 'COPY hello.txt /', created: '2026-01-02T03:04:05Z' })
    const notManifest = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/views/dockerv2',
      headers: sessionHeaders(admin),
      payload: { repoKey: 'npm-local', path: 'trove-lib/-/trove-lib-1.0.0.tgz' },
    })
    expect(notManifest.statusCode).toBe(404)
    const byTag = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/views/dockerv2',
      headers: sessionHeaders(admin),
      payload: { repoKey: 'docker-local', path: 'hello/1.0' },
    })
    expect(byTag.json()).toEqual(body)
  })

  it('downloads a file as an attachment, and counts artifacts', async () => {
    const res = await t.fastify.inject({
      url: '/ui/api/v1/download?repoKey=npm-local&path=trove-lib/-/trove-lib-2.0.0.tgz',
      headers: sessionHeaders(admin),
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="trove-lib-2.0.0.tgz"; filename*=UTF-8''trove-lib-2.0.0.tgz`,
    )
    expect(res.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    const missing = await t.fastify.inject({
      url: '/ui/api/v1/download?repoKey=npm-local&path=nope.tgz',
      headers: sessionHeaders(admin),
    })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().errors[0].status).toBe(404)

    const files = await t.app.db.kysely
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const count = await t.fastify.inject({ url: '/ui/api/v1/ui/home/widget/artifactCount', headers: sessionHeaders(admin) })
    expect(count.json()).toEqual({ widgetData: { artifactCount: Number(files.n) } })
    const none = await t.fastify.inject({ url: '/ui/api/v1/ui/home/widget/artifactCount', headers: outsider })
    expect(none.json()).toEqual({ widgetData: { artifactCount: 0 } })
  })

  it('shows each user only the packages of repositories they may read', async () => {
    const ids = async (headers: Record<string, string>) =>
      (await packages({ filter: { package_type: '*' } }, headers)).edges.map((e) => e.node.id)
    expect(await ids(reader)).toEqual(['npm://@acme/util', 'docker://hello', 'npm://trove-lib'])
    expect(await ids(outsider)).toEqual([])
    const hidden = await mds('package', PACKAGE_QUERY, { pkgid: 'npm://team-secret' }, reader)
    expect(hidden.statusCode).toBe(404)
    expect(await versionNames({ filter: { packageId: 'npm://team-secret' } }, reader)).toEqual([])
    const download = await t.fastify.inject({
      url: '/ui/api/v1/download?repoKey=npm-team&path=team-secret/-/team-secret-3.0.0.tgz',
      headers: reader,
    })
    expect(download.statusCode).toBe(404)
    const readme = await t.fastify.inject({
      url: `/ui/api/v1/ui/v1/native/versions/${encodeURIComponent('npm://team-secret:3.0.0')}/readme`,
      headers: reader,
    })
    expect(readme.statusCode).toBe(404)
    // Anonymous callers see nothing while anonymous access is off.
    const anonymous = await t.fastify.inject({
      method: 'POST',
      url: '/metadata/api/v1/query',
      payload: { query: PACKAGES_QUERY },
    })
    expect(anonymous.json().data.packages.edges).toEqual([])
  })

  it("gives licences with Trove's own licence or a security licence, and withholds them with an edition's without", async () => {
    const query = '{ package(pkgid: "npm://trove-lib") { licenses { name source } operationalRisk { riskLevel } } }'
    // OSS, the licence a fresh Trove carries, locks nothing.
    expect((await gql({ query })).json().data.package.licenses).toEqual([{ name: 'MIT', source: 'declared' }])
    const install = (validThrough: number | null, type = 'ENTERPRISE') =>
      adminPut('/ui/api/v1/ui/admin/license', { type, licensedTo: 'Trove tests', validThrough })
    expect((await install(null, 'PRO')).statusCode).toBe(200)
    const without = await gql({ query })
    expect(without.json()).toEqual({ data: { package: { licenses: null, operationalRisk: null } } })
    expect((await install(null)).statusCode).toBe(200)
    const withLicense = await gql({ query })
    expect(withLicense.json()).toEqual({
      data: { package: { licenses: [{ name: 'MIT', source: 'declared' }], operationalRisk: null } },
    })
    // A licence that runs out stops giving licences at its end, though the licence read is kept.
    const validThrough = Date.now() + 1500
    expect((await install(validThrough)).statusCode).toBe(200)
    expect((await gql({ query })).json().data.package.licenses).toEqual([{ name: 'MIT', source: 'declared' }])
    await new Promise((resolve) => setTimeout(resolve, validThrough - Date.now() + 50))
    expect((await gql({ query })).json().data.package.licenses).toBeNull()
    expect((await install(null)).statusCode).toBe(200)
    expect((await gql({ query })).json().data.package.licenses).toEqual([{ name: 'MIT', source: 'declared' }])
  })

  it('shows a reader the packages of a repository created after their last query', async () => {
    const ids = async () => (await packages({ filter: { package_type: '*' } }, reader)).edges.map((e) => e.node.id)
    expect(await ids()).toEqual(['npm://@acme/util', 'docker://hello', 'npm://trove-lib'])
    await createRepo(t.fastify, admin, 'npm-later', { rclass: 'local', packageType: 'npm' })
    await grantRepos(t.fastify, admin, 'reader-later', { repos: ['npm-later'], user: 'reader', actions: ['read'] })
    const host = `${base}/api/npm/npm-later/`.replace(/^http:/, '')
    fs.writeFileSync(path.join(work, '.npmrc'), `registry=${base}/api/npm/npm-later/\n${host}:_authToken=${token}\n`)
    await npmPublish(
      writeFiles(path.join(work, 'later-1.0.0'), {
        'package.json': JSON.stringify({ name: 'later-lib', version: '1.0.0' }),
        'index.js': 'module.exports = 1\n',
      }),
    )
    expect(await ids()).toEqual(['npm://@acme/util', 'docker://hello', 'npm://later-lib', 'npm://trove-lib'])
  })

  it('refuses bad queries with 400 in the error shape', async () => {
    const syntax = await mds('packages', '{ packages(', {})
    expect(syntax.statusCode).toBe(400)
    expect(syntax.json().errors[0]).toMatchObject({ status: 400 })
    expect(syntax.json().errors[0].message).toMatch(/Syntax Error/)
    const unknownField = await gql({ query: '{ packages { edges { node { nope } } } }' })
    expect(unknownField.statusCode).toBe(400)
    expect(unknownField.json().errors[0]).toMatchObject({ status: 400, message: expect.stringMatching(/nope/) })
    const badCursor = await mds('packages', PACKAGES_QUERY, { after: 'garbage' })
    expect(badCursor.statusCode).toBe(400)
    expect(badCursor.json().errors[0].message).toMatch(/^after: /)
    const badFirst = await mds('packages', PACKAGES_QUERY, { first: 0 })
    expect(badFirst.statusCode).toBe(400)
    const badDate = await mds('packages', PACKAGES_QUERY, { filter: { before: 'yesterday' } })
    expect(badDate.statusCode).toBe(400)
    expect(badDate.json().errors[0].message).toMatch(/filter.before/)
    const badType = await mds('versions', VERSIONS_QUERY, { filter: {} })
    expect(badType.statusCode).toBe(400)
    const noBody = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/mds/packages',
      headers: sessionHeaders(admin),
      payload: { query: 'x' },
    })
    expect(noBody.statusCode).toBe(400)
    expect(noBody.json().errors[0].message).toMatch(/graphQL/)
  })

  it('serves GraphiQL to administrators only', async () => {
    const asAdmin = await t.fastify.inject({ url: '/metadata/api/v1/graphiql', headers: sessionHeaders(admin) })
    expect(asAdmin.statusCode).toBe(200)
    expect(asAdmin.body).toMatch(/graphiql/i)
    const asUser = await t.fastify.inject({ url: '/metadata/api/v1/graphiql', headers: reader })
    expect(asUser.statusCode).toBe(403)
  })

  it('takes build info through PUT /api/build and lists the builds holding an artifact', async () => {
    const download = await t.fastify.inject({
      url: '/ui/api/v1/download?repoKey=npm-local&path=trove-lib/-/trove-lib-2.0.0.tgz',
      headers: sessionHeaders(admin),
    })
    const content = download.rawPayload
    const build = (name: string, number: string, kind: 'artifacts' | 'dependencies') => ({
      version: '1.0.1',
      name,
      number,
      started: '2026-03-04T05:06:07.000+0000',
      url: `https://ci.example.com/${name}/${number}`,
      agent: { name: 'GitHub Actions', version: '2' },
      modules: [
        {
          id: `${name}:module:1.0`,
          [kind]: [{ type: 'tgz', name: 'trove-lib-2.0.0.tgz', sha1: sha1(content), sha256: sha256(content) }],
        },
      ],
    })
    const put = (body: unknown, prefix = '/api', headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
      t.fastify.inject({ method: 'PUT', url: `${prefix}/build`, headers, payload: body as object })
    expect((await put(build('lib-release', '7', 'artifacts'))).statusCode).toBe(204)
    expect((await put(build('app', '42', 'dependencies'), '/artifactory/api')).statusCode).toBe(204)
    // Re-published: replaced, not doubled.
    expect((await put(build('lib-release', '7', 'artifacts'))).statusCode).toBe(204)

    const res = await t.fastify.inject({
      url: '/ui/api/v1/ui/artifactbuilds?repoKey=npm-local&path=trove-lib/-/trove-lib-2.0.0.tgz',
      headers: sessionHeaders(admin),
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      producedBy: [
        {
          name: 'lib-release',
          number: '7',
          started: '2026-03-04T05:06:07.000Z',
          ciUrl: 'https://ci.example.com/lib-release/7',
          moduleId: 'lib-release:module:1.0',
        },
      ],
      usedBy: [
        {
          name: 'app',
          number: '42',
          started: '2026-03-04T05:06:07.000Z',
          ciUrl: 'https://ci.example.com/app/42',
          moduleId: 'app:module:1.0',
        },
      ],
    })
    const other = await t.fastify.inject({
      url: '/ui/api/v1/ui/artifactbuilds?repoKey=npm-local&path=trove-lib/-/trove-lib-1.0.0.tgz',
      headers: sessionHeaders(admin),
    })
    expect(other.json()).toEqual({ producedBy: [], usedBy: [] })

    const bad = await put({ name: 'x', number: '1', started: 'not a date' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toMatch(/started/)
    const invalid = await put({ name: 'x/y', number: '1', started: '2026-01-01T00:00:00Z' })
    expect(invalid.statusCode).toBe(400)
    const anonymous = await put(build('x', '1', 'artifacts'), '/api', {})
    expect(anonymous.statusCode).toBe(401)
    const refused = await put(build('x', '1', 'artifacts'), '/api', outsider)
    expect(refused.statusCode).toBe(403)
    const get = (url: string, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
      t.fastify.inject({ url, headers })
    expect((await get('/api/build')).json().builds.map((b: { uri: string }) => b.uri)).toEqual(['/app', '/lib-release'])
    expect((await get('/artifactory/api/build/app')).json()).toEqual({
      buildsNumbers: [{ uri: '/42', started: '2026-03-04T05:06:07.000Z' }],
    })
    const info = await get('/api/build/lib-release/7')
    expect(info.json().buildInfo).toMatchObject({ name: 'lib-release', number: '7', agent: { name: 'GitHub Actions' } })
    expect((await get('/api/build/lib-release/8')).statusCode).toBe(404)
    expect((await get('/api/build', outsider)).json()).toEqual({ builds: [] })
    expect((await get('/api/build/app', outsider)).statusCode).toBe(404)
    const stored = await t.app.db.kysely.selectFrom('builds').select(['name', 'number']).orderBy('name').execute()
    expect(stored).toEqual([
      { name: 'app', number: '42' },
      { name: 'lib-release', number: '7' },
    ])
  })

  it('keeps browsing in read-only mode: the query POSTs are reads, a publish is refused', async () => {
    const general = (readOnly: boolean) => adminPut('/ui/api/v1/ui/generalConfig', { serverName: '', baseUrl: '', readOnly })
    expect((await general(true)).statusCode).toBe(200)
    try {
      expect(
        (await packages({ filter: { package_type: '*', lowercase_name: 'trove-lib' } })).edges.map((e) => e.node.id),
      ).toEqual(['npm://trove-lib'])
      expect(await versionNames({ filter: { packageId: 'npm://trove-lib' }, first: 1 })).toEqual(['2.0.0'])
      const query = await gql({ query: '{ package(pkgid: "npm://trove-lib") { name } }' })
      expect(query.json()).toEqual({ data: { package: { name: 'trove-lib' } } })
      const layers = await helloLayers()
      expect(layers.statusCode, layers.body).toBe(200)
      const publish = await run('npm', ['publish'], {
        cwd: writeFiles(path.join(work, 'readonly-1.0.0'), {
          'package.json': JSON.stringify({ name: 'readonly-lib', version: '1.0.0' }),
          'index.js': 'module.exports = 1\n',
        }),
        env: npmEnv(),
      })
      expect(publish.code).not.toBe(0)
      expect(await versionNames({ filter: { packageId: 'npm://readonly-lib' } })).toEqual([])
    } finally {
      expect((await general(false)).statusCode).toBe(200)
    }
  })

  it('answers a repeated query from its cache until a client publishes, then shows the new version', async () => {
    const filter = { packageId: 'npm://trove-lib', ignorePreRelease: true }
    const before = await versionNames({ filter })
    expect(await versionNames({ filter })).toEqual(before)
    const host = `${base}/api/npm/npm-local/`.replace(/^http:/, '')
    fs.writeFileSync(path.join(work, '.npmrc'), `registry=${base}/api/npm/npm-local/\n${host}:_authToken=${token}\n`)
    await npmPublish(
      writeFiles(path.join(work, 'lib-2.1.0'), {
        'package.json': JSON.stringify({ name: 'trove-lib', version: '2.1.0', license: 'MIT' }),
        'index.js': 'module.exports = 1\n',
      }),
    )
    expect(await versionNames({ filter })).toEqual(['2.1.0', ...before])
    const pkg = await mds('package', PACKAGE_QUERY, { pkgid: 'npm://trove-lib' })
    expect(pkg.json().data.package).toMatchObject({ versionsCount: 8, latestVersion: '2.1.0' })
  })
})
