import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, run } from '../../../test/clients.js'
import { createTestApp, type Session, signIn, type TestApp, tempDir } from '../../../test/testApp.js'

const sha = (alg: string, data: string | Buffer) => crypto.createHash(alg).update(data).digest('hex')

/** Generic repositories with curl, the client scripts use for them. */
describe('generic repositories', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let token: string
  let work: string
  const curl = async (args: string[]) => {
    const out = path.join(work, 'response.out')
    const res = await run('curl', ['-sS', '-o', out, '-w', '%{http_code}', ...args], { cwd: work })
    return { stdout: res.stdout, stderr: fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : res.stderr }
  }
  const auth = () => ['-H', `Authorization: Bearer ${token}`]
  const get = (url: string) => t.fastify.inject({ url, headers: { authorization: `Bearer ${token}` } })

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-generic-')
    await createRepo(t.fastify, admin, 'files', { rclass: 'local', packageType: 'generic' })
    await createRepo(t.fastify, admin, 'files-v', {
      rclass: 'virtual',
      packageType: 'generic',
      repositories: ['files'],
      defaultDeploymentRepo: 'files',
    })
  })
  afterAll(async () => {
    await t.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('PUTs any path with properties and checksums, then GETs, HEADs and lists it', async () => {
    const content = Buffer.from('release notes\n'.repeat(100))
    fs.writeFileSync(path.join(work, 'notes.txt'), content)
    const put = await curl([
      ...auth(),
      '-T',
      'notes.txt',
      '-H',
      `X-Checksum-Sha1: ${sha('sha1', content)}`,
      `${base}/artifactory/files/docs/1.0/notes.txt;build=42;env=prod,qa`,
    ])
    expect(put.stdout).toBe('201')
    expect(JSON.parse(put.stderr)).toMatchObject({
      repo: 'files',
      path: '/docs/1.0/notes.txt',
      checksums: { sha256: sha('sha256', content) },
    })

    const get = await t.fastify.inject({
      url: '/artifactory/files/docs/1.0/notes.txt',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(get.statusCode).toBe(200)
    expect(get.rawPayload.equals(content)).toBe(true)
    expect(get.headers['x-checksum-sha256']).toBe(sha('sha256', content))
    const head = await t.fastify.inject({
      method: 'HEAD',
      url: '/artifactory/files-v/docs/1.0/notes.txt',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(head.statusCode).toBe(200)
    expect(Number(head.headers['content-length'])).toBe(content.length)
    const range = await t.fastify.inject({
      url: '/artifactory/files/docs/1.0/notes.txt',
      headers: { authorization: `Bearer ${token}`, range: 'bytes=0-12' },
    })
    expect(range.statusCode).toBe(206)
    expect(range.body).toBe('release notes')

    const props = await t.fastify.inject({
      url: '/api/storage/files/docs/1.0/notes.txt?properties',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(props.json().properties).toEqual({ build: ['42'], env: ['prod', 'qa'] })
    const setProp = await t.fastify.inject({
      method: 'PUT',
      url: '/api/storage/files/docs/1.0/notes.txt?properties=owner=ops',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(setProp.statusCode).toBe(204)
    const after = await t.fastify.inject({
      url: '/api/storage/files/docs/1.0/notes.txt?properties=owner,build',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(after.json().properties).toEqual({ owner: ['ops'], build: ['42'] })

    const listing = await t.fastify.inject({ url: '/artifactory/files/docs', headers: { authorization: `Bearer ${token}` } })
    expect(listing.json().children).toEqual([{ uri: '/1.0', folder: true }])
    // Counts are written in batches, within a second.
    await vi.waitFor(async () => {
      const download = await t.app.db.kysely
        .selectFrom('files')
        .select('download_count')
        .where('path', '=', 'docs/1.0/notes.txt')
        .executeTakeFirstOrThrow()
      expect(Number(download.download_count)).toBe(1)
    }, 3000)
  })

  it('serves a stored file byte for byte, with its length, whatever it starts with and the client accepts', async () => {
    // Content that starts like gzip or zlib data was passed through by the compressor yet labelled br.
    for (const [name, head] of [
      ['looks-gzip.bin', [0x1f, 0x8b, 0x08]],
      ['looks-zlib.txt', [0x78, 0x9c]],
      ['plain.json', [0x7b]],
    ] as const) {
      const body = Buffer.concat([Buffer.from(head), crypto.randomBytes(5000)])
      const put = await fetch(`${base}/artifactory/files/enc/${name}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
        body,
      })
      expect(put.status).toBe(201)
      const res = await fetch(`${base}/artifactory/files/enc/${name}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' },
      })
      expect(res.headers.get('content-encoding')).toBeNull()
      expect(res.headers.get('content-length')).toBe(String(body.length))
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true)
    }
  })

  it('answers a large deploy with all its checksums, none left for later', async () => {
    // Past 64 MB without declared checksums: the deploy's answer carries sha1 and md5 all the same.
    const content = crypto.randomBytes(66 * 1024 * 1024)
    fs.writeFileSync(path.join(work, 'large.bin'), content)
    const sums = { sha1: sha('sha1', content), md5: sha('md5', content), sha256: sha('sha256', content) }
    const put = await curl([...auth(), '-T', 'large.bin', `${base}/artifactory/files/large/large.bin`])
    expect(put.stdout).toBe('201')
    expect(JSON.parse(put.stderr).checksums).toEqual(sums)
    const row = await t.app.db.kysely
      .selectFrom('files')
      .select(['sha1', 'md5'])
      .where('path', '=', 'large/large.bin')
      .executeTakeFirst()
    expect(row).toEqual({ sha1: sums.sha1, md5: sums.md5 })
    const head = await t.fastify.inject({
      method: 'HEAD',
      url: '/artifactory/files/large/large.bin',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(head.headers['x-checksum-sha1']).toBe(sums.sha1)
    expect(head.headers['x-checksum-md5']).toBe(sums.md5)
    expect(head.headers.etag).toBe(`"${sums.sha1}"`)
    fs.rmSync(path.join(work, 'large.bin'))
  })

  it('refuses a checksum mismatch (nothing stored), anonymous deploys, and missing paths', async () => {
    fs.writeFileSync(path.join(work, 'bad.bin'), 'payload')
    const bad = await curl([
      ...auth(),
      '-T',
      'bad.bin',
      '-H',
      `X-Checksum-Sha256: ${sha('sha256', 'other')}`,
      `${base}/artifactory/files/bad.bin`,
    ])
    expect(bad.stdout).toBe('400')
    expect(JSON.parse(bad.stderr).errors[0].message).toMatch(/Checksum mismatch/)
    expect(
      await t.app.db.kysely
        .selectFrom('blobs')
        .select('sha256')
        .where('sha256', '=', sha('sha256', 'payload'))
        .executeTakeFirst(),
    ).toBeUndefined()
    const anon = await curl(['-T', 'bad.bin', `${base}/artifactory/files/bad.bin`])
    expect(anon.stdout).toBe('401')
    const missing = await t.fastify.inject({ url: '/artifactory/files/nope.txt', headers: { authorization: `Bearer ${token}` } })
    expect(missing.statusCode).toBe(404)
  })

  it('deploys through a virtual repository to its default deployment repository, and DELETEs', async () => {
    fs.writeFileSync(path.join(work, 'a.bin'), 'aaa')
    expect((await curl([...auth(), '-T', 'a.bin', `${base}/artifactory/files-v/x/a.bin`])).stdout).toBe('201')
    expect(await t.app.db.kysely.selectFrom('files').select('repo_key').where('path', '=', 'x/a.bin').executeTakeFirst()).toEqual(
      { repo_key: 'files' },
    )
    const del = await t.fastify.inject({
      method: 'DELETE',
      url: '/artifactory/files/x/a.bin',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(del.statusCode).toBe(204)
    expect(
      (await t.fastify.inject({ url: '/artifactory/files/x/a.bin', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(404)
  })

  it('proxies a second Trove through a remote repository with credentials, and serves its cache offline', async () => {
    const upstream = await createTestApp()
    try {
      const upstreamBase = await listen(upstream.fastify)
      const upstreamAdmin = await signIn(upstream.fastify)
      const upstreamToken = await accessToken(upstream.fastify, upstreamAdmin)
      await createRepo(upstream.fastify, upstreamAdmin, 'releases', { rclass: 'local', packageType: 'generic' })
      const put = await upstream.fastify.inject({
        method: 'PUT',
        url: '/artifactory/releases/tool/2.0/tool.tar.gz',
        headers: { authorization: `Bearer ${upstreamToken}` },
        payload: Buffer.from('the tool, version 2'),
      })
      expect(put.statusCode).toBe(201)
      await createRepo(t.fastify, admin, 'releases-remote', {
        rclass: 'remote',
        packageType: 'generic',
        url: `${upstreamBase}/artifactory/releases`,
        username: 'admin',
        password: upstreamToken,
      })
      const first = await get('/artifactory/releases-remote/tool/2.0/tool.tar.gz')
      expect(first.statusCode).toBe(200)
      expect(first.body).toBe('the tool, version 2')
      const cached = await t.app.db.kysely
        .selectFrom('files')
        .select(['repo_key', 'sha256'])
        .where('path', '=', 'tool/2.0/tool.tar.gz')
        .executeTakeFirstOrThrow()
      expect(cached).toEqual({ repo_key: 'releases-remote', sha256: sha('sha256', 'the tool, version 2') })
      expect((await get('/artifactory/releases-remote/tool/9.9/missing.tar.gz')).statusCode).toBe(404)
      // Without the upstream, offline: the cache answers.
      await upstream.stop()
      const offline = await t.fastify.inject({
        method: 'POST',
        url: '/api/repositories/releases-remote',
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
        payload: { offline: true },
      })
      expect(offline.statusCode).toBe(200)
      expect((await get('/artifactory/releases-remote/tool/2.0/tool.tar.gz')).body).toBe('the tool, version 2')
      // Unused for longer than the artifact cache lifetime (1 hour here): dropped by the cleanup.
      await t.fastify.inject({
        method: 'POST',
        url: '/api/repositories/releases-remote',
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
        payload: { unusedArtifactsCleanupPeriodHours: 1 },
      })
      const twoHoursAgo = Date.now() - 2 * 3600 * 1000
      await t.app.db.kysely
        .updateTable('files')
        .set({ created_at: twoHoursAgo, last_downloaded_at: twoHoursAgo })
        .where('repo_key', '=', 'releases-remote')
        .execute()
      const gc = await t.fastify.inject({
        method: 'POST',
        url: '/api/system/storage/gc?graceSeconds=0',
        headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      })
      expect(gc.json()).toMatchObject({ expired: 1 })
      expect(gc.json().freed).toBeGreaterThanOrEqual(1)
      expect((await get('/artifactory/releases-remote/tool/2.0/tool.tar.gz')).statusCode).toBe(404)
    } finally {
      await upstream.close()
    }
  })
})
