// Remote repositories in front of an upstream, side by side (npm run bench -- upstream):
// - a cold `npm install` (empty npm cache, empty remote) of a 400-package tree through a Trove npm
//   remote, through Verdaccio 6.8 with the same upstream as its uplink, and straight from the
//   upstream; the upstream is a small registry in this process that answers every request after
//   UPSTREAM_DELAY_MS (the round trip to a public registry), so nothing here needs the internet;
// - 100 clients asking for the same uncached tarball at once: the upstream requests it causes;
// - a 50 MB .deb cached by a Debian remote against nginx serving the same file.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { cpuSeconds } from './clusterProcesses.mjs'
import { run } from './exec.mjs'
import { verdaccioBin } from './repositories.mjs'
import { freePort, signInAdmin, startServer } from './server.mjs'
import { median } from './stats.mjs'

const require = createRequire(import.meta.url)
const tar = require('tar-stream')
const ADMIN_PASSWORD = 'bench-admin-password'
const PACKAGES = 400
const VERSIONS = 12
const UPSTREAM_DELAY_MS = 40
const ROUNDS = 3

async function tarball(name, version, dependencies) {
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify({ name, version, main: 'index.js', license: 'MIT', dependencies }))
  pack.entry({ name: 'package/index.js' }, `module.exports = ${JSON.stringify(`${name}@${version}`)}\n`)
  pack.entry({ name: 'package/README.md' }, `# ${name}\n\n${'Some words about it. '.repeat(60)}\n`)
  pack.finalize()
  const chunks = []
  for await (const c of pack) chunks.push(c)
  return zlib.gzipSync(Buffer.concat(chunks))
}

/**
 * A registry-shaped upstream: PACKAGES packages of VERSIONS versions each (packuments with times,
 * maintainers, integrity), the first fifth depending on four others each; every answer waits
 * UPSTREAM_DELAY_MS. Counts the requests per path.
 */
export async function startUpstream() {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const files = new Map()
  const asked = new Map()
  for (let i = 0; i < PACKAGES; i++) {
    const name = `up-pkg-${String(i).padStart(3, '0')}`
    const dependencies = {}
    if (i < PACKAGES / 5)
      for (let j = 0; j < 4; j++) dependencies[`up-pkg-${String(PACKAGES / 5 + i * 4 + j).padStart(3, '0')}`] = '^1.0.0'
    const versions = {}
    const time = { created: '2020-01-01T00:00:00.000Z' }
    for (let v = 0; v < VERSIONS; v++) {
      const version = `1.${v}.0`
      const data = await tarball(name, version, dependencies)
      const file = `/${name}/-/${name}-${version}.tgz`
      files.set(file, { type: 'application/octet-stream', body: data })
      versions[version] = {
        name,
        version,
        main: 'index.js',
        license: 'MIT',
        dependencies,
        maintainers: [{ name: 'bench', email: 'bench@example.org' }],
        _npmUser: { name: 'bench', email: 'bench@example.org' },
        dist: {
          shasum: crypto.createHash('sha1').update(data).digest('hex'),
          integrity: `sha512-${crypto.createHash('sha512').update(data).digest('base64')}`,
          tarball: `${url}${file}`,
        },
      }
      time[version] = new Date(Date.UTC(2020, 0, 1 + v)).toISOString()
    }
    const packument = { name, 'dist-tags': { latest: `1.${VERSIONS - 1}.0` }, versions, time, readme: `# ${name}\n` }
    files.set(`/${name}`, { type: 'application/json', body: Buffer.from(JSON.stringify(packument)) })
  }
  const server = http.createServer((req, res) => {
    const pathOnly = decodeURIComponent((req.url ?? '').split('?')[0])
    asked.set(pathOnly, (asked.get(pathOnly) ?? 0) + 1)
    setTimeout(() => {
      const found = files.get(pathOnly)
      if (!found) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
      res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length }).end(found.body)
    }, UPSTREAM_DELAY_MS)
  })
  server.keepAliveTimeout = 30_000
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url,
    asked,
    roots: Array.from({ length: PACKAGES / 5 }, (_, i) => `up-pkg-${String(i).padStart(3, '0')}`),
    stop: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A cold `npm install` of the roots from `registry` (fresh npm cache and project), in ms; checks every package landed. */
