// Go modules: the GOPROXY answers the go command asks for most (`@v/list`, `@latest`, `.info`,
// `.mod`, `.zip`), requests per second with 20 keep-alive connections, and the time of a module
// zip published by PUT (checked entry by entry, go.mod read, the version recorded).

import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { throughput } from './load.mjs'
import { freePort, signInAdmin, startServer } from './server.mjs'

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

/** @param {(name: string, value: string, unit: string, target: string, ok: boolean, note?: string) => void} row */
export async function benchGo(row, start = startServer) {
  const server = await start({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD })
  try {
    const session = await signInAdmin(server.url, ADMIN_PASSWORD)
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
    await graphDownload(row, server.url, session, token)
  } finally {
    await server.stop()
  }
}

const run = (cmd, args, options) =>
  new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) =>
      error ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  )

/**
 * `go mod download` of a 50-module graph (every bench module at v1.2.0, each requiring the one
 * before it at v1.0.0) from a remote repository whose cache is warm, against a loopback
 * static-file server (python3 -m http.server) holding the same GOPROXY files. The go command sends
 * credentials over HTTPS only, so both are read anonymously over plain HTTP (anonymous access on,
 * read granted on the remote). Three rounds each, alternating, each into an empty module cache.
 */
async function graphDownload(row, url, session, token) {
  try {
    await run('go', ['version'], {})
  } catch {
    row(
      'go mod download, 50-module graph',
      '-',
      's',
      '< static server',
      null,
      'skipped: no go command (apt-get install golang-go)',
    )
    return
  }
  const admin = `${url}/ui/api/v1/ui/admin`
  const put = async (u, method, body) => {
    const res = await fetch(u, { method, headers: session, body: JSON.stringify(body) })
    if (res.status >= 300) throw new Error(`${method} ${u}: ${res.status} ${await res.text()}`)
  }
  await put(`${url}/api/repositories/go-remote`, 'PUT', {
    rclass: 'remote',
    packageType: 'go',
    url: `${url}/api/go/go-local`,
    username: 'admin',
    password: token,
  })
  await put(`${admin}/permissions`, 'POST', {
    name: 'go-remote-anonymous',
    repositories: { resources: { names: ['go-remote'] }, grants: [{ kind: 'anonymous', actions: ['read'] }] },
  })
  await put(`${admin}/security/anonymous-access`, 'PUT', { enabled: true })
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-go-'))
  const python = []
  try {
    const app = path.join(work, 'app')
    fs.mkdirSync(app)
    const modules = Array.from({ length: MODULES }, (_, i) => `example.com/bench/m${String(i).padStart(2, '0')}`)
    fs.writeFileSync(
      path.join(app, 'go.mod'),
      `module example.com/app\n\ngo 1.19\n\nrequire (\n${modules.map((m) => `\t${m} v1.2.0`).join('\n')}\n)\n`,
    )
    // The static server's files: what the remote serves, in the GOPROXY layout.
    const root = path.join(work, 'static')
    const auth = { authorization: `Bearer ${token}` }
    for (const m of modules) {
      const dir = path.join(root, m, '@v')
      fs.mkdirSync(dir, { recursive: true })
      const list = await fetch(`${url}/api/go/go-local/${m}/@v/list`, { headers: auth })
      fs.writeFileSync(path.join(dir, 'list'), await list.text())
      for (let v = 0; v < VERSIONS; v++)
        for (const ext of ['info', 'mod', 'zip']) {
          const res = await fetch(`${url}/api/go/go-local/${m}/@v/v1.${v}.0.${ext}`, { headers: auth })
          fs.writeFileSync(path.join(dir, `v1.${v}.0.${ext}`), Buffer.from(await res.arrayBuffer()))
        }
    }
    const port = await freePort()
    const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root], {
      stdio: 'ignore',
    })
    python.push(server)
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/example.com/bench/m00/@v/list`)).ok) break
      } catch {
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    let round = 0
    const download = async (proxy) => {
      const cache = path.join(work, `modcache-${round++}`)
      const env = {
        PATH: process.env.PATH,
        HOME: work,
        GOPROXY: proxy,
        GONOSUMDB: 'example.com',
        GOFLAGS: '-mod=mod',
        GOMODCACHE: cache,
        GOCACHE: path.join(work, 'gocache'),
        GOTOOLCHAIN: 'local',
        GOENV: 'off',
      }
      const started = performance.now()
      await run('go', ['mod', 'download'], { cwd: app, env })
      const seconds = (performance.now() - started) / 1000
      fs.rmSync(cache, { recursive: true, force: true, maxRetries: 3 })
      return seconds
    }
    const trove = `${url}/api/go/go-remote`
    const coldSeconds = await download(trove) // fills the remote's cache
    const troveTimes = []
    const staticTimes = []
    for (let i = 0; i < 3; i++) {
      troveTimes.push(await download(trove))
      staticTimes.push(await download(`http://127.0.0.1:${port}`))
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[1]
    const t = median(troveTimes)
    const s = median(staticTimes)
    row(
      'go mod download, 50-module graph, warm remote',
      `${t.toFixed(2)} / ${s.toFixed(2)}`,
      's Trove / static',
      '< static server',
      t < s,
      `median of 3 alternating rounds (Trove ${troveTimes.map((x) => x.toFixed(2)).join(', ')}; python3 http.server ${staticTimes.map((x) => x.toFixed(2)).join(', ')}); the cold run that filled the cache ${coldSeconds.toFixed(2)} s`,
    )
  } finally {
    for (const p of python) p.kill()
    fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 })
  }
}
