// Cargo: the sparse-index requests cargo makes most (config.json, a crate's index file) and the
// download of a .crate, requests per second with 20 keep-alive connections and the raw token
// Cargo sends; the time of a `cargo publish` request (body split, archive checked, recorded); and
// `cargo fetch` of a 50-crate graph from a warm remote against a static-file server.

import { execFile, execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { throughput } from './load.mjs'
import { freePort, signInAdmin, startServer } from './server.mjs'

const ADMIN_PASSWORD = 'bench-admin-password'
const CRATES = 50
/** Debian's cargo 1.9x (package cargo-web), which speaks the sparse protocol. */
const CARGO = '/usr/bin/cargo'

const run = (cmd, args, options) =>
  new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) =>
      error ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    ),
  )

/** A crate's index file path in the sparse layout (names of 4 or more characters). */
const indexPath = (name) => `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`

/**
 * `cargo fetch` of a 50-crate graph (an app needing bench-crate-49 ^1, each crate needing the one
 * before it) from a remote repository whose cache is warm, against a loopback static-file server
 * (python3 -m http.server) holding the same index files and .crate files. Trove's config.json asks
 * for the token (auth-required), so cargo sends it on every request; the static server has none.
 * Three rounds each, alternating, each with an empty CARGO_HOME.
 */
async function graphFetch(row, url, session, token, work) {
  if (!fs.existsSync(CARGO)) {
    row(
      'cargo fetch, 50-crate graph',
      '-',
      's',
      '< static server',
      null,
      'skipped: no /usr/bin/cargo (apt-get install cargo-web)',
    )
    return
  }
  const res = await fetch(`${url}/api/repositories/cargo-remote`, {
    method: 'PUT',
    headers: session,
    body: JSON.stringify({ rclass: 'remote', packageType: 'cargo', url: `${url}/api/cargo/cargo-local/index`, password: token }),
  })
  if (res.status !== 201) throw new Error(`remote repository: ${res.status} ${await res.text()}`)
  const app = path.join(work, 'graph-app')
  fs.mkdirSync(path.join(app, 'src'), { recursive: true })
  fs.writeFileSync(
    path.join(app, 'Cargo.toml'),
    `[package]\nname = "graph-app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nbench-crate-49 = { version = "^1", registry = "bench" }\n`,
  )
  fs.writeFileSync(path.join(app, 'src', 'main.rs'), 'fn main() {}\n')
  // The static server's files: the local repository's index files and crates, in the sparse layout.
  const root = path.join(work, 'static')
  const port = await freePort()
  const auth = { authorization: token }
  fs.mkdirSync(path.join(root, 'index'), { recursive: true })
  fs.writeFileSync(
    path.join(root, 'index', 'config.json'),
    JSON.stringify({ dl: `http://127.0.0.1:${port}/dl/{crate}/{version}.crate` }),
  )
  for (let i = 0; i < CRATES; i++) {
    const name = `bench-crate-${String(i).padStart(2, '0')}`
    const file = path.join(root, 'index', indexPath(name))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, await (await fetch(`${url}/api/cargo/cargo-local/index/${indexPath(name)}`, { headers: auth })).text())
    fs.mkdirSync(path.join(root, 'dl', name), { recursive: true })
    for (const version of ['1.0.0', '1.1.0', '1.2.0']) {
      const crate = await fetch(`${url}/api/cargo/cargo-local/api/v1/crates/${name}/${version}/download`, { headers: auth })
      fs.writeFileSync(path.join(root, 'dl', name, `${version}.crate`), Buffer.from(await crate.arrayBuffer()))
    }
  }
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root], {
    stdio: 'ignore',
  })
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/index/config.json`)).ok) break
      } catch {
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    let round = 0
    const fetchGraph = async (index) => {
      const home = path.join(work, `cargo-home-${round++}`)
      fs.rmSync(path.join(app, 'Cargo.lock'), { force: true })
      const env = {
        PATH: process.env.PATH,
        HOME: work,
        CARGO_HOME: home,
        RUSTC: '/usr/bin/rustc',
        CARGO_NET_OFFLINE: 'false',
        CARGO_REGISTRY_GLOBAL_CREDENTIAL_PROVIDERS: 'cargo:token',
        CARGO_TERM_COLOR: 'never',
        CARGO_REGISTRIES_BENCH_INDEX: index,
        CARGO_REGISTRIES_BENCH_TOKEN: token,
      }
      const started = performance.now()
      await run(CARGO, ['fetch'], { cwd: app, env })
      const seconds = (performance.now() - started) / 1000
      const fetched = fs
        .readdirSync(path.join(home, 'registry', 'cache'))
        .flatMap((d) => fs.readdirSync(path.join(home, 'registry', 'cache', d)))
      if (fetched.length !== CRATES) throw new Error(`cargo fetch: ${fetched.length} crates, not ${CRATES}`)
      fs.rmSync(home, { recursive: true, force: true, maxRetries: 3 })
      return seconds
    }
    const trove = `sparse+${url}/api/cargo/cargo-remote/index/`
    const coldSeconds = await fetchGraph(trove) // fills the remote's cache
    const troveTimes = []
    const staticTimes = []
    for (let i = 0; i < 3; i++) {
      troveTimes.push(await fetchGraph(trove))
      staticTimes.push(await fetchGraph(`sparse+http://127.0.0.1:${port}/index/`))
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[1]
    const t = median(troveTimes)
    const s = median(staticTimes)
    row(
      'cargo fetch, 50-crate graph, warm remote',
      `${t.toFixed(2)} / ${s.toFixed(2)}`,
      's Trove / static',
      '< static server',
      t < s,
      `median of 3 alternating rounds (Trove ${troveTimes.map((x) => x.toFixed(2)).join(', ')}; python3 http.server ${staticTimes.map((x) => x.toFixed(2)).join(', ')}); the cold run that filled the cache ${coldSeconds.toFixed(2)} s`,
    )
  } finally {
    server.kill()
  }
}

