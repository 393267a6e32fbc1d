import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import tar from 'tar-stream'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { buildProject, CLIENT_ENV, PYTHON, tarGz, uploadForm, uploadSdist } from '../../../test/pypi.js'
import {
  ADMIN_PASSWORD,
  createTestApp,
  type Session,
  sessionHeaders,
  signIn,
  type TestApp,
  tempDir,
} from '../../../test/testApp.js'
import { readZip } from '../kit/archive.js'
import { normalizeName, parseFilename, parseRequirement } from './metadata.js'
import { negotiate } from './simple.js'

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')
const md5 = (data: Buffer | string) => crypto.createHash('md5').update(data).digest('hex')

describe('pypi names, requirements and negotiation', () => {
  it('normalizes names (PEP 503) and reads versions out of file names', () => {
    expect(normalizeName('Trove_Demo.Extra--x')).toBe('trove-demo-extra-x')
    expect(parseFilename('Trove_Demo-0.1.0-py3-none-any.whl')).toMatchObject({
      name: 'Trove_Demo',
      version: '0.1.0',
      kind: 'wheel',
    })
    expect(parseFilename('my-lib-2.0rc1.tar.gz', 'my_lib')).toMatchObject({ version: '2.0rc1', kind: 'sdist' })
    expect(parseFilename('../evil-1.0.tar.gz')).toBeUndefined()
  })
  it('reads requirements with extras and markers', () => {
    expect(parseRequirement('Requests (>=2.0)')).toEqual({ name: 'requests', range: '>=2.0', scope: 'runtime' })
    expect(parseRequirement('rich; extra == "fancy"')).toEqual({ name: 'rich', range: '*', scope: 'extra:fancy' })
  })
  it('picks the form by q-values, HTML by default', () => {
    const pip = 'application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html; q=0.1, text/html; q=0.01'
    expect(negotiate(pip).form).toBe('json')
    expect(negotiate('text/html, application/vnd.pypi.simple.v1+json;q=0.5').form).toBe('html')
    expect(negotiate(undefined).contentType).toMatch(/^text\/html/)
    expect(negotiate('image/png').form).toBe('html')
  })
})

