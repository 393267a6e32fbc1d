import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import path from 'node:path'
import { PACKAGE_QUERY } from '@trove/contracts/packages'
import type { PackageTypeName, RepoClassName } from '@trove/contracts/repositoryConstants'
import { type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, run, writeFiles } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp, tempDir } from '../../../test/testApp.js'
import { zipOf } from '../../../test/zip.js'
import { readZip } from '../kit/archive.js'
import {
  compareGoVersions,
  describeReadme,
  detectLicense,
  escapeCase,
  isPseudoVersion,
  latestOf,
  modulePathProblem,
  parseGoMod,
  unescapeCase,
  versionProblem,
} from './module.js'
import { parseGoPath } from './routes.js'

const MIT = `MIT License

Copyright (c) 2024 Acme

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction.
`

/** A module zip as Go lays it out: every file under `<module>@<version>/`. */
const moduleZip = (module: string, version: string, files: Record<string, string>) =>
  zipOf(Object.entries(files).map(([name, data]) => ({ name: `${module}@${version}/${name}`, data: Buffer.from(data) })))

describe('go module paths and versions', () => {
  it('checks module paths as module.CheckPath does', () => {
    for (const ok of ['example.com/x', 'github.com/Azure/go-autorest', 'example.com/x/v2', 'gopkg.in/yaml.v3', 'a.b/c~d_e-f.g'])
      expect(modulePathProblem(ok), ok).toBeNull()
    expect(modulePathProblem('example/x')).toMatch(/missing dot/)
    expect(modulePathProblem('Example.com/x')).toMatch(/first path element/)
    expect(modulePathProblem('example.com/../x')).toMatch(/invalid path element/)
    expect(modulePathProblem('example.com//x')).toMatch(/empty path element/)
    expect(modulePathProblem('example.com/x!y')).toMatch(/invalid char/)
    expect(modulePathProblem('example.com/.x')).toMatch(/leading dot/)
    expect(modulePathProblem('example.com/x/v1')).toMatch(/version suffix/)
    expect(modulePathProblem('example.com/con')).toMatch(/Windows/)
    expect(modulePathProblem('-x.com/y')).toMatch(/leading dash/)
  })
  it('checks versions against the path, pseudo-versions and +incompatible included', () => {
    expect(versionProblem('example.com/x', 'v1.2.3')).toBeNull()
    expect(versionProblem('example.com/x', 'v0.0.0-20240102030405-abcdef123456')).toBeNull()
    expect(isPseudoVersion('v0.0.0-20240102030405-abcdef123456')).toBe(true)
    expect(isPseudoVersion('v1.2.4-0.20240102030405-abcdef123456')).toBe(true)
    expect(isPseudoVersion('v1.2.3-rc.1')).toBe(false)
    expect(versionProblem('example.com/x', 'v2.0.0+incompatible')).toBeNull()
    expect(versionProblem('example.com/x', 'v2.0.0')).toMatch(/should be v0 or v1/)
    expect(versionProblem('example.com/x/v2', 'v2.1.0')).toBeNull()
    expect(versionProblem('example.com/x/v2', 'v3.0.0')).toMatch(/should be v2/)
    expect(versionProblem('example.com/x', 'v1.0.0+incompatible')).toMatch(/incompatible/)
    expect(versionProblem('gopkg.in/yaml.v3', 'v3.0.1')).toBeNull()
    for (const bad of ['1.2.3', 'v1.2', 'v01.2.3', 'v1.2.3+build', 'v1.2.3-', 'latest'])
      expect(versionProblem('example.com/x', bad), bad).not.toBeNull()
  })
  it('escapes upper case as !x and orders versions as Go does', () => {
    expect(escapeCase('github.com/Azure/X')).toBe('github.com/!azure/!x')
    expect(unescapeCase('github.com/!azure/!x')).toBe('github.com/Azure/X')
    expect(unescapeCase('github.com/Azure')).toBeNull()
    expect(unescapeCase('github.com/!1')).toBeNull()
    expect(['v1.10.0', 'v1.2.0', 'v1.2.0-rc.1', 'v0.0.0-20240102030405-abcdef123456'].sort(compareGoVersions)).toEqual([
      'v0.0.0-20240102030405-abcdef123456',
      'v1.2.0-rc.1',
      'v1.2.0',
      'v1.10.0',
    ])
    expect(latestOf(['v1.2.0', 'v1.3.0-rc.1', 'v1.1.0'])).toBe('v1.2.0')
    expect(latestOf(['v0.0.0-20240102030405-abcdef123456'])).toBe('v0.0.0-20240102030405-abcdef123456')
    expect(parseGoPath(['example.com', '!acme', '@v', 'v1.0.0-!r!c1.zip'])).toEqual({
      kind: 'file',
      module: 'example.com/Acme',
      version: 'v1.0.0-RC1',
      ext: 'zip',
    })
    expect(parseGoPath(['example.com', 'x', '@latest'])).toEqual({ kind: 'latest', module: 'example.com/x' })
    expect(() => parseGoPath(['example.com', 'Acme', '@v', 'list'])).toThrow(/escaped/)
  })
  it('reads go.mod requirements, licences and a README description', () => {
    const mod = parseGoMod(
      'module example.com/app // the app\n\ngo 1.19\n\nrequire example.com/a v1.0.0\nrequire (\n\texample.com/b v0.2.0 // indirect\n\t"example.com/c" v1.1.0\n)\nreplace example.com/a => ../a\n',
    )
    expect(mod).toEqual({
      module: 'example.com/app',
      go: '1.19',
      requires: [
        { path: 'example.com/a', version: 'v1.0.0', indirect: false },
        { path: 'example.com/b', version: 'v0.2.0', indirect: true },
        { path: 'example.com/c', version: 'v1.1.0', indirect: false },
      ],
    })
    expect(detectLicense(MIT)).toBe('MIT')
    expect(
      detectLicense('                                 Apache License\n                           Version 2.0, January 2004\n'),
    ).toBe('Apache-2.0')
    expect(detectLicense('Copyright 2024 nobody in particular')).toBeNull()
    expect(describeReadme('# lib\n\n[![ci](x)](y)\n\nA library that\ngreets people.\n\nMore.\n')).toBe(
      'A library that greets people.',
    )
    expect(describeReadme('Greets through `greet`, **fast**; see [the docs](https://example.com).')).toBe(
      'Greets through greet, fast; see the docs.',
    )
  })
})

