// npm serving side by side with Verdaccio 6.8 (offline, uplinks empty, audit off) on this machine:
// packument and tarball GET throughput (all servers up at once, measured in alternating rounds), and
// `npm install` of the same 100-package tree from a warm cache. Trove runs twice: with one worker
// process per core (TROVE_WORKERS=auto, how a busy node is meant to run; the targets' figures) and
// with a single process (for comparison: Verdaccio is one process).
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { run } from './exec.mjs'
import { freePort, startServer } from './server.mjs'
import { median } from './stats.mjs'

const require = createRequire(import.meta.url)
const tar = require('tar-stream')
const PACKAGES = 100
const ADMIN_PASSWORD = 'bench-admin-password'

/** A tiny npm package tarball (package/package.json + index.js), as npm pack makes it. */
async function tarball(name, version, dependencies) {
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify({ name, version, main: 'index.js', license: 'MIT', dependencies }))
  pack.entry({ name: 'package/index.js' }, `module.exports = ${JSON.stringify(name)}\n`)
  pack.entry({ name: 'package/README.md' }, `# ${name}\n\n${'Some words about it. '.repeat(40)}\n`)
  pack.finalize()
  const chunks = []
  for await (const c of pack) chunks.push(c)
  return zlib.gzipSync(Buffer.concat(chunks))
}

/** The body `npm publish` PUTs. */
function publishBody(registryUrl, name, version, data, dependencies) {
  const file = `${name}-${version}.tgz`
  return {
    _id: name,
    name,
    description: `bench package ${name}`,
    'dist-tags': { latest: version },
    versions: {
      [version]: {
        name,
        version,
        main: 'index.js',
        license: 'MIT',
        dependencies,
        _id: `${name}@${version}`,
        dist: {
          shasum: crypto.createHash('sha1').update(data).digest('hex'),
          integrity: `sha512-${crypto.createHash('sha512').update(data).digest('base64')}`,
          tarball: `${registryUrl}${name}/-/${file}`,
        },
      },
    },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length } },
  }
}

/** 100 packages: bench-pkg-000 … 099; each of the first 20 depends on 4 of the others, so the tree has depth. */
async function makeTree() {
  const pkgs = []
  for (let i = 0; i < PACKAGES; i++) {
    const name = `bench-pkg-${String(i).padStart(3, '0')}`
    const dependencies = {}
    if (i < 20) for (let j = 0; j < 4; j++) dependencies[`bench-pkg-${String(20 + i * 4 + j).padStart(3, '0')}`] = '^1.0.0'
    pkgs.push({ name, version: '1.0.0', dependencies, data: await tarball(name, '1.0.0', dependencies) })
  }
  return pkgs
}

