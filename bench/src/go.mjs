// Go modules: the GOPROXY answers the go command asks for most (`@v/list`, `@latest`, `.info`,
// `.mod`, `.zip`), requests per second with 20 keep-alive connections, and the time of a module
// zip published by PUT (checked entry by entry, go.mod read, the version recorded).
import autocannon from 'autocannon'
import { startServer } from './server.mjs'

const ADMIN_PASSWORD = 'bench-admin-password'
const MODULES = 50
const VERSIONS = 3

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (data) => {
  let c = 0xffffffff
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A stored (uncompressed) zip of the entries, as a module zip holds them. */
function zipOf(entries) {
  const locals = []
  const centrals = []
  let offset = 0
  for (const [fileName, text] of entries) {
    const name = Buffer.from(fileName)
    const data = Buffer.from(text)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(10, 4)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(name.length, 26)
    locals.push(local, name, data)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(0x0314, 4)
    central.writeUInt16LE(10, 6)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += 30 + name.length + data.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
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
export async function benchGo(row, start = startServer) {
  const server = await start({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD })
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
    const repo = await fetch(`${server.url}/api/repositories/go-local`, {
      method: 'PUT',
      headers: session,
      body: JSON.stringify({ rclass: 'local', packageType: 'go' }),
    })
    if (repo.status !== 201) throw new Error(`repository: ${repo.status}`)
    const auth = { authorization: `Bearer ${token}` }
    const base = `${server.url}/api/go/go-local`
    const zips = []
    for (let i = 0; i < MODULES; i++) {
      const module = `example.com/bench/m${String(i).padStart(2, '0')}`
      for (let v = 0; v < VERSIONS; v++) {
        const version = `v1.${v}.0`
        const root = `${module}@${version}/`
        const dep = i > 0 ? `\nrequire example.com/bench/m${String(i - 1).padStart(2, '0')} v1.0.0\n` : ''
        zips.push({
          module,
          version,
          data: zipOf([
            [`${root}go.mod`, `module ${module}\n\ngo 1.19\n${dep}`],
            [`${root}README.md`, `# m${i}\n\nBench module ${i}.\n`],
            [`${root}m.go`, `package m\n\nconst Version = ${JSON.stringify(version)}\n${'// filler\n'.repeat(200)}`],
          ]),
        })
      }
    }
    const started = performance.now()
    for (const z of zips) {
      const res = await fetch(`${base}/${z.module}/@v/${z.version}.zip`, { method: 'PUT', headers: auth, body: z.data })
      if (res.status !== 201) throw new Error(`publish ${z.module}@${z.version}: ${res.status} ${await res.text()}`)
    }
    const publishMs = (performance.now() - started) / zips.length
    row(
      'go module zip PUT',
      publishMs.toFixed(1),
      'ms each',
      '-',
      true,
      `${zips.length} zips one after another; every entry checked, go.mod and README read, .mod and .info made`,
    )
    const list = await throughput(`${base}/example.com/bench/m07/@v/list`, auth)
    row(
      'go @v/list GET',
      list.rps.toFixed(0),
      'req/s',
      '≥ 5,000 req/s',
      list.errors === 0 && list.rps >= 5000,
      `p50 ${list.p50} ms; ${VERSIONS} versions; 20 connections, 10 s`,
    )
    const latest = await throughput(`${base}/example.com/bench/m07/@latest`, auth)
    row('go @latest GET', latest.rps.toFixed(0), 'req/s', '-', latest.errors === 0, `p50 ${latest.p50} ms`)
    const info = await throughput(`${base}/example.com/bench/m07/@v/v1.2.0.info`, auth)
    row('go .info GET', info.rps.toFixed(0), 'req/s', '-', info.errors === 0, `p50 ${info.p50} ms`)
    const mod = await throughput(`${base}/example.com/bench/m07/@v/v1.2.0.mod`, auth)
    row('go .mod GET', mod.rps.toFixed(0), 'req/s', '-', mod.errors === 0, `p50 ${mod.p50} ms`)
    const zip = await throughput(`${base}/example.com/bench/m07/@v/v1.2.0.zip`, auth)
    row('go .zip GET', zip.rps.toFixed(0), 'req/s', '-', zip.errors === 0, `p50 ${zip.p50} ms; every GET counted as a download`)
  } finally {
    await server.stop()
  }
}
