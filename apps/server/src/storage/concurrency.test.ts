import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, grantRepos, listen, npmPublishBody } from '../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { userWithToken } from '../identity/access/testUsers.js'

/** How many requests each race sends at once; TROVE_TEST_LONG=1 sends more (slower, for a soak). */
const N = process.env.TROVE_TEST_LONG === '1' ? 400 : 100

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** An npm tarball whose package holds `extra` bytes of incompressible data beside its package.json. */
async function bigTarball(name: string, version: string, extra: number): Promise<Buffer> {
  const { default: tar } = await import('tar-stream')
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify({ name, version }))
  pack.entry({ name: 'package/data.bin' }, crypto.randomBytes(extra))
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const c of pack) chunks.push(c as Buffer)
  return zlib.gzipSync(Buffer.concat(chunks))
}

/**
 * Concurrent writes over real sockets: many clients at once on the same version, file, tag or blob.
 * Every answer must be a clean one (no 5xx), and what is stored afterwards must be consistent.
 */
describe('concurrent writes', () => {
  let t: TestApp
  let admin: Session
  let base: string
  let adminAuth: string
  let deployer: string
  const db = () => t.app.db.kysely
  const blobPath = (sum: string) => path.join(t.dataDir, 'blobs', sum.slice(0, 2), sum.slice(2, 4), sum)

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    admin = await signIn(t.fastify)
    adminAuth = `Bearer ${await accessToken(t.fastify, admin)}`
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'maven-local', { rclass: 'local', packageType: 'maven' })
    await createRepo(t.fastify, admin, 'files', { rclass: 'local', packageType: 'generic' })
    // May deploy but not delete: a release already stored is not theirs to replace.
    deployer = (await userWithToken(t.fastify, sessionHeaders(admin), 'deployer')).authorization
    await grantRepos(t.fastify, admin, 'deployer-maven', {
      repos: ['maven-local'],
      user: 'deployer',
      actions: ['read', 'deploy'],
    })
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  interface Packument {
    versions: Record<string, unknown>
    'dist-tags': Record<string, string>
  }
  const getJson = async <T>(url: string): Promise<T> =>
    (await fetch(url, { headers: { authorization: adminAuth } })).json() as Promise<T>

  const statuses = (responses: { status: number }[]) => {
    const counts: Record<number, number> = {}
    for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1
    return counts
  }

  const publish = (body: unknown, auth = adminAuth, name = (body as { name: string }).name) =>
    fetch(`${base}/api/npm/npm-local/${name.replace('/', '%2f')}`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it(`answers ${N} publishes of one npm version with one 201 and 409s, and records it once`, async () => {
    // Each publish carries other content under the same version: one wins.
    const bodies = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        npmPublishBody(base, 'npm-local', { name: 'race-once', version: '1.0.0', description: `race ${i}` }),
      ),
    )
    const responses = await Promise.all(bodies.map(({ body }) => publish(body)))
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 201: 1, 409: N - 1 })
    const { tarball } = bodies[responses.findIndex((r) => r.status === 201)] as { tarball: Buffer }

    const packument = await getJson<Packument>(`${base}/api/npm/npm-local/race-once`)
    expect(Object.keys(packument.versions)).toEqual(['1.0.0'])
    expect(packument['dist-tags']).toEqual({ latest: '1.0.0' })
    const download = await fetch(`${base}/api/npm/npm-local/race-once/-/race-once-1.0.0.tgz`, {
      headers: { authorization: adminAuth },
    })
    expect(Buffer.from(await download.arrayBuffer())).toEqual(tarball)

    const packages = await db().selectFrom('packages').selectAll().where('name', '=', 'race-once').execute()
    expect(packages).toHaveLength(1)
    const versions = await db()
      .selectFrom('package_versions')
      .selectAll()
      .where('package_id', '=', packages[0]?.id ?? -1)
      .execute()
    expect(versions).toHaveLength(1)
    const files = await db()
      .selectFrom('files')
      .selectAll()
      .where('repo_key', '=', 'npm-local')
      .where('path', 'like', 'race-once/%')
      .execute()
    expect(files.map((f) => [f.path, f.version_id])).toEqual([['race-once/-/race-once-1.0.0.tgz', versions[0]?.id]])
  }, 30_000)

  it(`takes ${N} identical publishes of one version at once (a client retrying) as one, answering each 201`, async () => {
    const { body, tarball } = await npmPublishBody(base, 'npm-local', { name: 'race-same', version: '1.0.0' })
    const responses = await Promise.all(Array.from({ length: N }, () => publish(body)))
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 201: N })
    const packument = await getJson<Packument>(`${base}/api/npm/npm-local/race-same`)
    expect(Object.keys(packument.versions)).toEqual(['1.0.0'])
    const download = await fetch(`${base}/api/npm/npm-local/race-same/-/race-same-1.0.0.tgz`, {
      headers: { authorization: adminAuth },
    })
    expect(Buffer.from(await download.arrayBuffer())).toEqual(tarball)
    const files = await db().selectFrom('files').select('path').where('path', 'like', 'race-same/%').execute()
    expect(files).toHaveLength(1)
  }, 30_000)

  it('publishes many versions of a new package at once: one package row, every version', async () => {
    const count = Math.min(N, 40)
    const bodies = await Promise.all(
      Array.from({ length: count }, (_, i) => npmPublishBody(base, 'npm-local', { name: 'race-many', version: `1.0.${i}` })),
    )
    const responses = await Promise.all(bodies.map(({ body }) => publish(body)))
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 201: count })
    const packages = await db().selectFrom('packages').select('id').where('name', '=', 'race-many').execute()
    expect(packages).toHaveLength(1)
    const versions = await db()
      .selectFrom('package_versions')
      .select('version')
      .where('package_id', '=', packages[0]?.id ?? -1)
      .execute()
    expect(versions).toHaveLength(count)
    const packument = await getJson<Packument>(`${base}/api/npm/npm-local/race-many`)
    expect(Object.keys(packument.versions)).toHaveLength(count)
  }, 30_000)

  it('ends concurrent dist-tag changes in a packument that matches what is stored', async () => {
    const published = ['2.0.0', '2.0.1', '2.0.2', '2.0.3']
    for (const version of published) {
      const { body } = await npmPublishBody(base, 'npm-local', { name: 'race-tags', version })
      expect((await publish(body)).status).toBe(201)
    }
    const tagUrl = (tag: string) => `${base}/api/npm/npm-local/-/package/race-tags/dist-tags/${tag}`
    const requests: Promise<Response>[] = []
    for (let i = 0; i < N; i++) {
      const version = published[i % published.length]
      // npm dist-tag add sends the version as a JSON string; rm sends a DELETE.
      const add = (tag: string) =>
        fetch(tagUrl(tag), {
          method: 'PUT',
          headers: { authorization: adminAuth, 'content-type': 'application/json' },
          body: JSON.stringify(version),
        })
      if (i % 4 === 0) requests.push(add('latest'))
      else if (i % 4 === 1) requests.push(add('next'))
      else if (i % 4 === 2) requests.push(add(`t${i}`))
      else requests.push(fetch(tagUrl(`t${i - 1}`), { method: 'DELETE', headers: { authorization: adminAuth } }))
    }
    const responses = await Promise.all(requests)
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(Object.keys(statuses(responses)).every((s) => Number(s) < 300)).toBe(true)

    const pkg = await db()
      .selectFrom('packages')
      .select(['id', 'latest_version'])
      .where('name', '=', 'race-tags')
      .executeTakeFirstOrThrow()
    const rows = await db().selectFrom('dist_tags').select(['tag', 'version']).where('package_id', '=', pkg.id).execute()
    const stored = Object.fromEntries(rows.map((r) => [r.tag, r.version]))
    expect(published).toContain(stored.latest)
    expect(published).toContain(stored.next)
    // The package's latest version is the latest tag's, whichever request came last.
    expect(pkg.latest_version).toBe(stored.latest)
    const tags = await getJson<Record<string, string>>(`${base}/api/npm/npm-local/-/package/race-tags/dist-tags`)
    expect(tags).toEqual(stored)
    const packument = await getJson<Packument>(`${base}/api/npm/npm-local/race-tags`)
    expect(packument['dist-tags']).toEqual(stored)
  }, 30_000)

  it('serves a tarball being downloaded while its version is deleted and its blob collected, or answers 404', async () => {
    const tarball = await bigTarball('race-gone', '1.0.0', 2 * 1024 * 1024)
    const file = 'race-gone-1.0.0.tgz'
    const body = {
      _id: 'race-gone',
      name: 'race-gone',
      'dist-tags': { latest: '1.0.0' },
      versions: {
        '1.0.0': { name: 'race-gone', version: '1.0.0', dist: { tarball: `${base}/api/npm/npm-local/race-gone/-/${file}` } },
      },
      _attachments: {
        [file]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length },
      },
    }
    expect((await publish(body)).status).toBe(201)
    // The blob was stored long ago: once no file names it, the next GC frees it at once.
    await db().updateTable('blobs').set({ touched_at: 0 }).where('sha256', '=', sha256(tarball)).execute()

    const url = `${base}/api/npm/npm-local/race-gone/-/${file}`
    const download = async (res: Response) => {
      try {
        return { status: res.status, body: Buffer.from(await res.arrayBuffer()) }
      } catch {
        // The body was cut short: the client sees a failed transfer, never wrong bytes.
        return { status: res.status, body: undefined }
      }
    }
    const get = () => fetch(url, { headers: { authorization: adminAuth } })
    // Downloads under way (their answers started) when the version goes…
    const started = await Promise.all(Array.from({ length: 20 }, get))
    // …and more that start just before and while it goes and its blob is freed.
    const racing = Array.from({ length: Math.min(N, 30) }, async () => download(await get()))
    const unpublish = fetch(`${base}/api/npm/npm-local/race-gone/-rev/1`, {
      method: 'DELETE',
      headers: { authorization: adminAuth },
    })
    racing.push(...Array.from({ length: Math.min(N, 30) }, async () => download(await get())))
    const gc = (async () => {
      await unpublish
      return fetch(`${base}/api/system/storage/gc`, { method: 'POST', headers: { authorization: adminAuth } })
    })()
    expect((await unpublish).status).toBe(200)
    expect(((await (await gc).json()) as { freed: number }).freed).toBe(1)
    const results = [...(await Promise.all(started.map(download))), ...(await Promise.all(racing))]
    for (const r of results) {
      expect([200, 404]).toContain(r.status)
      if (r.status === 200 && r.body) expect(sha256(r.body)).toBe(sha256(tarball))
    }
    for (const r of results.slice(0, started.length)) expect(r.status).toBe(200)
    const after = await fetch(`${base}/api/npm/npm-local/race-gone/-/${file}`, { headers: { authorization: adminAuth } })
    expect(after.status).toBe(404)
    await after.arrayBuffer()
    expect(fs.existsSync(blobPath(sha256(tarball)))).toBe(false)
  }, 30_000)

  it('lets one of many deploys of a Maven release file win, refuses the rest with 409, and lists the version once', async () => {
    const dir = 'com/example/race/1.0.0'
    const deploy = (name: string, content: Buffer, auth = deployer) =>
      fetch(`${base}/artifactory/maven-local/${dir}/${name}`, { method: 'PUT', headers: { authorization: auth }, body: content })
    const jars = Array.from({ length: N }, (_, i) => Buffer.from(`jar ${i} ${crypto.randomBytes(8).toString('hex')}`))
    const pom = (i: number) =>
      Buffer.from(
        `<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>race</artifactId><version>1.0.0</version><description>pom ${i}</description></project>`,
      )
    const poms = Array.from({ length: N }, (_, i) => pom(i))
    const responses = await Promise.all([
      ...jars.map((jar) => deploy('race-1.0.0.jar', jar)),
      ...poms.map((p) => deploy('race-1.0.0.pom', p)),
    ])
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    const jarStatuses = responses.slice(0, N)
    const pomStatuses = responses.slice(N)
    expect(statuses(jarStatuses)).toEqual({ 201: 1, 409: N - 1 })
    expect(statuses(pomStatuses)).toEqual({ 201: 1, 409: N - 1 })

    // What is stored is the winner's content.
    const winnerJar = jars[jarStatuses.findIndex((r) => r.status === 201)] as Buffer
    const jar = await fetch(`${base}/artifactory/maven-local/${dir}/race-1.0.0.jar`, { headers: { authorization: adminAuth } })
    expect(Buffer.from(await jar.arrayBuffer())).toEqual(winnerJar)
    const winnerPom = poms[pomStatuses.findIndex((r) => r.status === 201)] as Buffer
    const storedPom = await fetch(`${base}/artifactory/maven-local/${dir}/race-1.0.0.pom`, {
      headers: { authorization: adminAuth },
    })
    expect(Buffer.from(await storedPom.arrayBuffer())).toEqual(winnerPom)

    const metadata = await (
      await fetch(`${base}/artifactory/maven-local/com/example/race/maven-metadata.xml`, {
        headers: { authorization: adminAuth },
      })
    ).text()
    expect(metadata.match(/<version>1\.0\.0<\/version>/g)).toHaveLength(1)
    const pkg = await db().selectFrom('packages').select('id').where('name', '=', 'com.example:race').execute()
    expect(pkg).toHaveLength(1)
    const versions = await db()
      .selectFrom('package_versions')
      .select('id')
      .where('package_id', '=', pkg[0]?.id ?? -1)
      .execute()
    expect(versions).toHaveLength(1)
    const files = await db()
      .selectFrom('files')
      .select(['path', 'version_id'])
      .where('repo_key', '=', 'maven-local')
      .where('path', 'like', 'com/example/race/%')
      .orderBy('path')
      .execute()
    expect(files).toEqual([
      { path: `${dir}/race-1.0.0.jar`, version_id: versions[0]?.id },
      { path: `${dir}/race-1.0.0.pom`, version_id: versions[0]?.id },
      { path: 'com/example/race/maven-metadata.xml', version_id: null },
    ])
  }, 30_000)

  it('lists every version in maven-metadata.xml when many versions of one artifact are deployed at once', async () => {
    const versions = Array.from({ length: Math.min(N, 30) }, (_, i) => `2.${i}.0`)
    const responses = await Promise.all(
      versions.flatMap((v) => [
        fetch(`${base}/artifactory/maven-local/com/example/many/${v}/many-${v}.jar`, {
          method: 'PUT',
          headers: { authorization: deployer },
          body: `jar ${v}`,
        }),
        fetch(`${base}/artifactory/maven-local/com/example/many/${v}/many-${v}.pom`, {
          method: 'PUT',
          headers: { authorization: deployer },
          body: `<project><groupId>com.example</groupId><artifactId>many</artifactId><version>${v}</version></project>`,
        }),
      ]),
    )
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 201: versions.length * 2 })
    const metadata = await (
      await fetch(`${base}/artifactory/maven-local/com/example/many/maven-metadata.xml`, {
        headers: { authorization: adminAuth },
      })
    ).text()
    const listed = [...metadata.matchAll(/<version>([^<]+)<\/version>/g)].map((m) => m[1])
    expect(listed.sort()).toEqual([...versions].sort())
    const rows = await db()
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select('v.version')
      .where('p.name', '=', 'com.example:many')
      .execute()
    expect(rows.map((r) => r.version).sort()).toEqual([...versions].sort())
  }, 30_000)

  it('lets a user who may delete redeploy a release many times at once: every deploy succeeds, the last one stays', async () => {
    const dir = 'com/example/redeploy/1.0.0'
    const jars = Array.from({ length: N }, (_, i) => Buffer.from(`redeploy ${i}`))
    const responses = await Promise.all(
      jars.map((jar) =>
        fetch(`${base}/artifactory/maven-local/${dir}/redeploy-1.0.0.jar`, {
          method: 'PUT',
          headers: { authorization: adminAuth },
          body: jar,
        }),
      ),
    )
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(statuses(responses)).toEqual({ 201: N })
    const stored = await fetch(`${base}/artifactory/maven-local/${dir}/redeploy-1.0.0.jar`, {
      headers: { authorization: adminAuth },
    })
    expect(jars.map((j) => j.toString())).toContain(Buffer.from(await stored.arrayBuffer()).toString())
    const files = await db().selectFrom('files').select('id').where('path', '=', `${dir}/redeploy-1.0.0.jar`).execute()
    expect(files).toHaveLength(1)
    const versions = await db()
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select('v.id')
      .where('p.name', '=', 'com.example:redeploy')
      .execute()
    expect(versions).toHaveLength(1)
  }, 30_000)

  it('never frees a blob an upload is about to reference while the GC runs', async () => {
    const count = Math.min(N, 60)
    const contents = Array.from({ length: count }, (_, i) => Buffer.from(`orphan ${i} ${crypto.randomBytes(16).toString('hex')}`))
    const put = (i: number) =>
      fetch(`${base}/artifactory/files/gc/${i}.bin`, {
        method: 'PUT',
        headers: { authorization: adminAuth },
        body: contents[i],
      })
    // Stored long ago and since orphaned: every one of these blobs is the GC's to free.
    for (const r of await Promise.all(contents.map((_, i) => put(i)))) expect(r.status).toBe(201)
    const removed = await fetch(`${base}/artifactory/files/gc`, { method: 'DELETE', headers: { authorization: adminAuth } })
    expect(removed.status).toBe(204)
    await db().updateTable('blobs').set({ touched_at: 0 }).where('sha256', 'in', contents.map(sha256)).execute()

    // The same contents again, while collections run.
    const gc = () => fetch(`${base}/api/system/storage/gc`, { method: 'POST', headers: { authorization: adminAuth } })
    const responses = await Promise.all([...contents.map((_, i) => put(i)), gc(), gc(), gc()])
    await Promise.all(responses.map((r) => r.arrayBuffer()))
    expect(responses.every((r) => r.status < 300)).toBe(true)

    for (const [i, content] of contents.entries()) {
      const file = blobPath(sha256(content))
      expect(fs.existsSync(file), `blob of gc/${i}.bin`).toBe(true)
      expect(sha256(fs.readFileSync(file))).toBe(sha256(content))
      const row = await db().selectFrom('blobs').select('sha256').where('sha256', '=', sha256(content)).executeTakeFirst()
      expect(row).toBeDefined()
    }
    // A GC afterwards finds nothing to free: every blob is referenced.
    const after = (await (await gc()).json()) as { freed: number }
    expect(after.freed).toBe(0)
  }, 30_000)
})