async function coldInstall(registry, token, roots) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-cold-'))
  const host = registry.replace(/^http:/, '')
  fs.writeFileSync(path.join(dir, '.npmrc'), `registry=${registry}\n${token ? `${host}:_authToken=${token}\n` : ''}`)
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'cold-app',
      version: '1.0.0',
      private: true,
      dependencies: Object.fromEntries(roots.map((r) => [r, '^1.0.0'])),
    }),
  )
  const env = {
    ...process.env,
    npm_config_userconfig: path.join(dir, '.npmrc'),
    npm_config_cache: path.join(dir, 'cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  }
  const started = performance.now()
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, env })
  const ms = performance.now() - started
  const installed = fs.readdirSync(path.join(dir, 'node_modules')).filter((n) => n.startsWith('up-pkg-')).length
  fs.rmSync(dir, { recursive: true, force: true })
  if (installed !== PACKAGES) throw new Error(`npm installed ${installed} of ${PACKAGES} packages from ${registry}`)
  return ms
}

export async function startTrove() {
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD })
  const headers = await signInAdmin(server.url, ADMIN_PASSWORD)
  const { access_token: token } = await (
    await fetch(`${server.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ expiresIn: 86400 }),
    })
  ).json()
  const repo = async (key, body) => {
    const res = await fetch(`${server.url}/api/repositories/${key}`, { method: 'PUT', headers, body: JSON.stringify(body) })
    if (res.status !== 201) throw new Error(`repository ${key}: ${res.status} ${await res.text()}`)
  }
  return { url: server.url, pid: server.pid, token, repo, stop: () => server.stop() }
}

/** Verdaccio 6.8 with the upstream as its only uplink, on a fresh storage (so its cache is cold). */
async function startVerdaccio(uplink) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdaccio-cold-'))
  const port = await freePort()
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    [
      'storage: ./storage',
      'auth: { htpasswd: { file: ./htpasswd, max_users: 100 } }',
      `uplinks: { up: { url: ${uplink}/, maxage: 10m, timeout: 60s } }`,
      'packages:',
      "  '**': { access: $all, publish: $authenticated, proxy: up }",
      'middlewares: { audit: { enabled: false } }',
      'web: { enable: false }',
      'log: { type: stdout, format: pretty, level: error }',
      `listen: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  )
  const child = spawn(process.execPath, [await verdaccioBin(), '--config', path.join(dir, 'config.yaml')], {
    cwd: dir,
    stdio: 'ignore',
  })
  const url = `http://127.0.0.1:${port}/`
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${url}-/ping`)).ok) break
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** MB/s of `count` downloads of `url` (median), each read to its end. */
async function downloadSpeed(url, headers, count = 5) {
  const speeds = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const res = await fetch(url, { headers })
    if (!res.ok) throw new Error(`${url}: ${res.status}`)
    let bytes = 0
    for await (const chunk of res.body) bytes += chunk.length
    speeds.push(bytes / 1e6 / ((performance.now() - started) / 1000))
  }
  return median(speeds)
}

/** nginx (Debian's) serving `dir` on a free port, as docs/PEERS describe it. */
async function startNginx(root) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-bench-'))
  const port = await freePort()
  fs.chmodSync(dir, 0o755)
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 2; pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon on;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  server { listen 127.0.0.1:${port}; root ${root}; location / { default_type application/octet-stream; } } }
`,
  )
  await run('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir])
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await run('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-s', 'stop']).catch(() => {})
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A .deb of about 50 MB of incompressible data, built by dpkg-deb. */
async function bigDeb(dir) {
  const root = path.join(dir, 'bench-big')
  fs.mkdirSync(path.join(root, 'DEBIAN'), { recursive: true })
  fs.mkdirSync(path.join(root, 'usr/share/bench-big'), { recursive: true })
  fs.writeFileSync(path.join(root, 'usr/share/bench-big/data'), crypto.randomBytes(50_000_000))
  fs.writeFileSync(
    path.join(root, 'DEBIAN/control'),
    'Package: bench-big\nVersion: 1.0\nArchitecture: all\nMaintainer: Bench <bench@example.org>\nDescription: 50 MB\n',
  )
  const out = path.join(dir, 'bench-big_1.0_all.deb')
  await run('dpkg-deb', ['-Znone', '--root-owner-group', '--build', root, out])
  return out
}

/** @param {import('./stats.mjs').Row} row */
export async function benchUpstream(row) {
  // TROVE_BENCH_UPSTREAM_ONLY=install, burst or deb runs that part alone.
  const only = process.env.TROVE_BENCH_UPSTREAM_ONLY
  const part = (name) => only === undefined || only === name
  const upstream = await startUpstream()
  const trove = await startTrove()
  try {
    if (part('install')) await coldInstalls(row, upstream, trove)
    if (part('burst')) await burst(row, upstream, trove)
    if (part('deb')) await cachedDeb(row, trove)
  } finally {
    await trove.stop()
    await upstream.stop()
  }
}

