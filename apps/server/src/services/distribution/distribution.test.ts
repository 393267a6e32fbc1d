import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BundleDetails } from '@trove/contracts/distribution'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run, skopeo as skopeoIn, writeFiles } from '../../../test/clients.js'
import { Front } from '../../../test/front.js'
import { NodeProcess as Node, type Session, sessionHeaders } from '../../../test/nodeProcess.js'
import { writeOciImage } from '../../../test/ociImage.js'
import { tempDir } from '../../../test/testApp.js'

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')
const UI = '/distribution/api/ui'
const MODULES = { TROVE_MODULES: 'repository,distribution', TROVE_DISTRIBUTION_POLL_MS: '200' }

/** Two built nodes, each a process of its own: a source where npm and skopeo publish, and a target they install from. */
describe('release bundles and distribution', () => {
  let source: Node
  let target: Node
  let sourceBase: string
  let targetBase: string
  let srcAdmin: Session
  let tgtAdmin: Session
  let srcToken: string
  let tgtToken: string
  let work: string
  let front: Front
  let image: ReturnType<typeof writeOciImage>
  const npmEnv = (dir: string) => ({
    npm_config_userconfig: path.join(dir, '.npmrc'),
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'warn',
  })
  const npmrc = (dir: string, base: string, token: string) => {
    const registry = `${base}/api/npm/npm-local/`
    fs.writeFileSync(path.join(dir, '.npmrc'), `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${token}\n`)
  }
  const skopeo = (args: string[]) => skopeoIn(work, args)
  const api = (t: Node, s: Session) => ({
    get: (url: string) => t.inject({ method: 'GET', url, headers: sessionHeaders(s) }),
    post: (url: string, payload?: object) =>
      t.inject({ method: 'POST', url, headers: sessionHeaders(s), payload: payload ?? {} }),
    put: (url: string, payload: object) => t.inject({ method: 'PUT', url, headers: sessionHeaders(s), payload }),
    patch: (url: string, payload: object) => t.inject({ method: 'PATCH', url, headers: sessionHeaders(s), payload }),
    delete: (url: string) => t.inject({ method: 'DELETE', url, headers: sessionHeaders(s) }),
  })
  const src = () => api(source, srcAdmin)
  const tgt = () => api(target, tgtAdmin)
  const publish = async (dir: string, version: string) => {
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'hello-bundle', version, description: 'Shipped in a bundle', main: 'index.js' }),
      'index.js': `module.exports = '${version}'\n`,
    })
    npmrc(dir, sourceBase, srcToken)
    const res = await run('npm', ['publish'], { cwd: dir, env: npmEnv(dir) })
    expect(res.stderr).not.toMatch(/ERR!/)
    expect(res.code).toBe(0)
  }
  const waitFor = async (what: () => Promise<boolean>, ms = 30_000) => {
    const until = Date.now() + ms
    while (!(await what())) {
      if (Date.now() > until) throw new Error('timed out')
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const details = async (name: string, version: string, origin = 'source') =>
    (
      await (origin === 'source' ? src() : tgt()).get(`${UI}/release_bundles/${name}/${version}?origin=${origin}`)
    ).json() as BundleDetails
  const distributed = (name: string, version: string, to: string) =>
    waitFor(async () => (await details(name, version)).distributions.find((d) => d.target === to)?.state === 'completed')

  beforeAll(async () => {
    source = await Node.start(MODULES)
    target = await Node.start(MODULES)
    sourceBase = source.url
    targetBase = target.url
    srcAdmin = await source.signIn()
    tgtAdmin = await target.signIn()
    srcToken = await source.token(srcAdmin)
    tgtToken = await target.token(tgtAdmin)
    work = tempDir('trove-dist-')
    front = new Front(new URL(targetBase).port)
    await front.up()
    await source.createRepo(srcAdmin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await source.createRepo(srcAdmin, 'docker-local', { rclass: 'local', packageType: 'docker' })
    await source.createRepo(srcAdmin, 'files', { rclass: 'local', packageType: 'generic' })
    await publish(path.join(work, 'v1'), '1.0.0')
    await publish(path.join(work, 'v2'), '1.1.0')
    image = writeOciImage(path.join(work, 'image'), { content: `shipped ${Date.now()}\n`, tag: '1.0' })
    const pushed = await skopeo([
      'copy',
      '--dest-creds',
      `admin:${srcToken}`,
      '--dest-tls-verify=false',
      `oci:${image.layout}:1.0`,
      `docker://${sourceBase.replace('http://', '')}/docker-local/app:1.0`,
    ])
    expect(pushed.code, pushed.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await front.down()
    await source.close()
    await target.close()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('creates an open bundle from package versions, signs it, and publishes the key that verifies it', async () => {
    const created = await src().post(`${UI}/release_bundles`, {
      name: 'shop',
      version: '1.0',
      description: 'The shop, first release',
      releaseNotes: '# Shop 1.0\n\nFirst release.',
      sources: [
        { type: 'version', repoKey: 'npm-local', packageType: 'npm', name: 'hello-bundle', version: '1.0.0' },
        { type: 'version', repoKey: 'docker-local', packageType: 'docker', name: 'app', version: '1.0' },
      ],
    })
    expect(created.statusCode, created.body).toBe(201)
    const open = created.json() as BundleDetails
    expect(open.state).toBe('open')
    // The tarball; the tag's manifest, config and layer; the manifest by digest.
    expect(open.contents.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'hello-bundle/-/hello-bundle-1.0.0.tgz',
        'app/1.0/manifest.json',
        `app/@manifests/sha256__${sha256(image.manifest)}`,
        `app/1.0/sha256__${sha256(image.layer)}`,
      ]),
    )
    expect((await src().post(`${UI}/release_bundles`, { name: 'shop', version: '1.0' })).statusCode).toBe(409)
    // While open it changes; signed, it does not.
    const notes = await src().patch(`${UI}/release_bundles/shop/1.0`, { description: 'The shop' })
    expect(notes.json().description).toBe('The shop')
    const signed = await src().post(`${UI}/release_bundles/shop/1.0/sign`)
    expect(signed.statusCode, signed.body).toBe(200)
    const b = signed.json() as BundleDetails
    expect(b.state).toBe('signed')
    expect((await src().patch(`${UI}/release_bundles/shop/1.0`, { description: 'x' })).statusCode).toBe(409)
    expect((await src().post(`${UI}/release_bundles/shop/1.0/sign`)).statusCode).toBe(409)

    const keys = (await (await fetch(`${sourceBase}/.well-known/trove/release-bundle-keys`)).json()) as {
      keys: { id: string; publicKey: string; active: boolean }[]
    }
    const key = keys.keys.find((k) => k.id === b.keyId)
    expect(key?.active).toBe(true)
    const row = (await src().get(`${UI}/release_bundles/shop/1.0/manifest`)).json()
    expect(
      crypto.verify(
        null,
        Buffer.from(row.manifest as string),
        key?.publicKey as string,
        Buffer.from(b.signature as string, 'base64'),
      ),
    ).toBe(true)
    expect(JSON.parse(row.manifest as string).files.length).toBe(b.contents.length)
  })

  it('keeps the files of a signed bundle from being deleted or overwritten, naming the bundle', async () => {
    const tree = await source.inject({
      method: 'DELETE',
      url: '/ui/api/v1/ui/artifacts/node?repoKey=npm-local&path=hello-bundle/-/hello-bundle-1.0.0.tgz',
      headers: sessionHeaders(srcAdmin),
    })
    expect(tree.statusCode).toBe(409)
    expect(tree.json().errors[0].message).toBe(
      'npm-local/hello-bundle/-/hello-bundle-1.0.0.tgz belongs to release bundle shop 1.0: it cannot be deleted or overwritten while the bundle exists',
    )
    const unpublish = await fetch(`${sourceBase}/api/npm/npm-local/hello-bundle/-/hello-bundle-1.0.0.tgz/-rev/1`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${srcToken}` },
    })
    expect(unpublish.status).toBe(409)
    const untag = await fetch(`${sourceBase}/v2/docker-local/app/manifests/1.0`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${srcToken}` },
    })
    expect(untag.status).toBe(409)
    expect((await src().delete('/api/repositories/npm-local')).statusCode).toBe(409)
    // A generic file: the same content again is fine, other content is refused.
    const put = (body: string) =>
      fetch(`${sourceBase}/artifactory/files/docs/readme.txt`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${srcToken}` },
        body,
      })
    expect((await put('v1')).status).toBe(201)
    expect(
      (
        await src().post(`${UI}/release_bundles`, {
          name: 'docs',
          version: '1',
          sources: [{ type: 'path', repoKey: 'files', path: 'docs' }],
        })
      ).statusCode,
    ).toBe(201)
    expect((await src().post(`${UI}/release_bundles/docs/1/sign`)).statusCode).toBe(200)
    expect((await put('v1')).status).toBe(201)
    const other = await put('v2')
    expect(other.status).toBe(409)
    expect(
      (
        await fetch(`${sourceBase}/artifactory/files/docs`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${srcToken}` },
        })
      ).status,
    ).toBe(409)
    expect(
      await (
        await fetch(`${sourceBase}/artifactory/files/docs/readme.txt`, { headers: { authorization: `Bearer ${srcToken}` } })
      ).text(),
    ).toBe('v1')
    // Deleting the bundle frees them.
    expect((await src().delete(`${UI}/release_bundles/docs/1`)).statusCode).toBe(204)
    expect((await put('v2')).status).toBe(201)
  })

  it('refuses a bundle naming a file the creator cannot read, and makes nothing', async () => {
    const made = await source.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/users',
      headers: sessionHeaders(srcAdmin),
      payload: { name: 'dev', email: 'dev@example.com', password: 'dev-password-123' },
    })
    expect(made.statusCode, made.body).toBeLessThan(300)
    const grant = await source.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/permissions',
      headers: sessionHeaders(srcAdmin),
      payload: {
        name: 'dev-bundles',
        repositories: {
          resources: { names: ['files'], include: [], exclude: [] },
          grants: [{ kind: 'user', name: 'dev', actions: ['read'] }],
        },
        releaseBundles: {
          resources: { names: [], include: ['**'], exclude: [] },
          grants: [{ kind: 'user', name: 'dev', actions: ['read', 'deploy'] }],
        },
      },
    })
    expect(grant.statusCode, grant.body).toBe(201)
    const dev = await source.signIn('dev', 'dev-password-123')
    const res = await api(source, dev).post(`${UI}/release_bundles`, {
      name: 'sneaky',
      version: '1',
      sources: [
        { type: 'path', repoKey: 'files', path: 'docs' },
        { type: 'version', repoKey: 'npm-local', packageType: 'npm', name: 'hello-bundle', version: '1.0.0' },
      ],
    })
    expect(res.statusCode, res.body).toBe(403)
    expect(res.json().errors[0].message).toBe('You may not read npm-local, so its files cannot go into a release bundle')
    const names = async (t: () => ReturnType<typeof src>, origin: string) =>
      (await t().get(`${UI}/release_bundles?origin=${origin}`)).json().bundles.map((b: { name: string }) => b.name)
    expect(await names(src, 'source')).not.toContain('sneaky')
    // What they may read goes in.
    const ok = await api(source, dev).post(`${UI}/release_bundles`, {
      name: 'mine',
      version: '1',
      sources: [{ type: 'path', repoKey: 'files', path: 'docs' }],
    })
    expect(ok.statusCode, ok.body).toBe(201)
  })

  it('shows the target’s own answer when its token is wrong', async () => {
    const res = await src().put(`${UI}/targets/edge`, { url: front.url, token: 'trove_at_wrong' })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/^The target answered 401: /)
    const ok = await src().put(`${UI}/targets/edge`, { url: front.url, token: tgtToken })
    expect(ok.statusCode, ok.body).toBe(200)
    expect((await src().get(`${UI}/targets`)).json().targets.map((t: { name: string }) => t.name)).toEqual(['edge'])
  })

  it('distributes: npm install and skopeo copy from the target get the same content', async () => {
    const res = await src().post(`${UI}/release_bundles/shop/1.0/distribute`, { targets: ['edge'] })
    expect(res.statusCode, res.body).toBe(202)
    await distributed('shop', '1.0', 'edge')
    expect((await details('shop', '1.0')).state).toBe('distributed')
    const listed = (await src().get(`${UI}/release_bundles`)).json().bundles.find((b: { name: string }) => b.name === 'shop')
    expect(listed).toMatchObject({ state: 'distributed', distributedTo: [{ target: 'edge', state: 'completed' }] })
    const d = (await details('shop', '1.0')).distributions[0]
    expect(d).toMatchObject({ filesDone: d?.filesTotal, bytesDone: d?.bytesTotal, lastError: null })

    const received = await details('shop', '1.0', 'target')
    expect(received).toMatchObject({ origin: 'target', state: 'signed', verified: true })
    // npm installs from the target's repository of the same name.
    const app = path.join(work, 'consumer')
    writeFiles(app, { 'package.json': JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }) })
    npmrc(app, targetBase, tgtToken)
    const install = await run('npm', ['install', 'hello-bundle@1.0.0'], { cwd: app, env: npmEnv(app) })
    expect(install.code, install.stderr).toBe(0)
    expect(fs.readFileSync(path.join(app, 'node_modules/hello-bundle/index.js'), 'utf8')).toBe("module.exports = '1.0.0'\n")
    const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8'))
    const srcTarball = await (
      await fetch(`${sourceBase}/api/npm/npm-local/hello-bundle/-/hello-bundle-1.0.0.tgz`, {
        headers: { authorization: `Bearer ${srcToken}` },
      })
    ).arrayBuffer()
    expect(lock.packages['node_modules/hello-bundle'].integrity).toBe(
      `sha512-${crypto.createHash('sha512').update(Buffer.from(srcTarball)).digest('base64')}`,
    )
    // skopeo copies the image out of the target with the same digests.
    const out = path.join(work, 'pulled')
    const pulled = await skopeo([
      'copy',
      '--src-creds',
      `admin:${tgtToken}`,
      '--src-tls-verify=false',
      `docker://${targetBase.replace('http://', '')}/docker-local/app:1.0`,
      `oci:${out}:1.0`,
    ])
    expect(pulled.code, pulled.stderr).toBe(0)
    expect(fs.readFileSync(path.join(out, 'blobs', 'sha256', sha256(image.manifest)))).toEqual(image.manifest)
    expect(fs.readFileSync(path.join(out, 'blobs', 'sha256', sha256(image.layer)))).toEqual(image.layer)

    // The history on both sides.
    const srcHistory = (await src().get(`${UI}/history`)).json().entries
    expect(srcHistory[0]).toMatchObject({
      bundle: 'shop',
      version: '1.0',
      action: 'distribute',
      peer: 'edge',
      actor: 'admin',
      result: 'success',
    })
    const tgtHistory = (await tgt().get(`${UI}/history`)).json().entries
    expect(tgtHistory[0]).toMatchObject({ bundle: 'shop', version: '1.0', action: 'receive', result: 'success' })
    // The received files are held on the target too.
    const del = await target.inject({
      method: 'DELETE',
      url: '/ui/api/v1/ui/artifacts/node?repoKey=npm-local&path=hello-bundle/-/hello-bundle-1.0.0.tgz',
      headers: sessionHeaders(tgtAdmin),
    })
    expect(del.statusCode).toBe(409)
  })

  it('refuses a bundle whose repository is of another kind on the target, and says why on the source', async () => {
    await target.createRepo(tgtAdmin, 'files', { rclass: 'local', packageType: 'npm' })
    expect((await src().post(`${UI}/release_bundles/mine/1/sign`)).statusCode).toBe(200)
    await src().post(`${UI}/release_bundles/mine/1/distribute`, { targets: ['edge'] })
    await waitFor(async () => ((await details('mine', '1')).distributions[0]?.attempts ?? 0) >= 1)
    const failed = (await details('mine', '1')).distributions[0]
    expect(failed).toMatchObject({
      state: 'failed',
      lastError: 'The target answered 409: Repository files here is a local npm repository: the bundle needs a local generic one',
    })
    const names = (await tgt().get(`${UI}/release_bundles?origin=target`)).json().bundles.map((b: { name: string }) => b.name)
    expect(names).not.toContain('mine')
    expect((await tgt().get(`${UI}/history`)).json().entries[0]).toMatchObject({
      bundle: 'mine',
      action: 'receive',
      result: 'failure',
    })
    // Stop trying: the bundle goes from the source.
    expect((await src().delete(`${UI}/release_bundles/mine/1`)).statusCode).toBe(204)
  })

  it('derives what a format derives on the target: Maven metadata for a version that arrived', async () => {
    await source.createRepo(srcAdmin, 'maven-local', { rclass: 'local', packageType: 'maven' })
    const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>com.example</groupId><artifactId>demo</artifactId><version>1.0.0</version></project>`
    for (const [file, body] of [
      ['demo-1.0.0.pom', pom],
      ['demo-1.0.0.jar', 'not really a jar'],
    ] as const) {
      const res = await fetch(`${sourceBase}/artifactory/maven-local/com/example/demo/1.0.0/${file}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${srcToken}` },
        body,
      })
      expect(res.status).toBe(201)
    }
    const made = await src().post(`${UI}/release_bundles`, {
      name: 'lib',
      version: '1',
      sources: [{ type: 'path', repoKey: 'maven-local', path: 'com/example/demo/1.0.0' }],
    })
    expect(made.statusCode, made.body).toBe(201)
    expect((await src().post(`${UI}/release_bundles/lib/1/sign`)).statusCode).toBe(200)
    await src().post(`${UI}/release_bundles/lib/1/distribute`, { targets: ['edge'] })
    await distributed('lib', '1', 'edge')
    const metadata = await fetch(`${targetBase}/artifactory/maven-local/com/example/demo/maven-metadata.xml`, {
      headers: { authorization: `Bearer ${tgtToken}` },
    })
    expect(metadata.status).toBe(200)
    expect(await metadata.text()).toContain('<version>1.0.0</version>')
  })

  it('finds bundles by a contained file’s checksum, num_of_rows at most', async () => {
    const tarball = (await details('shop', '1.0')).contents.find((f) => f.path.endsWith('.tgz'))
    for (const sum of [tarball?.sha256, tarball?.sha1, tarball?.md5]) {
      const res = await src().get(`${UI}/release_bundle/checksum/${sum}?num_of_rows=5`)
      expect(res.statusCode).toBe(200)
      expect(res.json().data).toEqual([
        expect.objectContaining({ name: 'shop', version: '1.0', repoKey: 'npm-local', path: tarball?.path }),
      ])
    }
    expect((await tgt().get(`${UI}/release_bundle/checksum/${tarball?.sha256}`)).json().data[0]).toMatchObject({
      name: 'shop',
      origin: 'target',
    })
    expect((await src().get(`${UI}/release_bundle/checksum/${'0'.repeat(64)}`)).json().data).toEqual([])
    expect((await src().get(`${UI}/release_bundle/checksum/nothex`)).statusCode).toBe(400)
    // Searching the list by name or checksum.
    expect(
      (await src().get(`${UI}/release_bundles?q=${tarball?.sha256}`)).json().bundles.map((b: { name: string }) => b.name),
    ).toEqual(['shop'])
  })

  it('refuses a tampered manifest or an unknown key on the target, and nothing becomes visible', async () => {
    const row = (await src().get(`${UI}/release_bundles/shop/1.0/manifest`)).json()
    const tampered = (row.manifest as string).replace('"name":"shop"', '"name":"shoq"')
    const send = (body: object) =>
      fetch(`${targetBase}/distribution/api/v1/incoming/bundles`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tgtToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const bad = await send({ manifest: tampered, signature: row.signature, keyId: row.keyId })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(
      `Refused bundle shoq 1.0: its signature does not verify with ${row.keyId}`,
    )
    const unknown = await send({ manifest: row.manifest, signature: row.signature, keyId: 'ed25519:0000' })
    expect(unknown.status).toBe(400)
    expect(
      (await tgt().get(`${UI}/release_bundles?origin=target`)).json().bundles.map((b: { name: string }) => b.name),
    ).not.toContain('shoq')
    const history = (await tgt().get(`${UI}/history`)).json().entries
    expect(history[0]).toMatchObject({ action: 'receive', result: 'failure' })
    // A file whose content does not match its sha256 is not kept.
    const blob = await fetch(`${targetBase}/distribution/api/v1/incoming/blobs/${sha256('right')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tgtToken}`, 'content-type': 'application/octet-stream' },
      body: 'wrong',
    })
    expect(blob.status).toBe(400)
  })

  it('ends two concurrent receptions of one bundle in one copy', async () => {
    const row = (await src().get(`${UI}/release_bundles/shop/1.0/manifest`)).json()
    await tgt().delete(`${UI}/release_bundles/shop/1.0?origin=target`)
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${targetBase}/distribution/api/v1/incoming/bundles`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tgtToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ manifest: row.manifest, signature: row.signature, keyId: row.keyId }),
        }).then((r) => r.status),
      ),
    )
    expect(answers.sort()).toEqual([200, 200, 201])
    const received = (await tgt().get(`${UI}/release_bundles?origin=target`)).json().bundles
    expect(received.filter((b: { name: string }) => b.name === 'shop')).toHaveLength(1)
  })

  it('resends nothing the target holds, and a target that was down gets the bundle when it is back', async () => {
    expect(
      (
        await src().post(`${UI}/release_bundles`, {
          name: 'shop',
          version: '1.1',
          sources: [
            { type: 'version', repoKey: 'npm-local', packageType: 'npm', name: 'hello-bundle', version: '1.1.0' },
            { type: 'version', repoKey: 'docker-local', packageType: 'docker', name: 'app', version: '1.0' },
          ],
        })
      ).statusCode,
    ).toBe(201)
    expect((await src().post(`${UI}/release_bundles/shop/1.1/sign`)).statusCode).toBe(200)
    await front.down()
    front.seen.length = 0
    await src().post(`${UI}/release_bundles/shop/1.1/distribute`, { targets: ['edge'] })
    await waitFor(async () => ((await details('shop', '1.1')).distributions[0]?.attempts ?? 0) >= 1)
    const failed = (await details('shop', '1.1')).distributions[0]
    expect(failed?.state).toBe('failed')
    expect(failed?.lastError).toBeTruthy()
    await front.up()
    await distributed('shop', '1.1', 'edge')
    // Only the new tarball travelled: the image's files were on the target already.
    const puts = front.seen.filter((s) => s.startsWith('PUT /distribution/api/v1/incoming/blobs/'))
    expect(puts).toHaveLength(1)
    const tarball = (await details('shop', '1.1')).contents.find((f) => f.path.endsWith('1.1.0.tgz'))
    expect(puts[0]).toBe(`PUT /distribution/api/v1/incoming/blobs/${tarball?.sha256}`)
  })

  it('does not count as held a file whose row the target kept without its content (killed between the two)', async () => {
    const body = crypto.randomBytes(4096)
    const hex = sha256(body)
    const auth = { authorization: `Bearer ${tgtToken}` }
    const send = () =>
      fetch(`${targetBase}/distribution/api/v1/incoming/blobs/${hex}`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body,
      })
    const present = async () => {
      const res = await fetch(`${targetBase}/distribution/api/v1/incoming/blobs/query`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ sha256: [hex] }),
      })
      return ((await res.json()) as { present: string[] }).present
    }
    expect((await send()).status).toBe(201)
    expect(await present()).toEqual([hex])
    // What a kill between recording the file and putting it in place leaves: the row, no content.
    fs.rmSync(path.join(target.process.dataDir, 'blobs', hex.slice(0, 2), hex.slice(2, 4), hex))
    expect(await present()).toEqual([])
    expect((await send()).status).toBe(201)
    expect(await present()).toEqual([hex])
  })

  it('keeps the newest bundle versions on the target by its retention policy, and records what it removed', async () => {
    const policy = await tgt().put(`${UI}/retention`, { enable: true, keepLast: 1, maxAgeDays: 0 })
    expect(policy.statusCode, policy.body).toBe(200)
    expect((await tgt().get('/ui/api/v1/ui/bundle/retention/config/enable')).json()).toEqual({ enable: true })
    expect((await tgt().post(`${UI}/retention/run`)).json().removed).toEqual(['shop 1.0'])
    const left = (await tgt().get(`${UI}/release_bundles?origin=target`))
      .json()
      .bundles.map((b: { name: string; version: string }) => `${b.name} ${b.version}`)
    expect(left).toEqual(['lib 1', 'shop 1.1'])
    const history = (await tgt().get(`${UI}/history`)).json().entries
    expect(history[0]).toMatchObject({ bundle: 'shop', version: '1.0', action: 'retention', result: 'success' })
    // Its npm version is gone from the target (once the 2 s packument cache has turned over); 1.1.0
    // and the image (also in 1.1) stay.
    const versions = async () =>
      Object.keys(
        (
          (await (
            await fetch(`${targetBase}/api/npm/npm-local/hello-bundle`, { headers: { authorization: `Bearer ${tgtToken}` } })
          ).json()) as { versions: Record<string, unknown> }
        ).versions,
      )
    await waitFor(async () => (await versions()).join() === '1.1.0', 5000)
    expect(
      (
        await fetch(`${targetBase}/v2/docker-local/app/manifests/1.0`, {
          method: 'HEAD',
          headers: { authorization: `Bearer ${tgtToken}` },
        })
      ).status,
    ).toBe(200)
  })

  it('removes a bundle from its target, and recalls it everywhere', async () => {
    expect((await src().delete(`${UI}/release_bundles/shop/1.1/targets/edge`)).statusCode).toBe(202)
    await waitFor(async () => (await details('shop', '1.1')).distributions[0]?.state === 'deleted')
    expect((await tgt().get(`${UI}/release_bundles?origin=target`)).json().bundles.map((b: { name: string }) => b.name)).toEqual([
      'lib',
    ])
    expect((await src().post(`${UI}/release_bundles/shop/1.1/recall`)).statusCode).toBe(202)
    const history = (await src().get(`${UI}/history`)).json().entries.map((e: { action: string }) => e.action)
    expect(history).toEqual(expect.arrayContaining(['recall', 'delete']))
  })

  it('looks up at most num_of_rows matches, of the bundles the caller may read', async () => {
    // The image's layer is in shop 1.0 and shop 1.1.
    const layer = sha256(image.layer)
    const all = (await src().get(`${UI}/release_bundle/checksum/${layer}`)).json().data
    expect(all.map((m: { name: string; version: string }) => `${m.name} ${m.version}`).sort()).toEqual(['shop 1.0', 'shop 1.1'])
    expect((await src().get(`${UI}/release_bundle/checksum/${layer}?num_of_rows=1`)).json().data).toHaveLength(1)
    const made = await source.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/users',
      headers: sessionHeaders(srcAdmin),
      payload: { name: 'ops', email: 'ops@example.com', password: 'ops-password-123' },
    })
    expect(made.statusCode, made.body).toBe(201)
    const ops = await source.signIn('ops', 'ops-password-123')
    expect((await api(source, ops).get(`${UI}/release_bundle/checksum/${layer}`)).json().data).toEqual([])
    expect((await api(source, ops).get(`${UI}/release_bundles`)).json().bundles).toEqual([])
  })

  it('answers 404 on a node without the module, which the console reads as off', async () => {
    const plain = await Node.start({})
    try {
      const admin = await plain.signIn()
      expect((await api(plain, admin).get('/ui/api/v1/ui/bundle/retention/config/enable')).statusCode).toBe(404)
      expect((await api(plain, admin).get(`${UI}/release_bundles`)).statusCode).toBe(404)
    } finally {
      await plain.close()
    }
  })
})