/** twine uploads and pip installs against Trove, then the index and database are checked. */
describe('pypi repositories', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  let dists: string[]
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.fastify.inject({ url, headers: { host: new URL(base).host, authorization: `Bearer ${token}`, ...headers } })
  const twine = (repoUrl: string, files: string[], user = '__token__', password = token) =>
    run(
      'twine',
      [
        'upload',
        '--non-interactive',
        '--disable-progress-bar',
        '--repository-url',
        repoUrl,
        '-u',
        user,
        '-p',
        password,
        ...files,
      ],
      { cwd: work, env: CLIENT_ENV },
    )
  const pip = (indexUrl: string, target: string, requirement: string) =>
    run(
      PYTHON,
      ['-m', 'pip', 'install', '--no-deps', '--no-cache-dir', '--target', target, '--index-url', indexUrl, requirement],
      { cwd: work, env: CLIENT_ENV },
    )
  const withCredentials = (url: string, user: string, secret: string) =>
    url.replace('http://', `http://${encodeURIComponent(user)}:${encodeURIComponent(secret)}@`)

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-pypi-')
    dists = await buildProject(
      path.join(work, 'demo'),
      'Trove_Demo',
      '0.1.0',
      'dependencies = ["requests>=2.0", "rich; extra == \'fancy\'"]\n',
    )
    await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('takes a wheel and an sdist from twine and records the version with its metadata', async () => {
    const wheel = dists.find((f) => f.endsWith('.whl')) as string
    const sdist = dists.find((f) => f.endsWith('.tar.gz')) as string
    const first = await twine(`${base}/api/pypi/pypi-local`, [wheel])
    expect(first.stderr + first.stdout).not.toMatch(/HTTPError/)
    expect(first.code).toBe(0)
    // The other layout, with the user name and password over Basic.
    const second = await twine(`${base}/artifactory/api/pypi/pypi-local`, [sdist], 'admin', ADMIN_PASSWORD)
    expect(second.code).toBe(0)

    const db = t.app.db.kysely
    const pkg = await db.selectFrom('packages').selectAll().where('name', '=', 'trove-demo').executeTakeFirstOrThrow()
    expect(pkg).toMatchObject({ package_type: 'pypi', latest_version: '0.1.0', description: 'A demo package for Trove' })
    const version = await db.selectFrom('package_versions').selectAll().where('package_id', '=', pkg.id).executeTakeFirstOrThrow()
    expect(version.readme).toContain('The long description of Trove_Demo.')
    expect(JSON.parse(version.licenses)).toEqual(['MIT'])
    expect(version.created_by).toBe('admin')
    expect(JSON.parse(version.metadata)).toMatchObject({
      name: expect.stringMatching(/^Trove[-_]Demo$/),
      requiresPython: '>=3.8',
      author: 'Ada Lovelace',
      homePage: 'https://example.com/demo',
    })
    const tags = await db.selectFrom('package_tags').select('tag').where('package_id', '=', pkg.id).orderBy('tag').execute()
    expect(tags.map((r) => r.tag)).toEqual(['demo', 'trove'])
    const deps = await db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', version.id)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'requests', range: '>=2.0', scope: 'runtime' },
      { name: 'rich', range: '*', scope: 'extra:fancy' },
    ])
    const files = await db
      .selectFrom('files')
      .select(['name', 'path', 'lead', 'sha256', 'md5'])
      .where('version_id', '=', version.id)
      .orderBy('name')
      .execute()
    expect(files).toEqual([
      {
        name: 'Trove_Demo-0.1.0-py3-none-any.whl',
        path: 'trove-demo/0.1.0/Trove_Demo-0.1.0-py3-none-any.whl',
        lead: 0,
        sha256: sha256(fs.readFileSync(wheel)),
        md5: md5(fs.readFileSync(wheel)),
      },
      {
        name: 'Trove_Demo-0.1.0.tar.gz',
        path: 'trove-demo/0.1.0/Trove_Demo-0.1.0.tar.gz',
        lead: 1,
        sha256: sha256(fs.readFileSync(sdist)),
        md5: md5(fs.readFileSync(sdist)),
      },
    ])
  }, 60_000)

  it('serves the simple index as PEP 503 HTML and PEP 691 JSON, with hashes and requires-python', async () => {
    const wheel = fs.readFileSync(dists.find((f) => f.endsWith('.whl')) as string)
    const html = await get('/api/pypi/pypi-local/simple/trove-demo/')
    expect(html.statusCode).toBe(200)
    expect(html.headers['content-type']).toMatch(/^text\/html/)
    // PEP 658/714: the wheel's METADATA is served beside it, its hash in the link.
    const metadata = [
      ...(await readZip(wheel, { want: (n) => n.endsWith('.dist-info/METADATA'), maxExpandedBytes: 1e8 })).values(),
    ][0]
    expect(html.body).toContain(
      `<a href="${base}/api/pypi/pypi-local/packages/trove-demo/0.1.0/Trove_Demo-0.1.0-py3-none-any.whl#sha256=${sha256(wheel)}" data-requires-python="&gt;=3.8" data-core-metadata="sha256=${sha256(metadata as Buffer)}">Trove_Demo-0.1.0-py3-none-any.whl</a>`,
    )
    const served = await get('/api/pypi/pypi-local/packages/trove-demo/0.1.0/Trove_Demo-0.1.0-py3-none-any.whl.metadata')
    expect(served.statusCode).toBe(200)
    expect(sha256(served.rawPayload)).toBe(sha256(metadata as Buffer))
    const json = await get('/api/pypi/pypi-local/simple/trove-demo/', { accept: 'application/vnd.pypi.simple.v1+json' })
    expect(json.headers['content-type']).toMatch(/^application\/vnd\.pypi\.simple\.v1\+json/)
    const page = json.json()
    expect(page.meta['api-version']).toMatch(/^1\./)
    expect(page.name).toBe('trove-demo')
    expect(page.versions).toEqual(['0.1.0'])
    expect(page.files).toHaveLength(2)
    expect(page.files[0]).toMatchObject({
      filename: 'Trove_Demo-0.1.0-py3-none-any.whl',
      hashes: { sha256: sha256(wheel) },
      'requires-python': '>=3.8',
      size: wheel.length,
      yanked: false,
      'core-metadata': { sha256: sha256(metadata as Buffer) },
    })
    expect(page.files[1]['core-metadata']).toBeUndefined()
    // A name as the user wrote it leads to the normalized page.
    const redirect = await get('/api/pypi/pypi-local/simple/Trove_Demo/')
    expect(redirect.statusCode).toBe(301)
    expect(redirect.headers.location).toBe(`${base}/api/pypi/pypi-local/simple/trove-demo/`)
    const list = await get('/artifactory/api/pypi/pypi-local/simple/')
    expect(list.body).toContain(`<a href="${base}/artifactory/api/pypi/pypi-local/simple/trove-demo/">trove-demo</a>`)
    const listJson = await get('/api/pypi/pypi-local/simple/', { accept: 'application/vnd.pypi.simple.v1+json' })
    expect(listJson.json().projects).toEqual([{ name: 'trove-demo' }])
    const missing = await get('/api/pypi/pypi-local/simple/no-such-project/')
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).toMatch(/^text\/html/)
    expect(missing.body).toContain('404 Not Found')
    const missingJson = await get('/api/pypi/pypi-local/simple/no-such-project/', {
      accept: 'application/vnd.pypi.simple.v1+json',
    })
    expect(missingJson.statusCode).toBe(404)
    expect(missingJson.json().errors[0].message).toMatch(/no-such-project not found/)
    const anonymous = await t.fastify.inject({ url: '/api/pypi/pypi-local/simple/trove-demo/' })
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/)
  })

  it('installs with pip from the index (token over Basic), counting the download', async () => {
    const target = path.join(work, 'site')
    const indexUrl = withCredentials(`${base}/api/pypi/pypi-local/simple/`, '__token__', token)
    const result = await pip(indexUrl, target, 'trove-demo==0.1.0')
    expect(result.stderr).not.toMatch(/ERROR/)
    expect(result.code).toBe(0)
    expect(fs.readFileSync(path.join(target, 'trove_demo', '__init__.py'), 'utf8')).toContain('0.1.0')
    // Without credentials pip is refused.
    const refused = await pip(`${base}/api/pypi/pypi-local/simple/`, path.join(work, 'nope'), 'trove-demo==0.1.0')
    expect(refused.code).not.toBe(0)
    // Counts are written in batches, within a second.
    await vi.waitFor(async () => {
      const pkg = await t.app.db.kysely
        .selectFrom('packages')
        .select('downloads')
        .where('name', '=', 'trove-demo')
        .executeTakeFirstOrThrow()
      expect(Number(pkg.downloads)).toBe(1)
    }, 3000)
    // The same file by its path in the repository, as the repository's URL lists it.
    const byPath = await get('/artifactory/pypi-local/trove-demo/0.1.0/Trove_Demo-0.1.0.tar.gz')
    expect(byPath.statusCode).toBe(200)
    expect(byPath.headers['x-checksum-sha256']).toBe(sha256(fs.readFileSync(dists.find((f) => f.endsWith('.tar.gz')) as string)))
    expect((await get('/artifactory/pypi-local/trove-demo/')).json().children).toEqual([{ uri: '/0.1.0', folder: true }])
  }, 60_000)

  it('takes the same file again (a retry), refuses other content under its name (409), a wrong digest (400) and unsafe archives (400), storing nothing', async () => {
    const wheel = dists.find((f) => f.endsWith('.whl')) as string
    const stored = (await get(`/api/pypi/pypi-local/packages/trove-demo/0.1.0/${path.basename(wheel)}`)).rawPayload
    // A client retrying an upload whose answer it lost: it succeeds and nothing changes.
    const again = await twine(`${base}/api/pypi/pypi-local`, [wheel])
    expect(again.code, again.stdout + again.stderr).toBe(0)
    expect((await get(`/api/pypi/pypi-local/packages/trove-demo/0.1.0/${path.basename(wheel)}`)).rawPayload).toEqual(stored)
    const changed = path.join(work, 'changed', path.basename(wheel))
    fs.mkdirSync(path.dirname(changed), { recursive: true })
    fs.copyFileSync(wheel, changed)
    const appended = await run(
      PYTHON,
      ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1], "a").writestr("extra.txt", "other content")', changed],
      { cwd: work },
    )
    expect(appended.code, appended.stderr).toBe(0)
    const other = await twine(`${base}/api/pypi/pypi-local`, [changed])
    expect(other.code).not.toBe(0)
    expect(other.stdout + other.stderr).toMatch(/409/)
    expect(other.stdout + other.stderr).toMatch(/File already exists/)
    // A file is replaced by deleting it first (delete permission), then uploading again.
    const name = path.basename(wheel)
    const removed = await t.fastify.inject({
      method: 'DELETE',
      url: `/api/pypi/pypi-local/packages/trove-demo/0.1.0/${name}`,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(removed.statusCode).toBe(204)
    expect((await get(`/api/pypi/pypi-local/packages/trove-demo/0.1.0/${name}`)).statusCode).toBe(404)
    expect((await twine(`${base}/api/pypi/pypi-local`, [wheel])).code).toBe(0)

    const post = (fields: Record<string, string | string[]>, filename: string, content: Buffer) => {
      const form = uploadForm({ ':action': 'file_upload', protocol_version: '1', ...fields }, filename, content)
      return t.fastify.inject({
        method: 'POST',
        url: '/api/pypi/pypi-local/',
        headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
        payload: form.payload,
      })
    }
    const good = await tarGz([{ name: 'other-1.0/PKG-INFO', content: 'Metadata-Version: 2.1\nName: other\nVersion: 1.0\n' }])
    const bad = await post(
      { name: 'other', version: '1.0', filetype: 'sdist', sha256_digest: sha256('not it') },
      'other-1.0.tar.gz',
      good,
    )
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toMatch(/Checksum mismatch/)
    const badMd5 = await post({ name: 'other', version: '1.0', md5_digest: md5('not it') }, 'other-1.0.tar.gz', good)
    expect(badMd5.statusCode).toBe(400)
    const climbing = await tarGz([
      { name: 'evil-1.0/PKG-INFO', content: 'Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n' },
      { name: 'evil-1.0/../../etc/passwd', content: 'x' },
    ])
    const climb = await post({ name: 'evil', version: '1.0' }, 'evil-1.0.tar.gz', climbing)
    expect(climb.statusCode).toBe(400)
    expect(climb.json().errors[0].message).toMatch(/Refused archive/)
    const linking = await tarGz([{ name: 'evil-1.0/link', type: 'symlink', linkname: '../../../etc/passwd' }])
    expect((await post({ name: 'evil', version: '1.0' }, 'evil-1.0.tar.gz', linking)).statusCode).toBe(400)
    const bomb = zlib.gzipSync(
      Buffer.concat([
        await (async () => {
          const pack = tar.pack()
          pack.entry({ name: 'evil-1.0/big' }, Buffer.alloc(8 * 1024 * 1024))
          pack.finalize()
          const chunks: Buffer[] = []
          for await (const c of pack) chunks.push(c as Buffer)
          return Buffer.concat(chunks)
        })(),
      ]),
    )
    const small = await createTestApp({
      TROVE_ARCHIVE_MAX_EXPANDED: String(1024 * 1024),
      TROVE_UPLOAD_MAX_SIZE: String(2 * 1024 * 1024),
    })
    try {
      const smallAdmin = await signIn(small.fastify)
      await createRepo(small.fastify, smallAdmin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
      const form = uploadForm({ ':action': 'file_upload', name: 'evil', version: '1.0' }, 'evil-1.0.tar.gz', bomb)
      const res = await small.fastify.inject({
        method: 'POST',
        url: '/api/pypi/pypi-local/',
        headers: {
          authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
          'content-type': form.contentType,
        },
        payload: form.payload,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().errors[0].message).toMatch(/expands beyond/)
      // Larger than the upload limit: 413 while it streams, nothing kept.
      const big = uploadForm(
        { ':action': 'file_upload', name: 'big', version: '1.0' },
        'big-1.0.tar.gz',
        Buffer.alloc(3 * 1024 * 1024),
      )
      const tooBig = await small.fastify.inject({
        method: 'POST',
        url: '/api/pypi/pypi-local/',
        headers: {
          authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
          'content-type': big.contentType,
        },
        payload: big.payload,
      })
      expect(tooBig.statusCode).toBe(413)
      expect(await small.app.db.kysely.selectFrom('files').select('id').execute()).toEqual([])
    } finally {
      await small.close()
    }
    // The form may leave the metadata to the distribution: it is read from PKG-INFO.
    const described = await tarGz([
      {
        name: 'Plain.Lib-2.0/PKG-INFO',
        content:
          'Metadata-Version: 2.1\nName: Plain.Lib\nVersion: 2.0\nSummary: Read from PKG-INFO\nLicense: BSD-3-Clause\nRequires-Python: >=3.9\n\nThe body is the readme.\n',
      },
    ])
    const plain = await post({}, 'Plain.Lib-2.0.tar.gz', described)
    expect(plain.statusCode).toBe(200)
    const db = t.app.db.kysely
    const names = await db.selectFrom('packages').select('name').where('package_type', '=', 'pypi').orderBy('name').execute()
    expect(names.map((r) => r.name)).toEqual(['plain-lib', 'trove-demo'])
    const plainVersion = await db
      .selectFrom('package_versions')
      .selectAll()
      .where('version', '=', '2.0')
      .where('repo_key', '=', 'pypi-local')
      .executeTakeFirstOrThrow()
    expect(plainVersion).toMatchObject({ description: 'Read from PKG-INFO', readme: 'The body is the readme.\n' })
    expect(JSON.parse(plainVersion.licenses)).toEqual(['BSD-3-Clause'])
    const files = await db.selectFrom('files').select('name').where('repo_key', '=', 'pypi-local').orderBy('name').execute()
    expect(files.map((f) => f.name)).toEqual([
      'Plain.Lib-2.0.tar.gz',
      'Trove_Demo-0.1.0-py3-none-any.whl',
      'Trove_Demo-0.1.0.tar.gz',
    ])
  }, 60_000)

  it('proxies a second Trove through a remote repository and merges members in a virtual one', async () => {
    const upstream = await createTestApp()
    try {
      const upstreamBase = await listen(upstream.fastify)
      const upstreamAdmin = await signIn(upstream.fastify)
      const upstreamToken = await accessToken(upstream.fastify, upstreamAdmin)
      await createRepo(upstream.fastify, upstreamAdmin, 'up-local', { rclass: 'local', packageType: 'pypi' })
      const upDists = await buildProject(path.join(work, 'up'), 'upstream-lib', '1.2.0', 'dependencies = ["trove-demo"]\n')
      const pushed = await run(
        'twine',
        [
          'upload',
          '--non-interactive',
          '--disable-progress-bar',
          '--repository-url',
          `${upstreamBase}/api/pypi/up-local`,
          '-u',
          'admin',
          '-p',
          upstreamToken,
          ...upDists,
        ],
        { cwd: work, env: CLIENT_ENV },
      )
      expect(pushed.code).toBe(0)
      await createRepo(t.fastify, admin, 'pypi-remote', {
        rclass: 'remote',
        packageType: 'pypi',
        url: `${upstreamBase}/api/pypi/up-local`,
        username: 'admin',
        password: upstreamToken,
      })
      await createRepo(t.fastify, admin, 'pypi-virtual', {
        rclass: 'virtual',
        packageType: 'pypi',
        repositories: ['pypi-local', 'pypi-remote'],
        defaultDeploymentRepo: 'pypi-local',
      })
      const list = await get('/api/pypi/pypi-virtual/simple/', { accept: 'application/vnd.pypi.simple.v1+json' })
      expect(list.json().projects.map((p: { name: string }) => p.name)).toEqual(['plain-lib', 'trove-demo', 'upstream-lib'])
      const page = await get('/api/pypi/pypi-virtual/simple/upstream-lib/')
      expect(page.body).toContain(
        `${base}/api/pypi/pypi-virtual/packages/upstream-lib/1.2.0/upstream_lib-1.2.0-py3-none-any.whl#sha256=`,
      )

      const target = path.join(work, 'site-virtual')
      const indexUrl = withCredentials(`${base}/api/pypi/pypi-virtual/simple/`, 'admin', ADMIN_PASSWORD)
      for (const requirement of ['upstream-lib==1.2.0', 'trove-demo==0.1.0']) {
        const result = await pip(indexUrl, target, requirement)
        expect(result.stderr).not.toMatch(/ERROR/)
        expect(result.code).toBe(0)
      }
      expect(fs.existsSync(path.join(target, 'upstream_lib', '__init__.py'))).toBe(true)
      expect(fs.existsSync(path.join(target, 'trove_demo', '__init__.py'))).toBe(true)

      // The remote cached the wheel and recorded it with the metadata read from inside it.
      const db = t.app.db.kysely
      const cached = await db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['v.repo_key', 'v.description', 'v.readme', 'p.name'])
        .where('p.name', '=', 'upstream-lib')
        .executeTakeFirstOrThrow()
      expect(cached).toMatchObject({ repo_key: 'pypi-remote', description: 'A demo package for Trove' })
      expect(cached.readme).toContain('The long description of upstream-lib.')

      // With the upstream gone, the remote answers from its cache: the page and the cached wheel.
      await upstream.fastify.close()
      const cachedPage = await get('/api/pypi/pypi-remote/simple/upstream-lib/', {
        accept: 'application/vnd.pypi.simple.v1+json',
      })
      expect(cachedPage.statusCode).toBe(200)
      expect(cachedPage.json().files.map((f: { filename: string }) => f.filename)).toContain(
        'upstream_lib-1.2.0-py3-none-any.whl',
      )
      expect(
        (await get('/api/pypi/pypi-remote/packages/upstream-lib/1.2.0/upstream_lib-1.2.0-py3-none-any.whl')).statusCode,
      ).toBe(200)

      // Uploads to the virtual repository land in its default deployment repository.
      const more = await buildProject(path.join(work, 'more'), 'more-lib', '0.0.1')
      const deployed = await twine(`${base}/api/pypi/pypi-virtual`, more)
      expect(deployed.code).toBe(0)
      const file = await db
        .selectFrom('files')
        .select('repo_key')
        .where('name', 'like', 'more%0.0.1.tar.gz')
        .executeTakeFirstOrThrow()
      expect(file.repo_key).toBe('pypi-local')
    } finally {
      await upstream.close()
    }
  }, 120_000)
})