async function coldInstalls(row, upstream, trove) {
  const direct = []
  const viaTrove = []
  const troveCpu = []
  const viaVerdaccio = []
  for (let round = 0; round < ROUNDS; round++) {
    direct.push(await coldInstall(`${upstream.url}/`, null, upstream.roots))
    const key = `npm-cold-${round}`
    await trove.repo(key, { rclass: 'remote', packageType: 'npm', url: upstream.url })
    const cpuBefore = cpuSeconds(trove.pid)
    viaTrove.push(await coldInstall(`${trove.url}/api/npm/${key}/`, trove.token, upstream.roots))
    troveCpu.push(cpuSeconds(trove.pid) - cpuBefore)
    const verdaccio = await startVerdaccio(upstream.url)
    try {
      viaVerdaccio.push(await coldInstall(verdaccio.url, null, upstream.roots))
    } finally {
      await verdaccio.stop()
    }
  }
  const [d, t, v] = [median(direct), median(viaTrove), median(viaVerdaccio)]
  const note = `${PACKAGES} packages × ${VERSIONS} versions, upstream answers after ${UPSTREAM_DELAY_MS} ms; median of ${ROUNDS}`
  row('cold npm install straight from the upstream', (d / 1000).toFixed(1), 's', '-', null, note)
  row('cold npm install through Verdaccio 6.8 (uplink)', (v / 1000).toFixed(1), 's', '-', null, note)
  row(
    'cold npm install through a Trove npm remote',
    (t / 1000).toFixed(1),
    's',
    '≤ 1.1× direct, < Verdaccio',
    t <= 1.1 * d && t < v,
    `${(t / d).toFixed(2)}× direct, ${(t / v).toFixed(2)}× Verdaccio`,
  )
  row(
    'Trove CPU time during a cold install',
    median(troveCpu).toFixed(1),
    's',
    '-',
    null,
    'user and system, every thread of the server process',
  )
}

async function burst(row, upstream, trove) {
  // 100 clients, one uncached tarball.
  await trove.repo('npm-burst', { rclass: 'remote', packageType: 'npm', url: upstream.url })
  const tarballPath = '/up-pkg-399/-/up-pkg-399-1.0.0.tgz'
  const before = upstream.asked.get(tarballPath) ?? 0
  const answers = await Promise.all(
    Array.from({ length: 100 }, () =>
      fetch(`${trove.url}/api/npm/npm-burst${tarballPath}`, { headers: { authorization: `Bearer ${trove.token}` } }).then(
        async (r) => {
          await r.arrayBuffer()
          return r.status
        },
      ),
    ),
  )
  const fetched = (upstream.asked.get(tarballPath) ?? 0) - before
  const ok = answers.filter((s) => s === 200).length
  row(
    'upstream requests for one tarball 100 clients miss at once',
    fetched,
    'requests',
    '1',
    fetched === 1 && ok === 100,
    `${ok} of 100 answered 200`,
  )
}

async function cachedDeb(row, trove) {
  // A 50 MB .deb cached by a Debian remote, against nginx serving the same file.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-deb-'))
  fs.chmodSync(work, 0o755)
  const deb = await bigDeb(work)
  await trove.repo('deb-up', { rclass: 'local', packageType: 'debian' })
  const auth = { authorization: `Bearer ${trove.token}` }
  const put = await fetch(`${trove.url}/artifactory/deb-up/pool/bench-big.deb;deb.distribution=bookworm;deb.component=main`, {
    method: 'PUT',
    headers: auth,
    body: fs.readFileSync(deb),
  })
  if (put.status !== 201) throw new Error(`deb upload: ${put.status} ${await put.text()}`)
  await trove.repo('deb-remote', {
    rclass: 'remote',
    packageType: 'debian',
    url: `${trove.url}/artifactory/deb-up`,
    username: 'admin',
    password: trove.token,
  })
  const cachedUrl = `${trove.url}/artifactory/deb-remote/pool/bench-big.deb`
  await downloadSpeed(cachedUrl, auth, 1)
  const nginx = await startNginx(work)
  try {
    const staticUrl = `${nginx.url}/${path.basename(deb)}`
    await downloadSpeed(staticUrl, {}, 1)
    const rounds = { trove: [], nginx: [] }
    for (let i = 0; i < ROUNDS; i++) {
      rounds.trove.push(await downloadSpeed(cachedUrl, auth))
      rounds.nginx.push(await downloadSpeed(staticUrl, {}))
    }
    const [tr, ng] = [median(rounds.trove), median(rounds.nginx)]
    row(
      '50 MB cached .deb through a Debian remote',
      tr.toFixed(0),
      'MB/s',
      '≥ 0.9× nginx',
      tr >= 0.9 * ng,
      `nginx ${ng.toFixed(0)} MB/s: ${(tr / ng).toFixed(2)}×`,
    )
  } finally {
    await nginx.stop()
    fs.rmSync(work, { recursive: true, force: true })
  }
}
