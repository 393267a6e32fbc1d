import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import type { TreeResponse } from '@trove/contracts/artifacts'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, grantRepos, listen } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { userWithToken } from '../../identity/access/testUsers.js'
import { childOf, upperBound } from '../../storage/tree.js'

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')
const UI = '/ui/api/v1/ui/artifacts'
/** A URL's path: answers name this server by the host the request came to. */
const local = (uri: string) => uri.replace(/^https?:\/\/[^/]+/, '')

describe('the artifact tree', () => {
  let t: TestApp
  let admin: Session
  let adminAuth: { authorization: string }
  let reader: { authorization: string }
  let base: string

  const inject = (opts: InjectOptions) => t.fastify.inject(opts)
  const put = async (repo: string, p: string, body: string | Buffer, headers: Record<string, string> = adminAuth) => {
    const res = await inject({ method: 'PUT', url: `/artifactory/${repo}/${p}`, headers, payload: body })
    if (res.statusCode !== 201) throw new Error(`PUT ${repo}/${p}: ${res.statusCode} ${res.body}`)
  }
  const tree = async (query: string, headers: Record<string, string> = adminAuth) => {
    const res = await inject({ url: `${UI}/tree?${query}`, headers })
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as TreeResponse
  }
  /** Every child of a folder, walking the pages. */
  const allChildren = async (repo: string, folder: string, limit: number) => {
    const out: string[] = []
    let after: string | null = null
    for (let i = 0; i < 1000; i++) {
      const page: TreeResponse = await tree(
        `repoKey=${repo}&path=${encodeURIComponent(folder)}&limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      )
      out.push(...page.nodes.map((n) => n.key))
      if (!page.next) return out
      after = page.next
    }
    throw new Error('paging did not end')
  }

  /** A GET whose path goes on the wire exactly as written. */
  const rawGet = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { port } = new URL(base)
      const req = http.request({ host: '127.0.0.1', port, path: url, headers: adminAuth }, (res) => {
        let body = ''
        res.on('data', (c) => {
          body += c
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    const headers = sessionHeaders(admin)
    adminAuth = { authorization: `Basic ${Buffer.from(`admin:${'correct-horse-battery'}`).toString('base64')}` }
    for (const key of ['tree-a', 'tree-b', 'tree-c'])
      await createRepo(t.fastify, admin, key, { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'tree-v', {
      rclass: 'virtual',
      packageType: 'generic',
      repositories: ['tree-a', 'tree-b'],
    })
    await createRepo(t.fastify, admin, 'tree-remote', { rclass: 'remote', packageType: 'generic', url: 'http://127.0.0.1:9/' })
    await createRepo(t.fastify, admin, 'tree-maven', { rclass: 'local', packageType: 'maven' })
    reader = await userWithToken(t.fastify, headers, 'tree-reader')
    await grantRepos(t.fastify, admin, 'tree-read', { repos: ['tree-a', 'tree-v'], user: 'tree-reader', actions: ['read'] })
  })
  afterAll(async () => {
    await t.close()
  })

  it('orders children as the index does and bounds prefixes', () => {
    expect(upperBound('a/')).toBe('a0')
    expect(upperBound('')).toBeNull()
    expect(upperBound('x\u{10ffff}')).toBe('y')
    expect(childOf('a/', 'a/b/c')).toEqual({ key: 'b/', folder: true, name: 'b' })
    expect(childOf('a/', 'a/b')).toEqual({ key: 'b', folder: false, name: 'b' })
  })

  it('lists repositories, then folders and files level by level, paging without gaps or repeats', {
    timeout: 90_000,
  }, async () => {
    // 150 files and 30 folders (each with files below) directly under one folder, among others.
    const names: string[] = []
    for (let i = 0; i < 150; i++) names.push(`f${String(i).padStart(3, '0')}.txt`)
    for (const n of names) await put('tree-a', `big/${n}`, n)
    for (let i = 0; i < 30; i++) {
      await put('tree-a', `big/d${String(i).padStart(2, '0')}/one.txt`, 'x')
      await put('tree-a', `big/d${String(i).padStart(2, '0')}/deeper/two.txt`, 'y')
    }
    // Names that sort between a folder's name and its contents ('-' < '/' < '0'), a name that is a
    // file and a folder at once, and names beyond ASCII.
    for (const p of ['mix/a', 'mix/a-b', 'mix/a/inner', 'mix/a0', 'mix/é', 'mix/😀/x', 'mix/z']) await put('tree-a', p, p)

    const root = await tree('')
    expect(root.nodes.map((n) => n.key)).toEqual(expect.arrayContaining(['tree-a', 'tree-b', 'tree-v', 'tree-remote']))
    expect(root.nodes.find((n) => n.key === 'tree-v')).toMatchObject({
      type: 'repository',
      rclass: 'virtual',
      packageType: 'generic',
    })

    const top = await tree('repoKey=tree-a')
    expect(top.nodes.map((n) => n.key)).toEqual(['big/', 'mix/'])

    const expected = [...names, ...Array.from({ length: 30 }, (_, i) => `d${String(i).padStart(2, '0')}/`)].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
    )
    for (const limit of [7, 100, 1000]) expect(await allChildren('tree-a', 'big', limit)).toEqual(expected)

    expect(await allChildren('tree-a', 'mix', 2)).toEqual(['a', 'a-b', 'a/', 'a0', 'z', 'é', '😀/'])
    // A window from a key on, the key included: a file, then a folder of the same name.
    expect((await tree('repoKey=tree-a&path=mix&from=a&limit=3')).nodes.map((n) => n.key)).toEqual(['a', 'a-b', 'a/'])
    expect((await tree('repoKey=tree-a&path=big&from=d29%2F')).nodes.map((n) => n.key)).toEqual(['d29/', ...names])
    expect((await tree('from=tree-b')).nodes.map((n) => n.key)).not.toContain('tree-a')
    const file = (await tree('repoKey=tree-a&path=big&limit=1')).nodes[0]
    expect(file).toMatchObject({ type: 'folder', key: 'd00/', path: 'big/d00', repoKey: 'tree-a' })
    const f = (await tree('repoKey=tree-a&path=big&filter=f14')).nodes
    expect(f.map((n) => n.name)).toEqual(Array.from({ length: 10 }, (_, i) => `f14${i}.txt`))
    expect(f[0]).toMatchObject({ type: 'file', size: 8, path: 'big/f140.txt' })
    expect((await tree('repoKey=tree-a&path=big/d05/deeper')).nodes.map((n) => n.name)).toEqual(['two.txt'])
  })

  it('shows in a virtual repository what its members hold, merged', async () => {
    await put('tree-b', 'big/from-b.txt', 'b')
    await put('tree-b', 'only-b/x.txt', 'b')
    await put('tree-b', 'mix/a', 'shadowed')
    const top = await tree('repoKey=tree-v')
    expect(top.nodes.map((n) => n.key)).toEqual(['big/', 'mix/', 'only-b/'])
    const info = await inject({ url: `${UI}/info?repoKey=tree-v&path=mix/a`, headers: adminAuth })
    expect(info.json()).toMatchObject({ type: 'file', repoKey: 'tree-v', sourceRepoKey: 'tree-a', rclass: 'virtual' })
    const viaV = await allChildren('tree-v', 'big', 50)
    expect(viaV).toContain('from-b.txt')
    expect(new Set(viaV).size).toBe(viaV.length)
  })

  it('tells a file, a folder and a repository apart, with checksums, deployer and downloads', async () => {
    const content = Buffer.from('general tab\n')
    await put('tree-c', 'docs/readme.txt', content)
    const download = await inject({ url: '/ui/api/v1/download?repoKey=tree-c&path=docs/readme.txt', headers: adminAuth })
    expect(download.statusCode).toBe(200)
    // Download counts are written in batches.
    await new Promise((r) => setTimeout(r, 700))
    const info = await inject({ url: `${UI}/info?repoKey=tree-c&path=docs/readme.txt`, headers: adminAuth })
    expect(info.statusCode).toBe(200)
    expect(info.json()).toMatchObject({
      type: 'file',
      name: 'readme.txt',
      size: content.length,
      deployedBy: 'admin',
      downloadCount: 1,
      mimeType: 'text/plain',
      checksums: {
        sha256: sha256(content),
        sha1: crypto.createHash('sha1').update(content).digest('hex'),
        md5: crypto.createHash('md5').update(content).digest('hex'),
      },
      actions: expect.arrayContaining(['read', 'deploy', 'delete']),
    })
    expect(info.json().lastDownloaded).toMatch(/^\d{4}-/)
    expect((await inject({ url: `${UI}/info?repoKey=tree-c&path=docs`, headers: adminAuth })).json()).toMatchObject({
      type: 'folder',
    })
    expect((await inject({ url: `${UI}/info?repoKey=tree-c`, headers: adminAuth })).json()).toMatchObject({
      type: 'repository',
      rclass: 'local',
    })
    expect((await inject({ url: `${UI}/info?repoKey=tree-c&path=nope`, headers: adminAuth })).statusCode).toBe(404)
  })

  it('sets and deletes properties on a file and, recursively, under a folder', async () => {
    for (const p of ['props/a.txt', 'props/sub/b.txt', 'props/sub/c.txt']) await put('tree-c', p, p)
    const headers = sessionHeaders(admin)
    const set = await inject({
      method: 'PUT',
      url: `${UI}/properties`,
      headers,
      payload: { repoKey: 'tree-c', path: 'props/a.txt', name: 'qa', values: ['passed', 'signed'] },
    })
    expect(set.json()).toEqual({ files: 1 })
    const props = await inject({ url: `${UI}/properties?repoKey=tree-c&path=props/a.txt`, headers })
    expect(props.json()).toEqual({ properties: [{ name: 'qa', values: ['passed', 'signed'] }] })
    const notRecursive = await inject({
      method: 'PUT',
      url: `${UI}/properties`,
      headers,
      payload: { repoKey: 'tree-c', path: 'props', name: 'team', values: ['core'] },
    })
    expect(notRecursive.statusCode).toBe(400)
    const recursive = await inject({
      method: 'PUT',
      url: `${UI}/properties`,
      headers,
      payload: { repoKey: 'tree-c', path: 'props', name: 'team', values: ['core'], recursive: true },
    })
    expect(recursive.json()).toEqual({ files: 3 })
    const found = await inject({ url: '/api/search/prop?team=core&repos=tree-c', headers: adminAuth })
    expect(found.json().results.map((r: { uri: string }) => local(r.uri))).toEqual([
      '/api/storage/tree-c/props/a.txt',
      '/api/storage/tree-c/props/sub/b.txt',
      '/api/storage/tree-c/props/sub/c.txt',
    ])
    const removed = await inject({
      method: 'DELETE',
      url: `${UI}/properties?repoKey=tree-c&path=props/sub&name=team&recursive=true`,
      headers,
    })
    expect(removed.json()).toEqual({ files: 2 })
    const rest = await inject({ url: '/api/storage/tree-c/props/a.txt?properties', headers: adminAuth })
    expect(rest.json().properties).toEqual({ qa: ['passed', 'signed'], team: ['core'] })
    // The REST call in the widespread layout, recursive on a folder.
    const restSet = await inject({
      method: 'PUT',
      url: '/api/storage/tree-c/props?properties=stage=beta;tier=1,2',
      headers: adminAuth,
    })
    expect(restSet.statusCode).toBe(204)
    const sub = await inject({ url: '/api/storage/tree-c/props/sub/c.txt?properties=stage,tier', headers: adminAuth })
    expect(sub.json().properties).toEqual({ stage: ['beta'], tier: ['1', '2'] })
    const bad = await inject({
      method: 'PUT',
      url: `${UI}/properties`,
      headers,
      payload: { repoKey: 'tree-c', path: 'props/a.txt', name: 'has space', values: ['x'] },
    })
    expect(bad.statusCode).toBe(400)
  })

  it('answers the storage API for folders, with deep listings streamed', async () => {
    const folder = await inject({ url: '/api/storage/tree-a/mix', headers: adminAuth })
    expect(folder.statusCode).toBe(200)
    expect(folder.json()).toMatchObject({ repo: 'tree-a', path: '/mix' })
    expect(folder.json().children).toEqual([
      { uri: '/a', folder: false },
      { uri: '/a-b', folder: false },
      { uri: '/a', folder: true },
      { uri: '/a0', folder: false },
      { uri: '/z', folder: false },
      { uri: '/é', folder: false },
      { uri: '/😀', folder: true },
    ])
    const deep = await inject({ url: '/api/storage/tree-a/big?list&deep=1&listFolders=1', headers: adminAuth })
    expect(deep.statusCode).toBe(200)
    const files = deep.json().files as { uri: string; folder: boolean; sha2?: string }[]
    expect(files.filter((f) => !f.folder)).toHaveLength(150 + 60)
    expect(files.filter((f) => f.folder).map((f) => f.uri)).toContain('/d07/deeper')
    expect(files.find((f) => f.uri === '/f000.txt')?.sha2).toBe(sha256('f000.txt'))
    const shallow = await inject({ url: '/api/storage/tree-a/big?list&deep=0', headers: adminAuth })
    expect((shallow.json().files as unknown[]).length).toBe(150)
    const repoRoot = await inject({ url: '/api/storage/tree-a', headers: adminAuth })
    expect(repoRoot.json().children.map((c: { uri: string }) => c.uri)).toEqual(['/big', '/mix'])
  })

  it('copies with a dry run that lists conflicts first, then moves, refusing to overwrite without permission', async () => {
    for (const p of ['rel/1.0/app.bin', 'rel/1.0/app.sig']) await put('tree-c', p, `content of ${p}`)
    await inject({ method: 'PUT', url: '/api/storage/tree-c/rel/1.0/app.bin?properties=built=yes', headers: adminAuth })
    await put('tree-b', 'rel/1.0/app.sig', 'an older signature')
    const headers = sessionHeaders(admin)
    const dry = await inject({
      method: 'POST',
      url: `${UI}/copy`,
      headers,
      payload: { repoKey: 'tree-c', path: 'rel', targetRepoKey: 'tree-b', dryRun: true },
    })
    expect(dry.json()).toMatchObject({ dryRun: true, files: 2, conflicts: ['rel/1.0/app.sig'], refused: false })
    expect((await inject({ url: '/api/storage/tree-b/rel/1.0/app.bin', headers: adminAuth })).statusCode).toBe(404)

    const copied = await inject({
      method: 'POST',
      url: `${UI}/copy`,
      headers,
      payload: { repoKey: 'tree-c', path: 'rel', targetRepoKey: 'tree-b' },
    })
    expect(copied.json()).toMatchObject({ dryRun: false, files: 2 })
    const copy = await inject({ url: '/artifactory/tree-b/rel/1.0/app.sig', headers: adminAuth })
    expect(copy.body).toBe('content of rel/1.0/app.sig')
    expect(
      (await inject({ url: '/api/storage/tree-b/rel/1.0/app.bin?properties', headers: adminAuth })).json().properties,
    ).toEqual({ built: ['yes'] })

    // A deployer without delete in the target may not replace what is there: 409, nothing moved.
    const deployer = await userWithToken(t.fastify, headers, 'tree-deployer')
    await grantRepos(t.fastify, admin, 'tree-deploy', {
      repos: ['tree-a', 'tree-b', 'tree-c'],
      user: 'tree-deployer',
      actions: ['read', 'deploy', 'annotate'],
    })
    await grantRepos(t.fastify, admin, 'tree-deploy-c', { repos: ['tree-c'], user: 'tree-deployer', actions: ['delete'] })
    const refusedDry = await inject({ method: 'POST', url: '/api/move/tree-c/rel?to=/tree-b/rel&dry=1', headers: deployer })
    expect(refusedDry.statusCode).toBe(200)
    expect(
      refusedDry
        .json()
        .messages.map((m: { message: string }) => m.message)
        .join('\n'),
    ).toMatch(/delete permission/)
    const refused = await inject({ method: 'POST', url: '/api/move/tree-c/rel?to=/tree-b/rel', headers: deployer })
    expect(refused.statusCode).toBe(409)
    expect((await inject({ url: '/api/storage/tree-c/rel/1.0/app.bin', headers: adminAuth })).statusCode).toBe(200)

    const moved = await inject({
      method: 'POST',
      url: '/api/move/tree-c/rel/1.0/app.bin?to=/tree-a/moved/app.bin',
      headers: deployer,
    })
    expect(moved.statusCode, moved.body).toBe(200)
    expect((await inject({ url: '/api/storage/tree-c/rel/1.0/app.bin', headers: adminAuth })).statusCode).toBe(404)
    expect((await inject({ url: '/artifactory/tree-a/moved/app.bin', headers: adminAuth })).body).toBe(
      'content of rel/1.0/app.bin',
    )

    const intoItself = await inject({
      method: 'POST',
      url: `${UI}/copy`,
      headers,
      payload: { repoKey: 'tree-c', path: 'rel', targetRepoKey: 'tree-c', targetPath: 'rel/inner' },
    })
    expect(intoItself.statusCode).toBe(400)
    const intoVirtual = await inject({
      method: 'POST',
      url: `${UI}/copy`,
      headers,
      payload: { repoKey: 'tree-c', path: 'rel', targetRepoKey: 'tree-v' },
    })
    expect(intoVirtual.statusCode).toBe(400)
    expect(intoVirtual.json().errors[0].message).toMatch(/local repository/)
  })

  it('deletes a file or a folder; a package version goes with its last file', async () => {
    const headers = sessionHeaders(admin)
    const pom =
      '<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>lib</artifactId><version>1.0</version></project>'
    await put('tree-maven', 'com/acme/lib/1.0/lib-1.0.pom', pom)
    await put('tree-maven', 'com/acme/lib/1.0/lib-1.0.jar', 'jar bytes')
    const before = await inject({ url: `${UI}/info?repoKey=tree-maven&path=com/acme/lib/1.0/lib-1.0.jar`, headers: adminAuth })
    expect(before.json().packageId).toBe('maven://com.acme:lib')
    const gone = await inject({ method: 'DELETE', url: `${UI}/node?repoKey=tree-maven&path=com/acme/lib/1.0`, headers })
    // The version was the artifact's only one: its maven-metadata.xml goes too, and with it every folder above.
    expect(gone.json()).toEqual({ files: 2, parent: '' })
    const versions = await t.app.db.kysely
      .selectFrom('package_versions')
      .select('id')
      .where('repo_key', '=', 'tree-maven')
      .execute()
    expect(versions).toEqual([])
    expect((await tree('repoKey=tree-maven')).nodes).toEqual([])

    await put('tree-c', 'gone/deep/one.txt', '1')
    const one = await inject({ method: 'DELETE', url: `${UI}/node?repoKey=tree-c&path=gone/deep/one.txt`, headers })
    expect(one.json()).toEqual({ files: 1, parent: '' })
    expect(
      (await inject({ method: 'DELETE', url: `${UI}/node?repoKey=tree-c&path=gone/deep/one.txt`, headers })).statusCode,
    ).toBe(404)
    expect((await inject({ method: 'DELETE', url: `${UI}/node?repoKey=tree-v&path=mix/a`, headers })).statusCode).toBe(400)
  })

  it('deploys from the console with properties; an interrupted upload stores nothing', async () => {
    const headers = sessionHeaders(admin)
    const res = await inject({
      method: 'PUT',
      url: `${UI}/deploy/tree-c/uploads/hello.txt?properties=${encodeURIComponent('env=prod;owner=ops,qa')}`,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: 'hello from the browser',
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().checksums.sha256).toBe(sha256('hello from the browser'))
    const props = await inject({ url: `${UI}/properties?repoKey=tree-c&path=uploads/hello.txt`, headers })
    expect(props.json().properties).toEqual([
      { name: 'env', values: ['prod'] },
      { name: 'owner', values: ['ops', 'qa'] },
    ])
    // Into a virtual without a deployment target, or a remote: a clear refusal.
    for (const repo of ['tree-v', 'tree-remote']) {
      const refused = await inject({ method: 'PUT', url: `${UI}/deploy/${repo}/x.txt`, headers, payload: 'x' })
      expect(refused.statusCode).toBe(405)
      expect(refused.json().errors[0].message).toMatch(/deploy to a local one/)
    }

    // Half a body, then the connection drops.
    const { port } = new URL(base)
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `PUT ${UI}/deploy/tree-c/uploads/cut.bin HTTP/1.1\r\nHost: x\r\nCookie: ${admin.cookie}\r\nX-Csrf-Token: ${admin.csrf}\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n`,
        )
        socket.write(Buffer.alloc(300_000, 7))
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 300)
      })
      socket.on('error', reject)
    })
    await new Promise((r) => setTimeout(r, 300))
    expect((await inject({ url: `${UI}/info?repoKey=tree-c&path=uploads/cut.bin`, headers })).statusCode).toBe(404)
    const tmp = path.join(t.dataDir, 'blobs', 'tmp')
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([])
  })

  it('searches files by name and checksum among readable repositories', async () => {
    const byName = await inject({ url: '/api/search/artifact?name=f14*.txt&repos=tree-a', headers: adminAuth })
    expect(byName.json().results).toHaveLength(10)
    const bySum = await inject({ url: `/api/search/checksum?sha256=${sha256('f000.txt')}`, headers: adminAuth })
    expect(bySum.json().results.map((r: { uri: string }) => local(r.uri))).toEqual(['/api/storage/tree-a/big/f000.txt'])
    expect((await inject({ url: '/api/search/checksum?sha1=zz', headers: adminAuth })).statusCode).toBe(400)
    // The reader may read tree-a only.
    const readerSees = await inject({ url: '/api/search/artifact?name=.txt', headers: reader })
    const repos = new Set(readerSees.json().results.map((r: { uri: string }) => local(r.uri).split('/')[3]))
    expect([...repos]).toEqual(['tree-a'])
  })

  it('finds files by any part of their name, with their details on X-Result-Detail: info', async () => {
    const plain = await inject({ url: '/api/search/artifact?name=141&repos=tree-a', headers: adminAuth })
    expect(plain.json().results).toEqual([{ uri: expect.stringMatching(/\/api\/storage\/tree-a\/big\/f141\.txt$/) }])
    const detailed = await inject({
      url: '/api/search/artifact?name=41.T&repos=tree-a',
      headers: { ...adminAuth, 'x-result-detail': 'info' },
    })
    expect(detailed.statusCode).toBe(200)
    const results = detailed.json().results as { name: string; lastModified: string }[]
    expect(results.map((r) => r.name)).toEqual(['f041.txt', 'f141.txt'])
    const hit = results[1]
    expect(hit).toMatchObject({
      repo: 'tree-a',
      path: '/big/f141.txt',
      name: 'f141.txt',
      size: 'f141.txt'.length,
      createdBy: 'admin',
    })
    expect(Date.parse(hit?.lastModified ?? '')).toBeGreaterThan(0)
  })

  it('refuses traversal, encoded traversal and NUL in paths, in the console calls and REST alike', async () => {
    for (const url of [
      `${UI}/tree?repoKey=tree-a&path=${encodeURIComponent('big/../mix')}`,
      `${UI}/info?repoKey=tree-a&path=${encodeURIComponent('..')}`,
      `${UI}/info?repoKey=tree-a&path=big%00x`,
      '/api/storage/tree-a/big/%252e%252e/mix',
      '/api/storage/tree-a/big%00',
    ]) {
      const res = await inject({ url, headers: adminAuth })
      expect(res.statusCode, url).toBe(400)
      expect(res.json().errors[0].message, url).toMatch(/path/)
    }
    // Sent as they are (URL parsers would resolve them before sending).
    for (const url of [
      '/api/storage/tree-a/big/%2e%2e/mix',
      '/artifactory/list/tree-a/big/%2E%2E/',
      '/api/storage/tree-a/big/../mix',
    ]) {
      const res = await rawGet(url)
      expect(res.status, url).toBe(400)
      expect(res.body, url).toMatch(/path/)
    }
    const copy = await inject({ method: 'POST', url: '/api/copy/tree-a/big?to=/tree-b/../etc', headers: adminAuth })
    expect(copy.statusCode).toBe(400)
  })

  it('serves a plain HTML listing', async () => {
    const res = await inject({ url: '/artifactory/list/tree-a/mix/', headers: adminAuth })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.body).toContain('<a href="a-b">a-b</a>')
    expect(res.body).toContain('<a href="a/">a/</a>')
    expect(res.body).toContain('<a href="../">../</a>')
    const slash = await inject({ url: '/artifactory/list/tree-a/mix', headers: adminAuth })
    expect(slash.statusCode).toBe(302)
    expect(slash.headers.location).toBe('/artifactory/list/tree-a/mix/')
    const file = await inject({ url: '/artifactory/list/tree-a/mix/z', headers: adminAuth })
    expect(file.headers.location).toBe('/artifactory/tree-a/mix/z')
    const repos = await inject({ url: '/artifactory/list/', headers: reader })
    expect(repos.body).toContain('tree-a/')
    expect(repos.body).not.toContain('tree-b/')
  })

  it('refuses every change to a reader and to an anonymous caller, and hides what they may not read', async () => {
    const readerTree = await tree('', reader)
    expect(readerTree.nodes.map((n) => n.key).sort()).toEqual(['tree-a', 'tree-v'])
    // Through the virtual, the reader sees only the member they may read.
    expect((await tree('repoKey=tree-v', reader)).nodes.map((n) => n.key)).toEqual(['big/', 'mix/', 'moved/'])
    expect((await inject({ url: `${UI}/tree?repoKey=tree-b`, headers: reader })).statusCode).toBe(404)
    expect((await inject({ url: `${UI}/tree?repoKey=tree-b` })).statusCode).toBe(401)

    const writes = [
      {
        method: 'PUT' as const,
        url: `${UI}/properties`,
        payload: { repoKey: 'tree-a', path: 'mix/z', name: 'x', values: ['1'] },
      },
      { method: 'DELETE' as const, url: `${UI}/properties?repoKey=tree-a&path=mix/z&name=x` },
      { method: 'DELETE' as const, url: `${UI}/node?repoKey=tree-a&path=mix/z` },
      { method: 'POST' as const, url: `${UI}/copy`, payload: { repoKey: 'tree-a', path: 'mix/z', targetRepoKey: 'tree-b' } },
      { method: 'POST' as const, url: `${UI}/move`, payload: { repoKey: 'tree-a', path: 'mix/z', targetRepoKey: 'tree-b' } },
      { method: 'PUT' as const, url: `${UI}/deploy/tree-a/new.txt`, payload: 'x' },
      { method: 'PUT' as const, url: '/api/storage/tree-a/mix/z?properties=x=1' },
      { method: 'DELETE' as const, url: '/api/storage/tree-a/mix/z?properties=x' },
      { method: 'POST' as const, url: '/api/copy/tree-a/mix/z?to=/tree-c/z' },
      { method: 'POST' as const, url: '/api/move/tree-a/mix/z?to=/tree-c/z' },
    ]
    for (const w of writes) {
      const asReader = await inject({ ...w, headers: reader })
      expect([403, 404], `${w.method} ${w.url} as reader: ${asReader.body}`).toContain(asReader.statusCode)
      const anonymous = await inject({ ...w })
      expect(anonymous.statusCode, `${w.method} ${w.url} anonymously`).toBe(401)
    }
    expect((await inject({ url: '/artifactory/tree-a/mix/z', headers: adminAuth })).statusCode).toBe(200)
  })
})