describe('pypi quick creation', () => {
  it('makes pypi-local, pypi-remote and pypi-virtual, and the virtual one takes uploads for the local one', async () => {
    const t = await createTestApp()
    try {
      const admin = await signIn(t.fastify)
      const res = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/admin/repositories/quickCreate',
        headers: sessionHeaders(admin),
        payload: { packageType: 'pypi', remoteUrl: 'https://pypi.example.invalid' },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().created).toEqual(['pypi-local', 'pypi-remote', 'pypi-virtual'])
      const upload = await uploadSdist(t, admin, 'pypi-virtual', '1.0')
      expect(upload.statusCode).toBe(200)
      const file = await t.app.db.kysely.selectFrom('files').select(['repo_key', 'path']).executeTakeFirstOrThrow()
      expect(file).toEqual({ repo_key: 'pypi-local', path: 'x/1.0/x-1.0.tar.gz' })
    } finally {
      await t.close()
    }
  })
})

describe('pypi simple index kept per node', () => {
  it('lists an upload and drops a deleted file at once, in the local repository and through a virtual one', async () => {
    const t = await createTestApp()
    try {
      const admin = await signIn(t.fastify)
      await createRepo(t.fastify, admin, 'pypi-local', { rclass: 'local', packageType: 'pypi' })
      await createRepo(t.fastify, admin, 'pypi-virtual', { rclass: 'virtual', packageType: 'pypi', repositories: ['pypi-local'] })
      const upload = async (version: string) => expect((await uploadSdist(t, admin, 'pypi-local', version)).statusCode).toBe(200)
      const listed = async (repo: string) => {
        const page = await t.fastify.inject({
          url: `/api/pypi/${repo}/simple/x/`,
          headers: { ...sessionHeaders(admin), accept: 'application/vnd.pypi.simple.v1+json' },
        })
        expect(page.statusCode).toBe(200)
        return page.json().versions
      }
      const projects = async () =>
        (await t.fastify.inject({ url: '/api/pypi/pypi-local/simple/', headers: sessionHeaders(admin) })).body
      expect(await projects()).not.toContain('>x<')
      await upload('1.0')
      expect(await projects()).toContain('>x<')
      expect(await listed('pypi-local')).toEqual(['1.0'])
      expect(await listed('pypi-virtual')).toEqual(['1.0'])
      await upload('2.0')
      expect(await listed('pypi-local')).toEqual(['1.0', '2.0'])
      expect(await listed('pypi-virtual')).toEqual(['1.0', '2.0'])
      const removed = await t.fastify.inject({
        method: 'DELETE',
        url: '/api/pypi/pypi-local/packages/x/2.0/x-2.0.tar.gz',
        headers: sessionHeaders(admin),
      })
      expect(removed.statusCode).toBe(204)
      expect(await listed('pypi-local')).toEqual(['1.0'])
      expect(await listed('pypi-virtual')).toEqual(['1.0'])
    } finally {
      await t.close()
    }
  })
})
