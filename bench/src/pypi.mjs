// PyPI serving: simple-index project pages (PEP 503 HTML and PEP 691 JSON) and file downloads,
// requests per second with 20 keep-alive connections, and the time of twine-style uploads.
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { startServer } from './server.mjs'

const require = createRequire(import.meta.url)
const tar = require('tar-stream')
const ADMIN_PASSWORD = 'bench-admin-password'
const PROJECTS = 50

async function sdist(name, version) {
  const pack = tar.pack()
  pack.entry(
    { name: `${name}-${version}/PKG-INFO` },
    `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: bench project ${name}\nRequires-Python: >=3.8\n\n${'Some words. '.repeat(50)}\n`,
  )
  pack.entry({ name: `${name}-${version}/${name.replace(/-/g, '_')}/__init__.py` }, `NAME = ${JSON.stringify(name)}\n`)
  pack.finalize()
  const chunks = []
  for await (const c of pack) chunks.push(c)
  return zlib.gzipSync(Buffer.concat(chunks))
}

/** The multipart form twine sends. */
function form(fields, filename, content) {
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`
  const parts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  )
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="${filename}"\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  )
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` }
}

function cannon(url, headers, duration) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 20, duration, headers }, (err, r) => (err ? reject(err) : resolve(r))),
  )
}

async function throughput(url, headers) {
  await cannon(url, headers, 2)
  const r = await cannon(url, headers, 10)
  return { rps: r.requests.average, p50: r.latency.p50, errors: r.errors + r.non2xx }
}

/** @param {(name: string, value: string, unit: string, target: string, ok: boolean, note?: string) => void} row */
export async function benchPypi(row) {
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD })
  try {
    const login = await fetch(`${server.url}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
    })
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const csrf = /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? ''
    const session = { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }
    const { access_token: token } = await (
      await fetch(`${server.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ expiresIn: 86400 }),
      })
    ).json()
    const repo = await fetch(`${server.url}/api/repositories/pypi-local`, {
      method: 'PUT',
      headers: session,
      body: JSON.stringify({ rclass: 'local', packageType: 'pypi' }),
    })
    if (repo.status !== 201) throw new Error(`repository: ${repo.status}`)
    const auth = { authorization: `Bearer ${token}` }
    const base = `${server.url}/api/pypi/pypi-local`
    // 50 projects, 4 versions each: 200 uploads, as twine POSTs them one by one.
    const uploads = []
    for (let i = 0; i < PROJECTS; i++) {
      for (let v = 0; v < 4; v++) {
        const name = `bench-project-${String(i).padStart(2, '0')}`
        const version = `1.${v}.0`
        const data = await sdist(name, version)
        uploads.push({
          name,
          version,
          filename: `${name}-${version}.tar.gz`,
          sha256: crypto.createHash('sha256').update(data).digest('hex'),
          data,
        })
      }
    }
    const started = performance.now()
    for (const u of uploads) {
      const f = form(
        { ':action': 'file_upload', protocol_version: '1', name: u.name, version: u.version, sha256_digest: u.sha256 },
        u.filename,
        u.data,
      )
      const res = await fetch(`${base}/`, { method: 'POST', headers: { ...auth, 'content-type': f.type }, body: f.body })
      if (res.status !== 200) throw new Error(`upload ${u.filename}: ${res.status} ${await res.text()}`)
    }
    const uploadMs = (performance.now() - started) / uploads.length
    const html = await throughput(`${base}/simple/bench-project-07/`, auth)
    const json = await throughput(`${base}/simple/bench-project-07/`, { ...auth, accept: 'application/vnd.pypi.simple.v1+json' })
    const file = await throughput(`${base}/packages/bench-project-07/1.3.0/bench-project-07-1.3.0.tar.gz`, auth)
    row(
      'pypi upload (twine form, sdist read)',
      uploadMs.toFixed(1),
      'ms each',
      '-',
      true,
      `${uploads.length} uploads one after another; digest verified, PKG-INFO read`,
    )
    row(
      'pypi simple page GET (PEP 503 HTML)',
      html.rps.toFixed(0),
      'req/s',
      '-',
      html.errors === 0,
      `p50 ${html.p50} ms; 4 files; 20 connections, 10 s`,
    )
    row(
      'pypi simple page GET (PEP 691 JSON)',
      json.rps.toFixed(0),
      'req/s',
      '-',
      json.errors === 0,
      `p50 ${json.p50} ms; 20 connections, 10 s`,
    )
    row(
      'pypi file GET',
      file.rps.toFixed(0),
      'req/s',
      '-',
      file.errors === 0,
      `p50 ${file.p50} ms; every GET counted as a download`,
    )
  } finally {
    await server.stop()
  }
}