/**
 * A TLS front for a Trove listening on plain HTTP, with a throwaway self-signed certificate: the go
 * command sends credentials to a proxy over HTTPS only (it trusts the certificate through SSL_CERT_FILE).
 */
async function tlsFront(dir: string, target: string): Promise<{ url: string; certFile: string; close: () => Promise<void> }> {
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  const made = await run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { cwd: dir },
  )
  if (made.code !== 0) throw new Error(made.stderr)
  const upstream = new URL(target)
  const server = https.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) }, (req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return {
    url: `https://127.0.0.1:${address.port}`,
    certFile,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Publishing module zips, the GOPROXY protocol, and the go command through a virtual repository. */
describe('go repositories', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const auth = () => ({ authorization: `Bearer ${token}` })
  const get = (url: string) => t.fastify.inject({ url, headers: auth() })
  const putZip = (app: TestApp, url: string, body: Buffer, headers = auth()) =>
    app.fastify.inject({ method: 'PUT', url, headers: { ...headers, 'content-type': 'application/zip' }, payload: body })

  const LIB = 'example.com/tools/lib'
  const PSEUDO = 'v0.0.0-20240102030405-abcdef123456'

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-go-')
    await createRepo(t.fastify, admin, 'go-local', { rclass: 'local', packageType: 'go' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('publishes a module zip and answers the GOPROXY protocol with what it recorded', async () => {
    const zip = moduleZip('example.com/Acme/Tool', 'v1.2.0', {
      'go.mod':
        'module example.com/Acme/Tool\n\ngo 1.19\n\nrequire (\n\texample.com/tools/lib v0.1.0\n\texample.com/other v1.0.0 // indirect\n)\n',
      'tool.go': 'package tool\n',
      'README.md': '# Tool\n\nTools for the Acme company.\n',
      LICENSE: MIT,
    })
    const published = await putZip(t, '/api/go/go-local/example.com/!acme/!tool/@v/v1.2.0.zip', zip)
    expect(published.statusCode, published.body).toBe(201)
    // The other layout, a pre-release; folder entries as zip -r writes them (under the root only, as Go wants).
    const pre = zipOf([
      { name: 'example.com/Acme/Tool@v1.3.0-rc.1/', data: Buffer.alloc(0) },
      { name: 'example.com/Acme/Tool@v1.3.0-rc.1/go.mod', data: Buffer.from('module example.com/Acme/Tool\n') },
    ])
    expect((await putZip(t, '/artifactory/api/go/go-local/example.com/!acme/!tool/@v/v1.3.0-rc.1.zip', pre)).statusCode).toBe(201)

    const list = await get('/api/go/go-local/example.com/!acme/!tool/@v/list')
    expect(list.statusCode).toBe(200)
    expect(list.body).toBe('v1.2.0\nv1.3.0-rc.1\n')
    const latest = await get('/api/go/go-local/example.com/!acme/!tool/@latest')
    expect(latest.json()).toMatchObject({ Version: 'v1.2.0', Time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    const info = await get('/api/go/go-local/example.com/!acme/!tool/@v/v1.2.0.info')
    expect(info.json().Version).toBe('v1.2.0')
    const mod = await get('/artifactory/api/go/go-local/example.com/!acme/!tool/@v/v1.2.0.mod')
    expect(mod.body).toMatch(/^module example.com\/Acme\/Tool\n/)
    const served = await get('/api/go/go-local/example.com/!acme/!tool/@v/v1.2.0.zip')
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload.equals(zip)).toBe(true)
    // The files by path in the repository, in the GOPROXY layout.
    const byPath = await get('/artifactory/go-local/example.com/!acme/!tool/@v/v1.2.0.mod')
    expect(byPath.body).toBe(mod.body)

    const db = t.app.db.kysely
    const version = await db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['p.package_type', 'p.name', 'p.latest_version', 'v.id', 'v.description', 'v.readme', 'v.licenses', 'v.metadata'])
      .where('v.version', '=', 'v1.2.0')
      .executeTakeFirstOrThrow()
    expect(version).toMatchObject({
      package_type: 'go',
      name: 'example.com/Acme/Tool',
      latest_version: 'v1.2.0',
      description: 'Tools for the Acme company.',
      readme: '# Tool\n\nTools for the Acme company.\n',
    })
    expect(JSON.parse(version.licenses)).toEqual(['MIT'])
    expect(JSON.parse(version.metadata)).toMatchObject({ go: '1.19', pseudo: false, incompatible: false, synthesizedMod: false })
    const deps = await db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', version.id)
      .orderBy('name')
      .execute()
    expect(deps).toEqual([
      { name: 'example.com/other', range: 'v1.0.0', scope: 'indirect' },
      { name: 'example.com/tools/lib', range: 'v0.1.0', scope: 'runtime' },
    ])
    const files = await db
      .selectFrom('files')
      .select(['path', 'lead'])
      .where('version_id', '=', version.id)
      .orderBy('path')
      .execute()
    expect(files).toEqual([
      { path: 'example.com/!acme/!tool/@v/v1.2.0.info', lead: 0 },
      { path: 'example.com/!acme/!tool/@v/v1.2.0.mod', lead: 0 },
      { path: 'example.com/!acme/!tool/@v/v1.2.0.zip', lead: 1 },
    ])
    // The zip counts as a download; .info and .mod do not.
    await vi.waitFor(async () => {
      const pkg = await db
        .selectFrom('packages')
        .select('downloads')
        .where('name', '=', 'example.com/Acme/Tool')
        .executeTakeFirstOrThrow()
      expect(Number(pkg.downloads)).toBe(1)
    }, 3000)

    // A legacy major version: +incompatible, no go.mod in the zip (its .mod is `module <path>`).
    const legacy = moduleZip('example.com/legacy', 'v2.1.0+incompatible', { 'legacy.go': 'package legacy\n' })
    expect((await putZip(t, '/api/go/go-local/example.com/legacy/@v/v2.1.0+incompatible.zip', legacy)).statusCode).toBe(201)
    expect((await get('/api/go/go-local/example.com/legacy/@v/v2.1.0+incompatible.mod')).body).toBe('module example.com/legacy\n')
    // .mod and .info sent after the zip, as go-publish tools do: kept when they agree.
    const modAgain = await t.fastify.inject({
      method: 'PUT',
      url: '/api/go/go-local/example.com/legacy/@v/v2.1.0+incompatible.mod',
      headers: auth(),
      payload: 'module example.com/legacy\n',
    })
    expect(modAgain.statusCode).toBe(200)
    const infoPut = await t.fastify.inject({
      method: 'PUT',
      url: '/api/go/go-local/example.com/legacy/@v/v2.1.0+incompatible.info',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: { Version: 'v2.1.0+incompatible', Time: '2020-01-02T03:04:05Z' },
    })
    expect(infoPut.statusCode, infoPut.body).toBe(200)
    expect((await get('/api/go/go-local/example.com/legacy/@v/v2.1.0+incompatible.info')).json()).toEqual({
      Version: 'v2.1.0+incompatible',
      Time: '2020-01-02T03:04:05Z',
    })

    // Deleting a version removes its three files; the module is gone with its last version.
    const del = await t.fastify.inject({
      method: 'DELETE',
      url: '/api/go/go-local/example.com/legacy/@v/v2.1.0+incompatible.zip',
      headers: auth(),
    })
    expect(del.statusCode).toBe(204)
    expect((await get('/api/go/go-local/example.com/legacy/@v/list')).statusCode).toBe(404)
    expect(await db.selectFrom('files').select('path').where('path', 'like', 'example.com/legacy/%').execute()).toEqual([])
    expect((await t.fastify.inject({ url: '/api/go/go-local/example.com/!acme/!tool/@v/list' })).statusCode).toBe(401)

    // The tree's copy records the version in the other repository; deleting its zip there removes it.
    await createRepo(t.fastify, admin, 'go-copy', { rclass: 'local', packageType: 'go' })
    const copied = await t.fastify.inject({
      method: 'POST',
      url: '/api/copy/go-local/example.com/!acme/!tool/@v?to=/go-copy/example.com/!acme/!tool/@v',
      headers: auth(),
    })
    expect(copied.statusCode, copied.body).toBe(200)
    expect((await get('/api/go/go-copy/example.com/!acme/!tool/@v/list')).body).toBe('v1.2.0\nv1.3.0-rc.1\n')
    const inCopy = await db
      .selectFrom('package_versions')
      .select(['version', 'description'])
      .where('repo_key', '=', 'go-copy')
      .orderBy('version')
      .execute()
    expect(inCopy).toEqual([
      { version: 'v1.2.0', description: 'Tools for the Acme company.' },
      { version: 'v1.3.0-rc.1', description: '' },
    ])
    const treeDelete = await t.fastify.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/artifacts/node?repoKey=go-copy&path=${encodeURIComponent('example.com/!acme/!tool/@v/v1.2.0.zip')}`,
      headers: sessionHeaders(admin),
    })
    expect(treeDelete.statusCode, treeDelete.body).toBe(200)
    expect((await get('/api/go/go-copy/example.com/!acme/!tool/@v/list')).body).toBe('v1.3.0-rc.1\n')
    expect((await get('/api/go/go-copy/example.com/!acme/!tool/@v/v1.2.0.mod')).statusCode).toBe(404)
  })

  it('refuses zips with paths outside the module root, existing versions and invalid paths and versions, storing nothing', async () => {
    const db = t.app.db.kysely
    const before = await db
      .selectFrom('files')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const outside = zipOf([
      { name: 'example.com/evil@v1.0.0/go.mod', data: Buffer.from('module example.com/evil\n') },
      { name: 'example.com/other@v1.0.0/x.go', data: Buffer.from('package x\n') },
    ])
    const refused = await putZip(t, '/api/go/go-local/example.com/evil/@v/v1.0.0.zip', outside)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().errors[0].message).toBe(
      'Refused module zip: "example.com/other@v1.0.0/x.go" is not under example.com/evil@v1.0.0/',
    )
    const parentFolder = zipOf([
      { name: 'example.com/', data: Buffer.alloc(0) },
      { name: 'example.com/evil@v1.0.0/go.mod', data: Buffer.from('module example.com/evil\n') },
    ])
    const parent = await putZip(t, '/api/go/go-local/example.com/evil/@v/v1.0.0.zip', parentFolder)
    expect(parent.json().errors[0].message).toBe('Refused module zip: "example.com/" is not under example.com/evil@v1.0.0/')
    const climbing = zipOf([{ name: 'example.com/evil@v1.0.0/../../x.go', data: Buffer.from('package x\n') }])
    const climb = await putZip(t, '/api/go/go-local/example.com/evil/@v/v1.0.0.zip', climbing)
    expect(climb.statusCode).toBe(400)
    expect(climb.json().errors[0].message).toMatch(/Refused archive: .* climbs out of the tree/)
    const wrongModule = moduleZip('example.com/evil', 'v1.0.0', { 'go.mod': 'module example.com/other\n' })
    const wrong = await putZip(t, '/api/go/go-local/example.com/evil/@v/v1.0.0.zip', wrongModule)
    expect(wrong.json().errors[0].message).toMatch(/declares the module "example.com\/other"/)
    const notZip = await putZip(t, '/api/go/go-local/example.com/evil/@v/v1.0.0.zip', Buffer.from('not a zip'))
    expect(notZip.statusCode).toBe(400)
    expect(notZip.json().errors[0].message).toMatch(/not a readable zip/)
    const withMod = moduleZip('example.com/evil', 'v2.0.0+incompatible', { 'go.mod': 'module example.com/evil\n' })
    expect((await putZip(t, '/api/go/go-local/example.com/evil/@v/v2.0.0+incompatible.zip', withMod)).statusCode).toBe(400)

    const invalid: [string, RegExp][] = [
      ['/api/go/go-local/example.com/evil/@v/1.0.0.zip', /not a canonical semantic version/],
      ['/api/go/go-local/example.com/evil/@v/v2.0.0.zip', /should be v0 or v1/],
      ['/api/go/go-local/example.com/evil/v2/@v/v3.0.0.zip', /should be v2/],
      ['/api/go/go-local/example.com/Evil/@v/v1.0.0.zip', /not escaped as Go escapes it/],
      ['/api/go/go-local/evil/@v/v1.0.0.zip', /missing dot in first path element/],
      ['/api/go/go-local/example.com/.evil/@v/v1.0.0.zip', /leading dot/],
      ['/api/go/go-local/example.com/evil/v1/@v/v1.0.0.zip', /invalid version suffix/],
    ]
    for (const [url, message] of invalid) {
      const res = await putZip(t, url, moduleZip('example.com/evil', 'v1.0.0', { 'go.mod': 'module example.com/evil\n' }))
      expect(res.statusCode, url).toBe(400)
      expect(res.json().errors[0].message, url).toMatch(message)
    }
    const after = await db
      .selectFrom('files')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))

    // An existing version: the same zip again is a retry (200), other content 409.
    const first = moduleZip('example.com/dup', 'v1.0.0', { 'go.mod': 'module example.com/dup\n' })
    expect((await putZip(t, '/api/go/go-local/example.com/dup/@v/v1.0.0.zip', first)).statusCode).toBe(201)
    expect((await putZip(t, '/api/go/go-local/example.com/dup/@v/v1.0.0.zip', first)).statusCode).toBe(200)
    const other = moduleZip('example.com/dup', 'v1.0.0', { 'go.mod': 'module example.com/dup\n', 'x.go': 'package dup\n' })
    const conflict = await putZip(t, '/api/go/go-local/example.com/dup/@v/v1.0.0.zip', other)
    expect(conflict.statusCode).toBe(409)
    expect(conflict.json().errors[0].message).toBe('example.com/dup@v1.0.0 already exists in go-local')
    // Hostile paths are answered, never with a 500.
    for (const url of [
      '/api/go/go-local/%ff/@v/list',
      '/api/go/go-local/@v/list',
      '/api/go/go-local/example.com/x/@v/.zip',
      '/api/go/go-local/example.com/x/@v/v1.0.0.exe',
      '/api/go/go-local/example.com/x/@v/!!.info',
      '/api/go/go-local/example.com/x/@v/v1.0.0%00.mod',
      '/api/go/no-such-repo/example.com/x/@latest',
      '/artifactory/go-local/example.com/x/@v/',
    ]) {
      expect((await get(url)).statusCode, url).toBeLessThan(500)
    }
    // The go command reads a failure's text.
    const missing = await get('/api/go/go-local/example.com/nothing/@v/v1.0.0.info')
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).toMatch(/^text\/plain/)
    expect(missing.body).toBe('not found: example.com/nothing@v1.0.0 in go-local\n')
  })

  it('publishes from a git tag: the tree git archive makes becomes the module zip Go makes, and the go command reads it', async () => {
    const M = 'example.com/acme/tagged'
    const source = writeFiles(path.join(work, 'tagged'), {
      'go.mod': `module ${M}\n\ngo 1.19\n`,
      'tagged.go': 'package tagged\n\nconst Tag = "v1.4.0"\n',
      'internal/x/x.go': 'package x\n',
      'README.md': '# tagged\n\nPublished from a tag.\n',
      LICENSE: MIT,
      'vendor/modules.txt': '# example.com/dep v1.0.0\n',
      'vendor/example.com/dep/dep.go': 'package dep\n',
      'sub/go.mod': `module ${M}/sub\n`,
      'sub/sub.go': 'package sub\n',
    })
    const git = async (...args: string[]) => {
      const result = await run('git', args, {
        cwd: source,
        env: {
          GIT_AUTHOR_NAME: 'T',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 'T',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      })
      expect(result.code, result.stderr).toBe(0)
    }
    await git('init', '-q')
    await git('add', '.')
    await git('commit', '-qm', 'tagged')
    await git('tag', 'v1.4.0')
    await git('archive', '--format=zip', '-o', path.join(work, 'v1.4.0-src.zip'), 'v1.4.0')
    await git('archive', '--format=zip', '--prefix=tagged-1.5.0/', '-o', path.join(work, 'v1.5.0-src.zip'), 'v1.4.0')
    const url = (v: string) => `/api/go/go-local/example.com/acme/tagged/@v/${v}.zip`
    // Set-me-up's command, run in the module's folder.
    const publishTag = setMeUpSnippets({
      baseUrl: base,
      repoKey: 'go-local',
      packageType: 'go',
      rclass: 'local',
      user: 'admin',
      token,
    }).find((snippet) => snippet.id === 'go-publish-tag') as SetMeUpSnippet
    const published = await run('bash', ['-euc', publishTag.text.replaceAll('<VERSION>', 'v1.4.0').replaceAll('<PACKAGE>', M)], {
      cwd: source,
    })
    expect(published.code, published.stderr).toBe(0)
    expect(JSON.parse(published.stdout)).toEqual({ module: M, version: 'v1.4.0', repo: 'go-local' })
    const src = fs.readFileSync(path.join(work, 'v1.4.0-src.zip'))
    // The same tree again makes the same zip: a retry.
    expect((await putZip(t, url('v1.4.0'), src)).statusCode).toBe(200)
    // A forge's zip, inside one top folder.
    expect((await putZip(t, url('v1.5.0'), fs.readFileSync(path.join(work, 'v1.5.0-src.zip')))).statusCode).toBe(201)

    const served = await get(url('v1.4.0'))
    expect(served.statusCode).toBe(200)
    const names: string[] = []
    await readZip(served.rawPayload, { want: () => false, maxExpandedBytes: 1 << 20, entry: (n) => names.push(n) })
    // Nested modules and vendored packages stay out, as Go leaves them out.
    expect(names).toEqual(
      ['LICENSE', 'README.md', 'go.mod', 'internal/x/x.go', 'tagged.go', 'vendor/modules.txt'].map((n) => `${M}@v1.4.0/${n}`),
    )
    const readme = await t.app.db.kysely
      .selectFrom('package_versions')
      .select(['readme', 'licenses'])
      .where('version', '=', 'v1.5.0')
      .executeTakeFirstOrThrow()
    expect(readme.readme).toContain('Published from a tag.')
    expect(JSON.parse(readme.licenses)).toEqual(['MIT'])

    // The go command takes the zip: a file GOPROXY holding what Trove serves, then go mod download.
    const proxy = path.join(work, 'file-proxy', 'example.com', 'acme', 'tagged', '@v')
    fs.mkdirSync(proxy, { recursive: true })
    for (const v of ['v1.4.0', 'v1.5.0']) {
      for (const ext of ['info', 'mod', 'zip']) {
        const res = await get(`/api/go/go-local/example.com/acme/tagged/@v/${v}.${ext}`)
        fs.writeFileSync(path.join(proxy, `${v}.${ext}`), res.rawPayload)
      }
    }
    fs.writeFileSync(path.join(proxy, 'list'), (await get('/api/go/go-local/example.com/acme/tagged/@v/list')).body)
    const cache = path.join(work, 'tagged-modcache')
    const downloaded = await run('go', ['mod', 'download', '-json', `${M}@v1.4.0`, `${M}@v1.5.0`], {
      cwd: work,
      env: {
        PATH: `/usr/bin:${process.env.PATH ?? ''}`,
        HOME: work,
        GOPROXY: `file://${path.join(work, 'file-proxy')}`,
        GOSUMDB: 'off',
        GOFLAGS: '-mod=mod',
        GOMODCACHE: cache,
        GOCACHE: path.join(work, 'gocache'),
        GOTOOLCHAIN: 'local',
        GOENV: 'off',
      },
    })
    expect(downloaded.code, downloaded.stderr).toBe(0)
    expect(fs.readFileSync(path.join(cache, `${M}@v1.5.0`, 'tagged.go'), 'utf8')).toContain('v1.4.0')
    expect(fs.existsSync(path.join(cache, `${M}@v1.4.0`, 'sub'))).toBe(false)
  })

  it('serves go mod download and go build through a virtual repository whose remote proxies a second Trove', async () => {
    const upstream = await createTestApp()
    let closeTls = async () => {}
    try {
      const upstreamBase = await listen(upstream.fastify)
      const upstreamAdmin = await signIn(upstream.fastify)
      const upstreamToken = await accessToken(upstream.fastify, upstreamAdmin)
      await createRepo(upstream.fastify, upstreamAdmin, 'go-up', { rclass: 'local', packageType: 'go' })
      const greet = moduleZip('example.com/Acme/greet', 'v1.0.0', {
        'go.mod': 'module example.com/Acme/greet\n\ngo 1.19\n',
        'greet.go': 'package greet\n\nfunc Hello() string { return "hello from greet" }\n',
        'README.md': '# greet\n\nSays hello.\n',
        LICENSE: MIT,
      })
      const up = await putZip(upstream, '/api/go/go-up/example.com/!acme/greet/@v/v1.0.0.zip', greet, {
        authorization: `Bearer ${upstreamToken}`,
      })
      expect(up.statusCode, up.body).toBe(201)
      await createRepo(t.fastify, admin, 'go-remote', {
        rclass: 'remote',
        packageType: 'go',
        url: `${upstreamBase}/api/go/go-up`,
        username: 'admin',
        password: upstreamToken,
      })
      await createRepo(t.fastify, admin, 'go-virtual', {
        rclass: 'virtual',
        packageType: 'go',
        repositories: ['go-local', 'go-remote'],
        defaultDeploymentRepo: 'go-local',
      })

      // What the set-me-up panel shows for the virtual repository, run as it is shown, for a Trove
      // reached over HTTPS (as its base URL would be set behind TLS).
      const tls = await tlsFront(work, base)
      closeTls = tls.close
      const res = await fetch(`${base}/ui/api/v1/ui/setMeUp?repoKey=go-virtual`, { headers: sessionHeaders(admin) })
      expect(res.status).toBe(200)
      const setup = (await res.json()) as {
        baseUrl: string
        repository: { key: string; packageType: PackageTypeName; rclass: RepoClassName }
      }
      expect(setup.baseUrl).toBe(base)
      const plain = setMeUpSnippets({
        baseUrl: setup.baseUrl,
        ...setup.repository,
        repoKey: setup.repository.key,
        user: 'admin',
        token,
      })
      expect(plain.find((s) => s.id === 'go-env')?.text).toMatch(
        /^# Trove is reached over plain HTTP: Go sends credentials over HTTPS only/,
      )
      const snippets = setMeUpSnippets({
        baseUrl: tls.url,
        ...setup.repository,
        repoKey: setup.repository.key,
        user: 'admin',
        token,
      })
      const snippet = (id: string, values: Record<string, string> = {}) => {
        const found = snippets.find((s) => s.id === id) as SetMeUpSnippet
        expect(found, id).toBeDefined()
        return Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`<${k}>`, v), found.text)
      }
      const home = path.join(work, 'home')
      fs.mkdirSync(home)
      const env = {
        PATH: `/usr/bin:${process.env.PATH ?? ''}`,
        HOME: home,
        GOPATH: path.join(work, 'gopath'),
        GOMODCACHE: path.join(work, 'gopath', 'pkg', 'mod'),
        GOCACHE: path.join(work, 'gocache'),
        GOTOOLCHAIN: 'local',
        CGO_ENABLED: '0',
        GOENV: 'off',
        SSL_CERT_FILE: tls.certFile,
        CURL_CA_BUNDLE: tls.certFile,
      }
      const shell = async (text: string, cwd: string) => {
        const result = await run('bash', ['-euc', text], { cwd, env })
        expect(result.code, `${text}\n${result.stdout}\n${result.stderr}`).toBe(0)
        return result
      }

      // Published through the virtual repository: it lands in go-local. lib needs greet from the remote.
      fs.mkdirSync(path.join(work, 'zips'))
      const libZip = path.join(work, 'zips', 'lib.zip')
      fs.writeFileSync(
        libZip,
        moduleZip(LIB, 'v0.1.0', {
          'go.mod': `module ${LIB}\n\ngo 1.19\n\nrequire example.com/Acme/greet v1.0.0\n`,
          'lib.go':
            'package lib\n\nimport "example.com/Acme/greet"\n\nfunc Message() string { return greet.Hello() + " via lib" }\n',
        }),
      )
      await shell(snippet('go-publish', { FILE: libZip, PACKAGE: LIB, VERSION: 'v0.1.0' }), work)
      const pseudo = moduleZip('example.com/tools/pseudo', PSEUDO, {
        'go.mod': 'module example.com/tools/pseudo\n\ngo 1.19\n',
        'pseudo.go': 'package pseudo\n\nconst Mark = "!"\n',
      })
      expect((await putZip(t, `/api/go/go-virtual/example.com/tools/pseudo/@v/${PSEUDO}.zip`, pseudo)).statusCode).toBe(201)

      const app = writeFiles(path.join(work, 'app'), {
        'go.mod': `module example.com/app\n\ngo 1.19\n\nrequire example.com/tools/pseudo ${PSEUDO}\n`,
        'main.go':
          'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/tools/lib"\n\t"example.com/tools/pseudo"\n)\n\nfunc main() { fmt.Println(lib.Message() + pseudo.Mark) }\n',
      })
      const setupShell = `${snippet('go-netrc')}\n${snippet('go-env', { PACKAGE: 'example.com' })}`
      await shell(
        `${setupShell}\n${snippet('go-get', { PACKAGE: LIB })}\ngo mod download all\ngo build -o hello .\n./hello > out.txt`,
        app,
      )
      expect(fs.readFileSync(path.join(app, 'out.txt'), 'utf8')).toBe('hello from greet via lib!\n')
      const goMod = fs.readFileSync(path.join(app, 'go.mod'), 'utf8')
      expect(goMod).toContain(`${LIB} v0.1.0`)
      expect(goMod).toMatch(/example.com\/Acme\/greet v1.0.0 \/\/ indirect/)
      expect(fs.existsSync(path.join(env.GOMODCACHE, 'example.com', '!acme', 'greet@v1.0.0', 'greet.go'))).toBe(true)

      // Without credentials the go command is refused.
      const anonymous = await run('go', ['mod', 'download', 'example.com/tools/lib@v0.1.0'], {
        cwd: app,
        env: {
          ...env,
          HOME: work,
          GOMODCACHE: path.join(work, 'empty-cache'),
          GOPROXY: `${tls.url}/api/go/go-virtual`,
          GONOSUMDB: 'example.com',
          GOFLAGS: '-mod=mod',
        },
      })
      expect(anonymous.code).not.toBe(0)
      expect(anonymous.stderr).toMatch(/401/)

      // The remote cached greet and recorded it as a version with the upstream's metadata.
      const db = t.app.db.kysely
      const cached = await db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['v.repo_key', 'v.description', 'v.licenses', 'v.version'])
        .where('p.name', '=', 'example.com/Acme/greet')
        .executeTakeFirstOrThrow()
      expect(cached).toMatchObject({ repo_key: 'go-remote', description: 'Says hello.', version: 'v1.0.0' })
      expect(JSON.parse(cached.licenses)).toEqual(['MIT'])
      const cachedFiles = await db
        .selectFrom('files')
        .select('path')
        .where('repo_key', '=', 'go-remote')
        .orderBy('path')
        .execute()
      expect(cachedFiles.map((f) => f.path)).toEqual([
        'example.com/!acme/greet/@v/v1.0.0.info',
        'example.com/!acme/greet/@v/v1.0.0.mod',
        'example.com/!acme/greet/@v/v1.0.0.zip',
      ])
      // The virtual lists and resolves @latest across its members.
      expect((await get('/api/go/go-virtual/example.com/!acme/greet/@v/list')).body).toBe('v1.0.0\n')
      expect((await get('/api/go/go-virtual/example.com/tools/pseudo/@latest')).json().Version).toBe(PSEUDO)

      // The packages browser shows the module with its readme-less description, dependencies and downloads.
      const pkg = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/mds/package',
        headers: sessionHeaders(admin),
        payload: { graphQL: { query: PACKAGE_QUERY, variables: { pkgid: `go://${LIB}` } } },
      })
      expect(pkg.statusCode, pkg.body).toBe(200)
      expect(pkg.json().data.package).toMatchObject({ name: LIB, packageType: 'go', latestVersion: 'v0.1.0' })
      // Counts reach the database within a second; the browser's answers are cached a few seconds more.
      await vi.waitFor(
        async () => {
          const p = await t.fastify.inject({
            method: 'POST',
            url: '/ui/api/v1/mds/package',
            headers: sessionHeaders(admin),
            payload: { graphQL: { query: PACKAGE_QUERY, variables: { pkgid: `go://${LIB}` } } },
          })
          expect(p.json().data.package.stats.downloads).toBe(1)
        },
        { timeout: 15_000, interval: 250 },
      )
      const deps = await t.fastify.inject({
        // By version id, as the console's Dependencies section asks.
        url: `/ui/api/v1/ui/v1/native/versions/npm/dependencies?id=${encodeURIComponent(`go://${LIB}:v0.1.0`)}`,
        headers: sessionHeaders(admin),
      })
      expect(deps.json().dependencies).toEqual([{ name: 'example.com/Acme/greet', range: 'v1.0.0', scope: 'runtime' }])
      const readme = await t.fastify.inject({
        url: `/ui/api/v1/ui/v1/native/versions/readme?path=${encodeURIComponent('go-remote/example.com/!acme/greet/@v/v1.0.0.zip')}`,
        headers: sessionHeaders(admin),
      })
      expect(readme.json().readme).toBe('# greet\n\nSays hello.\n')
    } finally {
      await closeTls()
      await upstream.close()
    }
  }, 240_000)
})
