// What the cluster bench stores before it loads the nodes (npm packages, PyPI projects, a small OCI
// image, through the same calls the clients make), and the mix of requests autocannon then sends.
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import zlib from 'node:zlib'

const require = createRequire(import.meta.url)
const tar = require('tar-stream')

export const NPM_PACKAGES = 20
export const NPM_VERSIONS = 3
export const PYPI_PROJECTS = 20
export const OCI_IMAGES = 4
/** An OCI layer of the load: a small image's, read whole on every GET. */
const OCI_LAYER_BYTES = 96 * 1024
/** A generic file the load deploys. */
const PUT_BYTES = 2048

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex')

async function gzipTar(entries) {
  const pack = tar.pack()
  for (const [name, content] of entries) pack.entry({ name }, content)
  pack.finalize()
  const chunks = []
  for await (const c of pack) chunks.push(c)
  return zlib.gzipSync(Buffer.concat(chunks))
}

async function expect(res, status, what) {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`)
  return res
}

/** An access token of the admin, made with a session as the console makes one. */
export async function accessToken(base, session) {
  const res = await fetch(`${base}/ui/api/v1/ui/userIdentifyToken/admin`, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({ expiresIn: 86400 }),
  })
  await expect(res, 200, 'access token')
  const { access_token, token_id } = await res.json()
  return { token: access_token, id: token_id }
}

export async function createRepos(base, token) {
  for (const [key, packageType] of [
    ['npm-local', 'npm'],
    ['pypi-local', 'pypi'],
    ['docker-local', 'docker'],
    ['files', 'generic'],
  ]) {
    const res = await fetch(`${base}/api/repositories/${key}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType }),
    })
    await expect(res, 201, `repository ${key}`)
  }
}

/** Publishes one version with the body `npm publish` sends (as apps/server/test/clients.ts npmPublishBody). */
export async function npmPublish(base, token, name, version) {
  const manifest = { name, version, description: `bench package ${name}`, license: 'MIT', main: 'index.js' }
  const tgz = await gzipTar([
    ['package/package.json', JSON.stringify(manifest)],
    ['package/index.js', `module.exports = '${version}'\n`],
  ])
  const file = `${name}-${version}.tgz`
  const body = {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: { [version]: { ...manifest, dist: { tarball: `${base}/api/npm/npm-local/${name}/-/${file}` } } },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
  }
  const res = await fetch(`${base}/api/npm/npm-local/${name}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await expect(res, 201, `npm publish ${name}@${version}`)
}

/** Uploads one sdist with the multipart form twine sends. */
async function pypiUpload(base, token, name, version) {
  const data = await gzipTar([
    [`${name}-${version}/PKG-INFO`, `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: bench ${name}\n`],
    [`${name}-${version}/${name.replace(/-/g, '_')}/__init__.py`, `NAME = ${JSON.stringify(name)}\n`],
  ])
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`
  const fields = { ':action': 'file_upload', protocol_version: '1', name, version, sha256_digest: sha256(data) }
  const parts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  )
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${name}-${version}.tar.gz"\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  )
  const res = await fetch(`${base}/api/pypi/pypi-local/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat(parts),
  })
  await expect(res, 200, `pypi upload ${name} ${version}`)
}

/** A registry token for the images (what docker and skopeo get from /v2/token with their credentials). */
export async function registryToken(base, token, scopes) {
  const scope = scopes.map((s) => `scope=${encodeURIComponent(s)}`).join('&')
  const res = await fetch(`${base}/v2/token?service=trove&${scope}`, {
    headers: { authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` },
  })
  await expect(res, 200, 'registry token')
  return (await res.json()).token
}

/** Pushes a small image through the registry API: its config and one layer as monolithic uploads, then the manifest. */
async function pushImage(base, token, image) {
  const bearer = await registryToken(base, token, [`repository:docker-local/${image}:pull,push`])
  const auth = { authorization: `Bearer ${bearer}` }
  const layer = await gzipTar([[`srv/${image}/data.bin`, crypto.randomBytes(OCI_LAYER_BYTES)]])
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(zlib.gunzipSync(layer))}`] },
    }),
  )
  for (const blob of [config, layer]) {
    const res = await fetch(`${base}/v2/docker-local/${image}/blobs/uploads/?digest=sha256:${sha256(blob)}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: blob,
    })
    await expect(res, 201, `blob of ${image}`)
  }
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${sha256(config)}`, size: config.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${sha256(layer)}`, size: layer.length }],
  })
  const res = await fetch(`${base}/v2/docker-local/${image}/manifests/1.0`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
    body: manifest,
  })
  await expect(res, 201, `manifest of ${image}`)
  return { image, layer: `sha256:${sha256(layer)}`, config: `sha256:${sha256(config)}`, layerBytes: layer.length }
}

