import crypto from 'node:crypto'
import fs from 'node:fs'
import http_ from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessToken, createRepo, listen, run, skopeo as skopeoIn } from '../../../test/clients.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { packagesBrowser } from '../../../test/packagesBrowser.js'
import {
  ADMIN_PASSWORD,
  createTestApp,
  type Session,
  sessionHeaders,
  signIn,
  type TestApp,
  tempDir,
} from '../../../test/testApp.js'
import type { TagMetadata } from './index.js'
import { MEDIA } from './manifest.js'

/** The distribution-spec error code of a refusal. */
const codeOf = async (res: Response) => ((await res.json()) as { errors: { code: string }[] }).errors[0]?.code
const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** An image built here (an OCI image layout tagged 1.0), and the same image as a docker-archive. */
async function buildImage(dir: string, content: string) {
  const { layout, layerTar, layer, config, manifest } = writeOciImage(dir, {
    content,
    tag: '1.0',
    history: [{ created: '2026-01-02T03:04:05Z', created_by: 'COPY hello.txt /' }],
  })
  // The same image as a docker-archive (`docker save` layout): an uncompressed layer.
  const archive = path.join(dir, 'archive')
  fs.mkdirSync(path.join(archive, 'l1'), { recursive: true })
  fs.writeFileSync(path.join(archive, 'l1', 'layer.tar'), layerTar)
  fs.writeFileSync(path.join(archive, `${sha256(config)}.json`), config)
  fs.writeFileSync(
    path.join(archive, 'manifest.json'),
    JSON.stringify([{ Config: `${sha256(config)}.json`, RepoTags: ['hello:2.0'], Layers: ['l1/layer.tar'] }]),
  )
  expect((await run('tar', ['-cf', '../image.tar', '.'], { cwd: archive })).code).toBe(0)
  return { layout, archive: path.join(dir, 'image.tar'), layer, config, manifest }
}