/** A .crate as cargo package makes it: a gzipped tar of `<name>-<version>/`. */
function crateOf(dir, name, version, deps) {
  const root = path.join(dir, `${name}-${version}`)
  fs.mkdirSync(path.join(root, 'src'), { recursive: true })
  fs.writeFileSync(path.join(root, 'Cargo.toml'), `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\n`)
  fs.writeFileSync(path.join(root, 'src', 'lib.rs'), `pub const V: &str = "${version}";\n${'// filler\n'.repeat(200)}`)
  fs.writeFileSync(path.join(root, 'README.md'), `# ${name}\n\nBench crate.\n`)
  execFileSync('tar', ['-czf', `${root}.crate`, `${name}-${version}`], { cwd: dir })
  const crate = fs.readFileSync(`${root}.crate`)
  const json = Buffer.from(
    JSON.stringify({ name, vers: version, deps, features: {}, description: 'Bench crate', license: 'MIT', readme: null }),
  )
  const a = Buffer.alloc(4)
  a.writeUInt32LE(json.length)
  const b = Buffer.alloc(4)
  b.writeUInt32LE(crate.length)
  return Buffer.concat([a, json, b, crate])
}

/** @param {(name: string, value: string, unit: string, target: string, ok: boolean, note?: string) => void} row */
export async function benchCargo(row, start = startServer) {
  const server = await start({ TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD })
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-cargo-'))
  try {
    const session = await signInAdmin(server.url, ADMIN_PASSWORD)
    const { access_token: token } = await (
      await fetch(`${server.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ expiresIn: 86400 }),
      })
    ).json()
    const repo = await fetch(`${server.url}/api/repositories/cargo-local`, {
      method: 'PUT',
      headers: session,
      body: JSON.stringify({ rclass: 'local', packageType: 'cargo' }),
    })
    if (repo.status !== 201) throw new Error(`repository: ${repo.status}`)
    // Cargo's header: the token itself, no scheme.
    const auth = { authorization: token }
    const base = `${server.url}/api/cargo/cargo-local`
    const times = []
    for (let i = 0; i < CRATES; i++) {
      const name = `bench-crate-${String(i).padStart(2, '0')}`
      const deps =
        i > 0
          ? [
              {
                name: `bench-crate-${String(i - 1).padStart(2, '0')}`,
                version_req: '^1',
                features: [],
                optional: false,
                default_features: true,
                target: null,
                kind: 'normal',
                registry: null,
              },
            ]
          : []
      for (const version of ['1.0.0', '1.1.0', '1.2.0']) {
        const body = crateOf(work, name, version, deps)
        const t0 = performance.now()
        const res = await fetch(`${base}/api/v1/crates/new`, { method: 'PUT', headers: auth, body })
        if (res.status !== 200) throw new Error(`publish ${name} ${version}: ${res.status} ${await res.text()}`)
        times.push(performance.now() - t0)
      }
    }
    times.sort((a, b) => a - b)
    row(
      'cargo: publish request (p50)',
      times[Math.floor(times.length / 2)].toFixed(1),
      'ms',
      '-',
      null,
      `${times.length} versions`,
    )

    const index = await throughput(`${base}/index/be/nc/bench-crate-25`, auth)
    row(
      'cargo: index file',
      Math.round(index.rps),
      'req/s',
      '>= 5000',
      index.rps >= 5000 && index.errors === 0,
      `p50 ${index.p50} ms, 3 lines, ${index.errors} errors`,
    )
    const config = await throughput(`${base}/index/config.json`, auth)
    row(
      'cargo: index config.json',
      Math.round(config.rps),
      'req/s',
      '>= 5000',
      config.rps >= 5000 && config.errors === 0,
      `p50 ${config.p50} ms`,
    )
    const download = await throughput(`${base}/api/v1/crates/bench-crate-25/1.2.0/download`, auth)
    row(
      'cargo: .crate download',
      Math.round(download.rps),
      'req/s',
      '-',
      null,
      `p50 ${download.p50} ms, ${download.errors} errors`,
    )
    await graphFetch(row, server.url, session, token, work)
  } finally {
    await server.stop()
    fs.rmSync(work, { recursive: true, force: true })
  }
}