export const npmName = (i) => `bench-pkg-${String(i).padStart(2, '0')}`
const pypiName = (i) => `bench-project-${String(i).padStart(2, '0')}`

/** Stores what the load reads: 20 npm packages of 3 versions, 20 PyPI projects of 2, 4 small images. */
export async function seed(base, token) {
  await createRepos(base, token)
  for (let i = 0; i < NPM_PACKAGES; i++) {
    for (let v = 0; v < NPM_VERSIONS; v++) await npmPublish(base, token, npmName(i), `1.${v}.0`)
  }
  for (let i = 0; i < PYPI_PROJECTS; i++) {
    for (let v = 0; v < 2; v++) await pypiUpload(base, token, pypiName(i), `1.${v}.0`)
  }
  const images = []
  for (let i = 0; i < OCI_IMAGES; i++) images.push(await pushImage(base, token, `app-${i}`))
  return { images }
}

/**
 * The requests of the mixed load, 50 in a cycle that every autocannon connection walks through:
 * 15 packuments and 15 tarballs (npm install asks gzip and the abbreviated form), 9 PyPI simple
 * pages, 10 OCI blobs (8 layers of ~96 KB, 2 configs), and 1 deploy of a new 2 KB generic file
 * (2% writes). `kinds` names each request's kind; `puts.count` counts the deploys sent.
 */
export function mix(data, token, bearer) {
  const auth = { authorization: `Bearer ${token}` }
  const npmAccept = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*'
  const puts = { count: 0 }
  const body = crypto.randomBytes(PUT_BYTES)
  const kinds = []
  for (let i = 0; i < 15; i++) kinds.push('packument', 'tarball')
  for (let i = 0; i < 9; i++) kinds.push('pypi')
  for (let i = 0; i < 8; i++) kinds.push('layer')
  kinds.push('config', 'config')
  kinds.push('put')
  // A fixed shuffle: the kinds interleave, the same on every run.
  let seedValue = 7
  const random = () => {
    seedValue = (seedValue * 48271) % 2147483647
    return seedValue / 2147483647
  }
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[kinds[i], kinds[j]] = [kinds[j], kinds[i]]
  }
  const counters = { packument: 0, tarball: 0, pypi: 0, layer: 0, config: 0, put: 0 }
  const requests = kinds.map((kind) => {
    const n = counters[kind]++
    if (kind === 'packument') {
      return {
        method: 'GET',
        path: `/api/npm/npm-local/${npmName(n % NPM_PACKAGES)}`,
        headers: { ...auth, accept: npmAccept, 'accept-encoding': 'gzip' },
      }
    }
    if (kind === 'tarball') {
      const name = npmName((n * 7) % NPM_PACKAGES)
      const version = `1.${n % NPM_VERSIONS}.0`
      return { method: 'GET', path: `/api/npm/npm-local/${name}/-/${name}-${version}.tgz`, headers: auth }
    }
    if (kind === 'pypi') {
      return {
        method: 'GET',
        path: `/api/pypi/pypi-local/simple/${pypiName((n * 3) % PYPI_PROJECTS)}/`,
        headers: { ...auth, 'accept-encoding': 'gzip' },
      }
    }
    if (kind === 'layer' || kind === 'config') {
      const image = data.images[n % data.images.length]
      return {
        method: 'GET',
        path: `/v2/docker-local/${image.image}/blobs/${image[kind]}`,
        headers: { authorization: `Bearer ${bearer}` },
      }
    }
    return {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      setupRequest: (req) => {
        puts.count++
        const name = `${process.pid}-${Date.now()}-${puts.count}`
        // New content each time: a new blob to store, not a row pointing at one stored already.
        return { ...req, path: `/artifactory/files/load/${name}.bin`, body: Buffer.concat([Buffer.from(name), body]) }
      },
    }
  })
  return { requests, kinds, puts }
}