describe('docker/oci registry', () => {
  let t: TestApp
  let upstream: TestApp
  let admin: Session
  let base: string
  let host: string
  let token: string
  let work: string
  let image: Awaited<ReturnType<typeof buildImage>>

  const skopeo = (args: string[], creds = `admin:${token}`) =>
    skopeoIn(
      work,
      args.flatMap((a) => (a === '@creds' ? ['--creds', creds] : [a])),
    )
  const authHeader = () => ({ authorization: `Bearer ${token}` })
  const http = (method: string, url: string, body?: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(`${base}${url}`, {
      method,
      headers: { ...authHeader(), ...headers },
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
    })

  beforeAll(async () => {
    t = await createTestApp()
    base = await listen(t.fastify)
    host = base.replace('http://', '')
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    work = tempDir('trove-oci-')
    image = await buildImage(work, `hello from a layer ${Date.now()}\n`)
    await createRepo(t.fastify, admin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    await createRepo(t.fastify, admin, 'docker-other', { rclass: 'local', packageType: 'docker' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await upstream?.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('answers the version check with a Bearer challenge and issues tokens for Basic credentials', async () => {
    const anon = await fetch(`${base}/v2/`)
    expect(anon.status).toBe(401)
    expect(anon.headers.get('www-authenticate')).toBe(`Bearer realm="${base}/v2/token",service="trove"`)
    expect(await codeOf(anon)).toBe('UNAUTHORIZED')
    const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
    const issued = await fetch(`${base}/v2/token?service=trove&scope=repository:docker-local/hello:pull,push`, {
      headers: { authorization: basic },
    })
    expect(issued.status).toBe(200)
    const { token: bearer, expires_in } = (await issued.json()) as { token: string; expires_in: number }
    expect(expires_in).toBeGreaterThan(0)
    expect((await fetch(`${base}/v2/`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(200)
    const wrong = await fetch(`${base}/v2/token`, {
      headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
    })
    expect(wrong.status).toBe(401)
    expect((await fetch(`${base}/v2/`, { headers: { authorization: 'Bearer oci.forged.mac' } })).status).toBe(401)
    // Anonymous reads are refused by the authorizer here: a 401 naming the scope to ask a token for.
    const denied = await fetch(`${base}/v2/docker-local/hello/tags/list`)
    expect(denied.status).toBe(401)
    expect(denied.headers.get('www-authenticate')).toContain('scope="repository:docker-local/hello:pull"')
  })

  it('skopeo copies an OCI layout in, inspects it, copies it back, and the database holds the image', async () => {
    const pushed = await skopeo([
      'copy',
      '--dest-creds',
      `admin:${ADMIN_PASSWORD}`,
      '--dest-tls-verify=false',
      `oci:${image.layout}:1.0`,
      `docker://${host}/docker-local/hello:1.0`,
    ])
    expect(pushed.stderr).toBe('')
    expect(pushed.code).toBe(0)

    const inspected = await skopeo(['inspect', '@creds', '--tls-verify=false', `docker://${host}/docker-local/hello:1.0`])
    expect(inspected.code).toBe(0)
    const info = JSON.parse(inspected.stdout)
    expect(info.Digest).toBe(`sha256:${sha256(image.manifest)}`)
    expect(info.Layers).toEqual([`sha256:${sha256(image.layer)}`])
    expect(info.Architecture).toBe('amd64')

    const back = path.join(work, 'back')
    const pulled = await skopeo([
      'copy',
      '--src-creds',
      `admin:${token}`,
      '--src-tls-verify=false',
      `docker://${host}/docker-local/hello:1.0`,
      `oci:${back}:1.0`,
    ])
    expect(pulled.stderr).toBe('')
    expect(pulled.code).toBe(0)
    expect(fs.readFileSync(path.join(back, 'blobs', 'sha256', sha256(image.layer)))).toEqual(image.layer)
    expect(fs.readFileSync(path.join(back, 'blobs', 'sha256', sha256(image.manifest)))).toEqual(image.manifest)

    const db = t.app.db.kysely
    const pkg = await db
      .selectFrom('packages')
      .selectAll()
      .where('package_type', '=', 'docker')
      .where('name', '=', 'hello')
      .executeTakeFirstOrThrow()
    expect(pkg.latest_version).toBe('1.0')
    const version = await db.selectFrom('package_versions').selectAll().where('package_id', '=', pkg.id).executeTakeFirstOrThrow()
    expect(version.repo_key).toBe('docker-local')
    const meta = JSON.parse(version.metadata) as TagMetadata
    expect(meta.digest).toBe(`sha256:${sha256(image.manifest)}`)
    expect(meta.mediaType).toBe(MEDIA.ociManifest)
    expect(meta.config?.os).toBe('linux')
    expect(meta.config?.layers).toEqual([
      {
        digest: `sha256:${sha256(image.layer)}`,
        size: image.layer.length,
        mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
        created: '2026-01-02T03:04:05Z',
        command: 'COPY hello.txt /',
      },
    ])
    const files = await db.selectFrom('files').selectAll().where('version_id', '=', version.id).orderBy('path').execute()
    expect(files.map((f) => [f.path, f.sha256, f.size])).toEqual(
      expect.arrayContaining([
        ['hello/1.0/manifest.json', sha256(image.manifest), image.manifest.length],
        [`hello/1.0/sha256__${sha256(image.layer)}`, sha256(image.layer), image.layer.length],
        [`hello/1.0/sha256__${sha256(image.config)}`, sha256(image.config), image.config.length],
      ]),
    )
    // The pull counted: the tag's manifest was fetched by a real client.
    await new Promise((r) => setTimeout(r, 700))
    const counted = await db
      .selectFrom('package_versions')
      .select('download_count')
      .where('id', '=', version.id)
      .executeTakeFirstOrThrow()
    expect(Number(counted.download_count)).toBeGreaterThanOrEqual(1)
  }, 60_000)

  it('skopeo pushes a docker-archive (Docker v2 schema 2), lists tags, and deletes', async () => {
    const pushed = await skopeo([
      'copy',
      '--dest-creds',
      `admin:${token}`,
      '--dest-tls-verify=false',
      `docker-archive:${image.archive}`,
      `docker://${host}/docker-local/hello:2.0`,
    ])
    expect(pushed.code).toBe(0)
    const manifest = await http('GET', '/v2/docker-local/hello/manifests/2.0', undefined, {
      accept: `${MEDIA.dockerManifest}, ${MEDIA.ociManifest}`,
    })
    expect(manifest.status).toBe(200)
    expect(manifest.headers.get('content-type')).toBe(MEDIA.dockerManifest)
    const body = Buffer.from(await manifest.arrayBuffer())
    expect(manifest.headers.get('docker-content-digest')).toBe(`sha256:${sha256(body)}`)

    const tags = await skopeo(['list-tags', '@creds', '--tls-verify=false', `docker://${host}/docker-local/hello`])
    expect(tags.code).toBe(0)
    expect(JSON.parse(tags.stdout).Tags).toEqual(['1.0', '2.0'])

    const page = await http('GET', '/v2/docker-local/hello/tags/list?n=1')
    expect(await page.json()).toEqual({ name: 'docker-local/hello', tags: ['1.0'] })
    expect(page.headers.get('link')).toBe('</v2/docker-local/hello/tags/list?n=1&last=1.0>; rel="next"')
    expect(await (await http('GET', '/v2/docker-local/hello/tags/list?n=1&last=1.0')).json()).toEqual({
      name: 'docker-local/hello',
      tags: ['2.0'],
    })
    expect(await (await http('GET', '/v2/_catalog')).json()).toEqual({ repositories: ['docker-local/hello'] })

    const deleted = await skopeo(['delete', '@creds', '--tls-verify=false', `docker://${host}/docker-local/hello:2.0`])
    expect(deleted.code).toBe(0)
    const gone = await http('GET', '/v2/docker-local/hello/manifests/2.0')
    expect(gone.status).toBe(404)
    expect(await codeOf(gone)).toBe('MANIFEST_UNKNOWN')
    expect(
      JSON.parse((await skopeo(['list-tags', '@creds', '--tls-verify=false', `docker://${host}/docker-local/hello`])).stdout)
        .Tags,
    ).toEqual(['1.0'])
  }, 60_000)

  it('answers a manifest name that is neither a tag nor a digest as unknown (404) to a reader, and only after the access check', async () => {
    for (const ref of ['.INVALID_MANIFEST_NAME', '-starts-with-dash', 'sha256:short']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await http(method, `/v2/docker-local/hello/manifests/${ref}`)
        expect(res.status, `${method} ${ref}`).toBe(404)
        if (method === 'GET') expect(await codeOf(res)).toBe('MANIFEST_UNKNOWN')
      }
      const anonymous = await fetch(`${base}/v2/docker-local/hello/manifests/${ref}`)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get('www-authenticate')).toContain('scope="repository:docker-local/hello:pull"')
      expect((await http('DELETE', `/v2/docker-local/hello/manifests/${ref}`)).status).toBe(404)
    }
    // Pushing under such a name is a bad request, as before.
    const put = await http('PUT', '/v2/docker-local/hello/manifests/.INVALID', '{}', {
      'content-type': 'application/vnd.oci.image.manifest.v1+json',
    })
    expect(put.status).toBe(400)
  })

  it('keeps OCI 1.1 referrers: OCI-Subject on push, the referrers index filtered by artifactType, the fallback tag, through a virtual', async () => {
    const repoPath = '/v2/docker-local/signed'
    const pushBlob = async (data: Buffer | string) => {
      const body = Buffer.from(data)
      const res = await http('POST', `${repoPath}/blobs/uploads/?digest=sha256:${sha256(body)}`, body, {
        'content-type': 'application/octet-stream',
      })
      expect(res.status).toBe(201)
      return { digest: `sha256:${sha256(body)}`, size: body.length }
    }
    const pushManifest = async (ref: string, manifest: object) => {
      const body = JSON.stringify(manifest)
      const type = (manifest as { mediaType: string }).mediaType
      const res = await http('PUT', `${repoPath}/manifests/${ref}`, body, { 'content-type': type })
      expect(res.status, await res.clone().text()).toBe(201)
      return { res, digest: `sha256:${sha256(body)}`, size: Buffer.byteLength(body), mediaType: type }
    }
    const referrers = async (digest: string, query = '', via = repoPath) => {
      const res = await http('GET', `${via}/referrers/${digest}${query}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/vnd.oci.image.index.v1+json')
      const index = (await res.json()) as { schemaVersion: number; mediaType: string; manifests: Record<string, unknown>[] }
      expect(index).toMatchObject({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json' })
      return { index, filters: res.headers.get('oci-filters-applied') }
    }

    const config = await pushBlob('{"architecture":"amd64","os":"linux"}')
    const layer = await pushBlob(crypto.randomBytes(2048))
    const subject = await pushManifest('v1', {
      schemaVersion: 2,
      mediaType: MEDIA.ociManifest,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...layer }],
    })
    expect(subject.res.headers.get('oci-subject')).toBeNull()
    // Nothing refers to it yet: an empty index, not a 404.
    expect((await referrers(subject.digest)).index.manifests).toEqual([])

    const empty = await pushBlob('{}')
    const sbomBlob = await pushBlob('{"spdxVersion":"SPDX-2.3"}')
    const sbom = await pushManifest('sbom', {
      schemaVersion: 2,
      mediaType: MEDIA.ociManifest,
      artifactType: 'application/spdx+json',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', ...empty },
      layers: [{ mediaType: 'application/spdx+json', ...sbomBlob }],
      subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
      annotations: { 'org.opencontainers.image.created': '2026-12-02T00:00:00Z' },
    })
    expect(sbom.res.headers.get('oci-subject')).toBe(subject.digest)
    // A signature whose type is its config's media type (an image manifest without artifactType), pushed by digest.
    const sigConfig = await pushBlob('{"critical":{}}')
    const sigBody = {
      schemaVersion: 2,
      mediaType: MEDIA.ociManifest,
      config: { mediaType: 'application/vnd.dev.cosign.artifact.sig.v1+json', ...sigConfig },
      layers: [],
      subject: { mediaType: subject.mediaType, digest: subject.digest, size: subject.size },
    }
    const sig = await pushManifest(`sha256:${sha256(JSON.stringify(sigBody))}`, sigBody)
    expect(sig.res.headers.get('oci-subject')).toBe(subject.digest)

    const all = await referrers(subject.digest)
    expect(all.filters).toBeNull()
    expect(all.index.manifests).toHaveLength(2)
    expect(all.index.manifests).toEqual(
      expect.arrayContaining([
        {
          mediaType: MEDIA.ociManifest,
          digest: sbom.digest,
          size: sbom.size,
          artifactType: 'application/spdx+json',
          annotations: { 'org.opencontainers.image.created': '2026-12-02T00:00:00Z' },
        },
        {
          mediaType: MEDIA.ociManifest,
          digest: sig.digest,
          size: sig.size,
          artifactType: 'application/vnd.dev.cosign.artifact.sig.v1+json',
        },
      ]),
    )
    // The packages browser's layers view of the tag lists them too.
    const view = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/views/dockerv2',
      headers: sessionHeaders(admin),
      payload: { repoKey: 'docker-local', path: 'signed/v1/manifest.json' },
    })
    expect(view.statusCode, view.body).toBe(200)
    expect(view.json().referrers).toEqual(
      expect.arrayContaining([
        {
          digest: sbom.digest,
          artifactType: 'application/spdx+json',
          mediaType: MEDIA.ociManifest,
          size: sbom.size,
          created: '2026-12-02T00:00:00Z',
        },
        {
          digest: sig.digest,
          artifactType: 'application/vnd.dev.cosign.artifact.sig.v1+json',
          mediaType: MEDIA.ociManifest,
          size: sig.size,
          created: null,
        },
      ]),
    )
    const filtered = await referrers(subject.digest, `?artifactType=${encodeURIComponent('application/spdx+json')}`)
    expect(filtered.filters).toBe('artifactType')
    expect(filtered.index.manifests.map((d) => d.digest)).toEqual([sbom.digest])

    // A referrer pushed before its subject exists is kept (the spec allows it).
    const ghost = `sha256:${sha256('a manifest not pushed yet')}`
    const early = await pushManifest('early', { ...sigBody, subject: { mediaType: MEDIA.ociManifest, digest: ghost, size: 10 } })
    expect(early.res.headers.get('oci-subject')).toBe(ghost)
    expect((await referrers(ghost)).index.manifests.map((d) => d.digest)).toEqual([early.digest])

    // A client that used the fallback tag scheme: an index tagged sha256-<hex> lists the referrers.
    const other = `sha256:${sha256('an image pushed elsewhere')}`
    const viaTag = { mediaType: MEDIA.ociManifest, digest: sig.digest, size: sig.size, artifactType: 'application/example' }
    await pushManifest(`sha256-${other.slice(7)}`, { schemaVersion: 2, mediaType: MEDIA.ociIndex, manifests: [viaTag] })
    expect((await referrers(other)).index.manifests).toEqual([viaTag])

    // Through a virtual repository; anonymous callers are asked to sign in; a bad digest is a 400.
    await createRepo(t.fastify, admin, 'docker-signed-virtual', {
      rclass: 'virtual',
      packageType: 'docker',
      repositories: ['docker-local'],
      defaultDeploymentRepo: 'docker-local',
    })
    expect((await referrers(subject.digest, '', '/v2/docker-signed-virtual/signed')).index.manifests).toHaveLength(2)
    expect((await fetch(`${base}${repoPath}/referrers/${subject.digest}`)).status).toBe(401)
    const bad = await http('GET', `${repoPath}/referrers/sha256:nothex`)
    expect(bad.status).toBe(400)
    expect(await codeOf(bad)).toBe('DIGEST_INVALID')

    // Deleting a referrer takes it off the list.
    expect((await http('DELETE', `${repoPath}/manifests/${sig.digest}`)).status).toBe(202)
    expect((await referrers(subject.digest)).index.manifests.map((d) => d.digest)).toEqual([sbom.digest])
  })

  it('takes a chunked upload over raw HTTP, refuses chunks out of order (416) and a wrong digest', async () => {
    const data = crypto.randomBytes(300_000)
    const start = await http('POST', '/v2/docker-local/raw/blobs/uploads/')
    expect(start.status).toBe(202)
    const uuid = start.headers.get('docker-upload-uuid')
    let location = start.headers.get('location') as string
    expect(location).toBe(`/v2/docker-local/raw/blobs/uploads/${uuid}`)
    expect(start.headers.get('range')).toBe('0-0')

    const first = await http('PATCH', location, data.subarray(0, 100_000), {
      'content-type': 'application/octet-stream',
      'content-range': '0-99999',
    })
    expect(first.status).toBe(202)
    expect(first.headers.get('range')).toBe('0-99999')
    location = first.headers.get('location') as string

    const skipped = await http('PATCH', location, data.subarray(200_000), {
      'content-type': 'application/octet-stream',
      'content-range': '200000-299999',
    })
    expect(skipped.status).toBe(416)
    expect(skipped.headers.get('range')).toBe('0-99999')
    expect(await codeOf(skipped)).toBe('BLOB_UPLOAD_INVALID')

    const second = await http('PATCH', location, data.subarray(100_000, 200_000), {
      'content-type': 'application/octet-stream',
      'content-range': '100000-199999',
    })
    expect(second.status).toBe(202)
    const status = await http('GET', location)
    expect(status.status).toBe(204)
    expect(status.headers.get('range')).toBe('0-199999')

    const digest = `sha256:${sha256(data)}`
    const done = await http('PUT', `${location}?digest=${digest}`, data.subarray(200_000), {
      'content-type': 'application/octet-stream',
    })
    expect(done.status).toBe(201)
    expect(done.headers.get('docker-content-digest')).toBe(digest)
    expect(done.headers.get('location')).toBe(`/v2/docker-local/raw/blobs/${digest}`)

    const head = await http('HEAD', `/v2/docker-local/raw/blobs/${digest}`)
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(data.length))
    const got = await http('GET', `/v2/docker-local/raw/blobs/${digest}`)
    expect(Buffer.from(await got.arrayBuffer())).toEqual(data)
    const ranged = await http('GET', `/v2/docker-local/raw/blobs/${digest}`, undefined, { range: 'bytes=10-19' })
    expect(ranged.status).toBe(206)
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(data.subarray(10, 20))

    // A chunked upload whose content is not the digest claimed: 400, nothing kept.
    const bad = await http('POST', '/v2/docker-local/raw/blobs/uploads/')
    const badLoc = bad.headers.get('location') as string
    await http('PATCH', badLoc, Buffer.from('some bytes'), { 'content-type': 'application/octet-stream' })
    const wrong = await http('PUT', `${badLoc}?digest=sha256:${sha256('other bytes')}`)
    expect(wrong.status).toBe(400)
    expect(await codeOf(wrong)).toBe('DIGEST_INVALID')
    expect((await http('HEAD', `/v2/docker-local/raw/blobs/sha256:${sha256('some bytes')}`)).status).toBe(404)
    expect((await http('GET', badLoc)).status).toBe(404)

    // Monolithic: POST with the digest and the whole body.
    const mono = Buffer.from('a monolithic blob')
    const monoRes = await http('POST', `/v2/docker-local/raw/blobs/uploads/?digest=sha256:${sha256(mono)}`, mono, {
      'content-type': 'application/octet-stream',
    })
    expect(monoRes.status).toBe(201)
    const monoBad = await http('POST', `/v2/docker-local/raw/blobs/uploads/?digest=sha256:${sha256('x')}`, mono, {
      'content-type': 'application/octet-stream',
    })
    expect(monoBad.status).toBe(400)
    expect(await codeOf(monoBad)).toBe('DIGEST_INVALID')

    // Delete a blob.
    expect((await http('DELETE', `/v2/docker-local/raw/blobs/sha256:${sha256(mono)}`)).status).toBe(202)
    const unknown = await http('GET', `/v2/docker-local/raw/blobs/sha256:${sha256(mono)}`)
    expect(unknown.status).toBe(404)
    expect(await codeOf(unknown)).toBe('BLOB_UNKNOWN')
  })

  it('hashes a large chunked upload in the hashing threads, records its checksums, and drops an upload cut off midway', async () => {
    // 5 MB in three chunks: past the size hashed in the server's own thread, over more than one slot.
    const data = crypto.randomBytes(5 * 1024 * 1024 + 1234)
    const start = await http('POST', '/v2/docker-local/big/blobs/uploads/')
    let location = start.headers.get('location') as string
    for (const [from, to] of [
      [0, 700_000],
      [700_000, 3_000_000],
    ] as const) {
      const res = await http('PATCH', location, data.subarray(from, to), { 'content-type': 'application/octet-stream' })
      expect(res.status).toBe(202)
      expect(res.headers.get('range')).toBe(`0-${to - 1}`)
      location = res.headers.get('location') as string
    }
    const digest = `sha256:${sha256(data)}`
    const done = await http('PUT', `${location}?digest=${digest}`, data.subarray(3_000_000), {
      'content-type': 'application/octet-stream',
    })
    expect(done.status).toBe(201)
    const row = await t.app.db.kysely.selectFrom('blobs').selectAll().where('sha256', '=', sha256(data)).executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      size: data.length,
      sha1: crypto.createHash('sha1').update(data).digest('hex'),
      md5: crypto.createHash('md5').update(data).digest('hex'),
    })
    const got = await http('GET', `/v2/docker-local/big/blobs/${digest}`)
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true)

    // Past 64 MB a layer is hashed with sha256 only while it streams; its sha1 and md5 are
    // recorded by the checksum job soon after, on the blob and on the layer's file row.
    const large = crypto.randomBytes(65 * 1024 * 1024 + 17)
    const largeStart = await http('POST', '/v2/docker-local/big/blobs/uploads/')
    const largeDone = await http('PUT', `${largeStart.headers.get('location')}?digest=sha256:${sha256(large)}`, large, {
      'content-type': 'application/octet-stream',
    })
    expect(largeDone.status).toBe(201)
    const largeSums = {
      sha1: crypto.createHash('sha1').update(large).digest('hex'),
      md5: crypto.createHash('md5').update(large).digest('hex'),
    }
    await vi.waitFor(async () => {
      const blob = await t.app.db.kysely
        .selectFrom('blobs')
        .select(['sha1', 'md5'])
        .where('sha256', '=', sha256(large))
        .executeTakeFirst()
      const file = await t.app.db.kysely
        .selectFrom('files')
        .select(['sha1', 'md5'])
        .where('sha256', '=', sha256(large))
        .executeTakeFirst()
      expect({ blob, file }).toEqual({ blob: largeSums, file: largeSums })
    }, 20_000)
    const largeGot = await http('GET', `/v2/docker-local/big/blobs/sha256:${sha256(large)}`)
    expect(Buffer.from(await largeGot.arrayBuffer()).equals(large)).toBe(true)

    // A monolithic push of the same size with a wrong digest: 400, nothing kept.
    const other = crypto.randomBytes(3 * 1024 * 1024)
    const wrong = await http('POST', `/v2/docker-local/big/blobs/uploads/?digest=sha256:${sha256('x')}`, other, {
      'content-type': 'application/octet-stream',
    })
    expect(wrong.status).toBe(400)
    expect(await codeOf(wrong)).toBe('DIGEST_INVALID')
    expect((await http('HEAD', `/v2/docker-local/big/blobs/sha256:${sha256(other)}`)).status).toBe(404)

    // A chunk whose connection dies after 3 MB: the upload is unusable, and its temp files (the
    // bytes and the record that any worker process reads) go.
    const cut = await http('POST', '/v2/docker-local/big/blobs/uploads/')
    const cutLoc = cut.headers.get('location') as string
    const tmpDir = path.join(t.dataDir, 'blobs', 'tmp')
    const before = fs.readdirSync(tmpDir).length
    await new Promise<void>((resolve) => {
      const req = http_.request(`${base}${cutLoc}`, {
        method: 'PATCH',
        headers: { ...authHeader(), 'content-type': 'application/octet-stream', 'content-length': String(other.length) },
      })
      req.on('error', () => resolve())
      req.write(other.subarray(0, 3 * 1024 * 1024 - 10), () => setTimeout(() => req.destroy(), 200))
    })
    await new Promise((r) => setTimeout(r, 200))
    const after = await http('PATCH', cutLoc, Buffer.from('more'), { 'content-type': 'application/octet-stream' })
    expect(after.status).toBe(400)
    expect(await codeOf(after)).toBe('BLOB_UPLOAD_INVALID')
    expect((await http('GET', cutLoc)).status).toBe(404)
    expect(fs.readdirSync(tmpDir).length).toBe(before - 2)
    // About 75 MB through the server and its checksum job: 4–5 s on a quiet machine, past the
    // default 20 s when the machine runs five times the work of its cores (seen in a full run).
  }, 60_000)

  /** Pushes `data` as a blob of `image` in one request; answers its digest and a function that flips one bit of its file on disk. */
  const pushBlobOnDisk = async (image: string, data: Buffer) => {
    const hex = sha256(data)
    const pushed = await http('POST', `/v2/docker-local/${image}/blobs/uploads/?digest=sha256:${hex}`, data, {
      'content-type': 'application/octet-stream',
    })
    expect(pushed.status).toBe(201)
    const file = path.join(t.dataDir, 'blobs', hex.slice(0, 2), hex.slice(2, 4), hex)
    const flipBit = (at: number) => {
      const flipped = Buffer.from(data)
      flipped[at] = (flipped[at] ?? 0) ^ 1
      fs.writeFileSync(file, flipped)
    }
    return { hex, file, flipBit }
  }

  it('fails the download of a blob whose file changed on disk rather than send other bytes as the digest', async () => {
    const { hex, flipBit } = await pushBlobOnDisk('changed', crypto.randomBytes(3 * 1024 * 1024))
    const whole = await http('GET', `/v2/docker-local/changed/blobs/sha256:${hex}`)
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(hex)
    flipBit(1_000_000)
    const res = await http('GET', `/v2/docker-local/changed/blobs/sha256:${hex}`)
    expect(res.status).toBe(200)
    await expect(res.arrayBuffer()).rejects.toThrow()
  })

  it('serves a small blob from memory once read and checked, and refuses one whose file changed on disk before it was read', async () => {
    const data = crypto.randomBytes(100 * 1024)
    const { hex, file, flipBit } = await pushBlobOnDisk('small', data)
    flipBit(50_000)
    const refused = await http('GET', `/v2/docker-local/small/blobs/sha256:${hex}`)
    expect(refused.status).toBe(500)
    fs.writeFileSync(file, data)
    const served = await http('GET', `/v2/docker-local/small/blobs/sha256:${hex}`)
    expect(served.status).toBe(200)
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(hex)
    // Read and checked once, it is served from memory: the file is not read again.
    fs.rmSync(file)
    const again = await http('GET', `/v2/docker-local/small/blobs/sha256:${hex}`)
    expect(sha256(Buffer.from(await again.arrayBuffer()))).toBe(hex)
    fs.writeFileSync(file, data)
  })

  it('lets one request at a time write an upload, and tells where it stands meanwhile', async () => {
    const data = crypto.randomBytes(2 * 1024 * 1024)
    const started = await http('POST', '/v2/docker-local/one-at-a-time/blobs/uploads/')
    const loc = started.headers.get('location') as string
    // A chunk that is still streaming holds the upload.
    let finishFirst: () => void = () => {}
    const first = new Promise<number>((resolve, reject) => {
      const req = http_.request(
        `${base}${loc}`,
        {
          method: 'PATCH',
          headers: { ...authHeader(), 'content-type': 'application/octet-stream', 'content-length': String(data.length) },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.write(data.subarray(0, 1024 * 1024))
      finishFirst = () => req.end(data.subarray(1024 * 1024))
    })
    await new Promise((r) => setTimeout(r, 200))
    const second = await http('PATCH', loc, Buffer.from('other'), { 'content-type': 'application/octet-stream' })
    expect(second.status).toBe(416)
    expect(await codeOf(second)).toBe('BLOB_UPLOAD_INVALID')
    const status = await http('GET', loc)
    expect(status.status).toBe(204)
    finishFirst()
    expect(await first).toBe(202)
    const done = await http('PUT', `${loc}${loc.includes('?') ? '&' : '?'}digest=sha256:${sha256(data)}`)
    expect(done.status).toBe(201)
    const blob = await http('GET', `/v2/docker-local/one-at-a-time/blobs/sha256:${sha256(data)}`)
    expect(Buffer.from(await blob.arrayBuffer()).equals(data)).toBe(true)
  })

  it('refuses manifests naming missing blobs, mounts across repositories, and keeps indexes of both families', async () => {
    const layerDigest = `sha256:${sha256(image.layer)}`
    const configDigest = `sha256:${sha256(image.config)}`
    const missing = {
      schemaVersion: 2,
      mediaType: MEDIA.dockerManifest,
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', digest: configDigest, size: image.config.length },
      layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', digest: layerDigest, size: image.layer.length }],
    }
    const refused = await http('PUT', '/v2/docker-other/copy/manifests/1', JSON.stringify(missing), {
      'content-type': MEDIA.dockerManifest,
    })
    expect(refused.status).toBe(400)
    expect(await codeOf(refused)).toBe('MANIFEST_BLOB_UNKNOWN')

    for (const digest of [layerDigest, configDigest]) {
      const mounted = await http('POST', `/v2/docker-other/copy/blobs/uploads/?mount=${digest}&from=docker-local/hello`)
      expect(mounted.status).toBe(201)
      expect(mounted.headers.get('docker-content-digest')).toBe(digest)
    }
    // A blob the source does not hold: the mount falls back to an upload session.
    const notMounted = await http(
      'POST',
      `/v2/docker-other/copy/blobs/uploads/?mount=sha256:${sha256('nope')}&from=docker-local/hello`,
    )
    expect(notMounted.status).toBe(202)

    const body = JSON.stringify(missing)
    const put = await http('PUT', '/v2/docker-other/copy/manifests/1', body, { 'content-type': MEDIA.dockerManifest })
    expect(put.status).toBe(201)
    const manifestDigest = `sha256:${sha256(body)}`
    expect(put.headers.get('docker-content-digest')).toBe(manifestDigest)

    for (const [indexType, childType] of [
      [MEDIA.dockerList, MEDIA.dockerManifest],
      [MEDIA.ociIndex, MEDIA.dockerManifest],
    ] as const) {
      const index = JSON.stringify({
        schemaVersion: 2,
        mediaType: indexType,
        manifests: [
          { mediaType: childType, digest: manifestDigest, size: body.length, platform: { architecture: 'amd64', os: 'linux' } },
        ],
      })
      const tag = indexType === MEDIA.dockerList ? 'list' : 'index'
      const res = await http('PUT', `/v2/docker-other/copy/manifests/${tag}`, index, { 'content-type': indexType })
      expect(res.status).toBe(201)
      const got = await http('GET', `/v2/docker-other/copy/manifests/${tag}`)
      expect(got.headers.get('content-type')).toBe(indexType)
      expect(await got.text()).toBe(index)
    }
    const orphanIndex = JSON.stringify({
      schemaVersion: 2,
      mediaType: MEDIA.ociIndex,
      manifests: [{ mediaType: MEDIA.ociManifest, digest: `sha256:${sha256('x')}`, size: 1 }],
    })
    const orphan = await http('PUT', '/v2/docker-other/copy/manifests/orphan', orphanIndex, { 'content-type': MEDIA.ociIndex })
    expect(orphan.status).toBe(400)
    expect(await codeOf(orphan)).toBe('MANIFEST_BLOB_UNKNOWN')

    // By digest: GET and HEAD; a digest that does not match the body is refused.
    const byDigest = await http('HEAD', `/v2/docker-other/copy/manifests/${manifestDigest}`)
    expect(byDigest.status).toBe(200)
    expect(byDigest.headers.get('docker-content-digest')).toBe(manifestDigest)
    const mismatch = await http('PUT', `/v2/docker-other/copy/manifests/sha256:${sha256('y')}`, body, {
      'content-type': MEDIA.dockerManifest,
    })
    expect(mismatch.status).toBe(400)
    expect(await codeOf(mismatch)).toBe('DIGEST_INVALID')

    // Deleting by digest removes the tags that point at it.
    expect((await http('DELETE', `/v2/docker-other/copy/manifests/${manifestDigest}`)).status).toBe(202)
    expect((await http('GET', '/v2/docker-other/copy/manifests/1')).status).toBe(404)
    const unknownRepo = await http('GET', '/v2/nowhere/copy/manifests/1')
    expect(unknownRepo.status).toBe(404)
    expect(await codeOf(unknownRepo)).toBe('NAME_UNKNOWN')
  })

  it('pulls through a remote repository proxying a second Trove, and a virtual pushes to its default deployment repository', async () => {
    upstream = await createTestApp()
    const upBase = await listen(upstream.fastify)
    const upAdmin = await signIn(upstream.fastify)
    await createRepo(upstream.fastify, upAdmin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    const upHost = upBase.replace('http://', '')
    // Blobs of its own: none of them is in this Trove's blob store before the remote fetches it.
    const upImage = await buildImage(path.join(work, 'upstream'), `hello through a remote ${Date.now()}\n`)
    const seeded = await skopeo([
      'copy',
      '--dest-creds',
      `admin:${ADMIN_PASSWORD}`,
      '--dest-tls-verify=false',
      `oci:${upImage.layout}:1.0`,
      `docker://${upHost}/docker-local/up:1.0`,
    ])
    expect(seeded.code).toBe(0)

    await createRepo(t.fastify, admin, 'docker-remote', {
      rclass: 'remote',
      packageType: 'docker',
      url: `${upBase}/docker-local`,
      username: 'admin',
      password: ADMIN_PASSWORD,
    })
    await createRepo(t.fastify, admin, 'docker-virtual', {
      rclass: 'virtual',
      packageType: 'docker',
      repositories: ['docker-other', 'docker-remote'],
      defaultDeploymentRepo: 'docker-other',
    })
    // The tag's manifest alone, as a client checking the tag asks: the remote records the tag as
    // the upstream recorded the push, its whole size (the manifest declares its config's and
    // layers') and the config's platform and build steps, before any layer is fetched.
    const manifestOnly = await http('GET', '/v2/docker-remote/up/manifests/1.0', undefined, { accept: MEDIA.ociManifest })
    expect(manifestOnly.status).toBe(200)
    const tagMetadata = async (app: TestApp, repoKey: string) =>
      JSON.parse(
        (
          await app.app.db.kysely
            .selectFrom('package_versions as v')
            .innerJoin('packages as p', 'p.id', 'v.package_id')
            .select('v.metadata')
            .where('p.name', '=', 'up')
            .where('v.repo_key', '=', repoKey)
            .executeTakeFirstOrThrow()
        ).metadata,
      ) as TagMetadata
    const pushedMeta = await tagMetadata(upstream, 'docker-local')
    expect(pushedMeta.config).toMatchObject({ os: 'linux', architecture: 'amd64' })
    expect(await tagMetadata(t, 'docker-remote')).toEqual(pushedMeta)
    const pushedTag = await packagesBrowser(upstream.fastify, upAdmin).version('docker://up', '1.0')
    expect(pushedTag.size).toBe(upImage.manifest.length + upImage.config.length + upImage.layer.length)
    const browser = packagesBrowser(t.fastify, admin)
    const cachedTag = await browser.version('docker://up', '1.0')
    expect(cachedTag.size).toBe(pushedTag.size)
    expect(cachedTag.files.map((f) => f.path).sort()).toEqual(
      ['up/1.0/manifest.json', `up/1.0/sha256__${sha256(upImage.config)}`].sort(),
    )

    const viaRemote = path.join(work, 'via-remote')
    const pulled = await skopeo([
      'copy',
      '--src-creds',
      `admin:${token}`,
      '--src-tls-verify=false',
      `docker://${host}/docker-remote/up:1.0`,
      `oci:${viaRemote}:1.0`,
    ])
    expect(pulled.stderr).toBe('')
    expect(pulled.code).toBe(0)
    expect(fs.readFileSync(path.join(viaRemote, 'blobs', 'sha256', sha256(upImage.layer)))).toEqual(upImage.layer)
    const cached = await t.app.db.kysely.selectFrom('files').select('path').where('repo_key', '=', 'docker-remote').execute()
    const paths = cached.map((f) => f.path)
    expect(paths).toContain('up/1.0/manifest.json')
    expect(paths.some((p) => p.endsWith(`/sha256__${sha256(upImage.layer)}`))).toBe(true)
    // The layer fetched joins the tag, as a pushed tag holds its layers.
    const fileList = (files: { path: string; lead: boolean; size: number; sha256: string; mimeType: string }[]) =>
      files.map((f) => [f.path, f.lead, f.size, f.sha256, f.mimeType]).sort()
    const pulledTag = await browser.version('docker://up', '1.0')
    expect(pulledTag.size).toBe(pushedTag.size)
    expect(fileList(pulledTag.files)).toEqual(fileList(pushedTag.files))

    const viaVirtual = await skopeo(['inspect', '@creds', '--tls-verify=false', `docker://${host}/docker-virtual/up:1.0`])
    expect(viaVirtual.code).toBe(0)
    expect(JSON.parse(viaVirtual.stdout).Digest).toBe(`sha256:${sha256(upImage.manifest)}`)

    const pushed = await skopeo([
      'copy',
      '--dest-creds',
      `admin:${token}`,
      '--dest-tls-verify=false',
      `oci:${image.layout}:1.0`,
      `docker://${host}/docker-virtual/pushed:3.0`,
    ])
    expect(pushed.code).toBe(0)
    expect((await http('HEAD', '/v2/docker-other/pushed/manifests/3.0')).status).toBe(200)
    expect((await http('HEAD', '/v2/docker-virtual/pushed/manifests/3.0')).status).toBe(200)
  }, 120_000)
})