async function publishAll(registryUrl, token, pkgs) {
  for (const p of pkgs) {
    const res = await fetch(`${registryUrl}${p.name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(publishBody(registryUrl, p.name, p.version, p.data, p.dependencies)),
    })
    if (res.status >= 300) throw new Error(`publish ${p.name} to ${registryUrl}: ${res.status} ${await res.text()}`)
  }
}

function cannon(url, headers) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: 20, duration: 10, headers }, (err, result) => (err ? reject(err) : resolve(result))),
  )
}

async function throughput(url, headers) {
  await new Promise((resolve, reject) =>
    autocannon({ url, connections: 20, duration: 2, headers }, (err, r) => (err ? reject(err) : resolve(r))),
  )
  const r = await cannon(url, headers)
  return { rps: r.requests.average, p50: r.latency.p50, errors: r.errors + r.non2xx }
}

/** `npm install` of the whole tree, timed from a warm npm cache (median of 3 after a warming run). */
async function timedInstalls(registryUrl, token, pkgs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-install-'))
  const host = registryUrl.replace(/^http:/, '')
  fs.writeFileSync(path.join(dir, '.npmrc'), `registry=${registryUrl}\n${token ? `${host}:_authToken=${token}\n` : ''}`)
  const dependencies = Object.fromEntries(pkgs.slice(0, 20).map((p) => [p.name, '^1.0.0']))
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-app', version: '1.0.0', private: true, dependencies }),
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
  const install = async () => {
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true })
    fs.rmSync(path.join(dir, 'package-lock.json'), { force: true })
    const started = performance.now()
    await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, env })
    return performance.now() - started
  }
  await install()
  const installed = fs.readdirSync(path.join(dir, 'node_modules')).filter((n) => n.startsWith('bench-pkg-')).length
  if (installed !== PACKAGES) throw new Error(`npm installed ${installed} of ${PACKAGES} packages from ${registryUrl}`)
  const times = []
  for (let i = 0; i < 3; i++) times.push(await install())
  fs.rmSync(dir, { recursive: true, force: true })
  return median(times)
}

/** Verdaccio 6.8 from the npm registry, installed once into bench/.verdaccio (its own tree: it needs an override). */
export async function verdaccioBin() {
  const home = new URL('../.verdaccio/', import.meta.url).pathname
  const bin = path.join(home, 'node_modules/verdaccio/bin/verdaccio')
  if (fs.existsSync(bin)) return bin
  fs.mkdirSync(home, { recursive: true })
  fs.writeFileSync(
    path.join(home, 'package.json'),
    JSON.stringify({
      name: 'verdaccio-peer',
      private: true,
      dependencies: { verdaccio: '6.8.0' },
      overrides: { 'node-fetch': '2.7.0' },
    }),
  )
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: home })
  return bin
}

async function startVerdaccio() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdaccio-bench-'))
  const port = await freePort()
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    [
      'storage: ./storage',
      'auth: { htpasswd: { file: ./htpasswd, max_users: 100 } }',
      'uplinks: {}',
      'packages:',
      "  '@*/*': { access: $all, publish: $authenticated, unpublish: $authenticated }",
      "  '**':   { access: $all, publish: $authenticated, unpublish: $authenticated }",
      'middlewares: { audit: { enabled: false } }',
      'web: { enable: true, gravatar: false }',
      'log: { type: stdout, format: pretty, level: warn }',
      `listen: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  )
  const bin = await verdaccioBin()
  const child = spawn(process.execPath, [bin, '--config', path.join(dir, 'config.yaml')], { cwd: dir, stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}/`
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${url}-/ping`)).ok) break
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const res = await fetch(`${url}-/user/org.couchdb.user:bench`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', password: 'bench-password' }),
  })
  const { token } = await res.json()
  return {
    url,
    token,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function startTrove(workers) {
  const server = await startServer({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD, TROVE_WORKERS: workers })
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
  const headers = { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }
  const { access_token: token } = await (
    await fetch(`${server.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ expiresIn: 86400 }),
    })
  ).json()
  const repo = await fetch(`${server.url}/api/repositories/npm-local`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ rclass: 'local', packageType: 'npm' }),
  })
  if (repo.status !== 201) throw new Error(`repository: ${repo.status}`)
  // Measure once every worker serves (the first answers before the others have started).
  let online = 0
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const ha = await (await fetch(`${server.url}/ui/api/v1/system/status/ha`, { headers })).json()
    online = ha.repository.nodes.filter((n) => n.status === 'Online').length
    if (online >= (workers === 'auto' ? Math.min(os.availableParallelism(), 32) : Number(workers))) break
  }
  return { url: `${server.url}/api/npm/npm-local/`, token, workers: online, stop: () => server.stop() }
}

/** Rounds of GET measurements; each round measures both servers back to back (see benchRepositories). */
const ROUNDS = 3

/** @param {import('./stats.mjs').Row} row */
export async function benchRepositories(row) {
  const pkgs = await makeTree()
  const registries = {}
  try {
    for (const [name, start] of [
      ['verdaccio', startVerdaccio],
      ['trove', () => startTrove('auto')],
      ['trove1', () => startTrove('1')],
    ]) {
      registries[name] = await start()
      await publishAll(registries[name].url, registries[name].token, pkgs)
    }
    // Trove needs the token (nothing is anonymous under its access rules); Verdaccio's config lets anyone read.
    const target = (name) => {
      const registry = registries[name]
      const auth = name === 'verdaccio' ? {} : { authorization: `Bearer ${registry.token}` }
      return {
        packument: [`${registry.url}bench-pkg-000`, { ...auth, accept: 'application/json' }],
        tarballs: [`${registry.url}bench-pkg-000/-/bench-pkg-000-1.0.0.tgz`, auth],
      }
    }
    // On a shared machine the load changes from one minute to the next: both servers are measured
    // in each round, one right after the other, and the ratio is taken per round (median of the rounds).
    const names = ['verdaccio', 'trove', 'trove1']
    const rounds = Object.fromEntries(names.map((n) => [n, { packument: [], tarballs: [] }]))
    for (let i = 0; i < ROUNDS; i++) {
      for (const kind of ['packument', 'tarballs']) {
        for (const name of names) rounds[name][kind].push(await throughput(...target(name)[kind]))
      }
    }
    const results = {}
    for (const name of names) {
      const pick = (list) => ({
        rps: median(list.map((r) => r.rps)),
        p50: median(list.map((r) => r.p50)),
        errors: list.reduce((n, r) => n + r.errors, 0),
      })
      results[name] = {
        packument: pick(rounds[name].packument),
        tarballs: pick(rounds[name].tarballs),
        ratios: {
          packument: rounds[name].packument.map((r, i) => r.rps / rounds.verdaccio.packument[i].rps),
          tarballs: rounds[name].tarballs.map((r, i) => r.rps / rounds.verdaccio.tarballs[i].rps),
        },
        workers: registries[name].workers,
      }
    }
    for (const name of ['verdaccio', 'trove']) {
      results[name].install = await timedInstalls(registries[name].url, registries[name].token, pkgs)
    }
    report(row, results)
  } finally {
    for (const registry of Object.values(registries)) await registry.stop()
  }
}

function report(row, results) {
  const { trove, trove1, verdaccio } = results
  const ratios = (list) => list.map((r) => `${r.toFixed(1)}x`).join(', ')
  for (const [kind, label, note] of [
    ['packument', 'packument', '20 connections, 10 s'],
    ['tarballs', 'tarball', 'every GET counted as a download'],
  ]) {
    for (const [server, title, target] of [
      [trove, `${trove.workers} worker processes (TROVE_WORKERS=auto)`, '>= 5x'],
      [trove1, 'one process (TROVE_WORKERS=1)', '-'],
    ]) {
      const ratio = median(server.ratios[kind])
      row(
        `npm ${label} GET vs Verdaccio 6.8, ${title}`,
        `${server[kind].rps.toFixed(0)} / ${verdaccio[kind].rps.toFixed(0)}`,
        'req/s',
        target,
        target === '-' ? null : ratio >= 5 && server[kind].errors === 0,
        `${ratio.toFixed(1)}x (rounds ${ratios(server.ratios[kind])}); p50 ${server[kind].p50} / ${verdaccio[kind].p50} ms; ${note}`,
      )
    }
  }
  const ratio = (a, b) => (a / b).toFixed(1)
  row(
    `npm install, 100-package tree, warm cache, ${trove.workers} worker processes`,
    `${(trove.install / 1000).toFixed(2)} / ${(verdaccio.install / 1000).toFixed(2)}`,
    's',
    '<= 0.5x',
    trove.install <= 0.5 * verdaccio.install,
    `${ratio(trove.install, verdaccio.install)}x; median of 3, no lockfile, node_modules removed each time`,
  )
}
