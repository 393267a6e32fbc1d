// Cargo: the sparse-index requests cargo makes most (config.json, a crate's index file) and the
// download of a .crate, requests per second with 20 keep-alive connections and the raw token
// Cargo sends; and the time of a `cargo publish` request (body split, archive checked, recorded).

import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { throughput } from './load.mjs'
import { signInAdmin, startServer } from './server.mjs'

const ADMIN_PASSWORD = 'bench-admin-password'
const CRATES = 50

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
  } finally {
    await server.stop()
    fs.rmSync(work, { recursive: true, force: true })
  }
}
