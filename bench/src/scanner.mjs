// The security scanner on a large database: 200,000 advisories and 100,000 scanned versions
// (10,000 npm packages of 10 versions, each version with itself and two dependencies as stored
// components), bulk-inserted into a migrated SQLite database with the server stopped. Then, on the
// running server with the scanner module:
//   1. a new version published with the npm registry protocol, timed until its scan is visible
//      through the console's summary call (p50 of PUBLISHES publishes);
//   2. an OSV import of 1,000 advisories naming packages that stored versions use, timed until the
//      import call answers (it re-evaluates the touched components before answering).
// BENCH_SCANNER_SMALL=1 runs a tenth of the data set (a quick check of the suite itself).
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { signInAdmin, startServer } from './server.mjs'
import { percentile } from './stats.mjs'

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url))
const tar = serverRequire('tar-stream')
const { semverKey } = await import(new URL('../../apps/server/dist/src/storage/semverKey.js', import.meta.url).href)

const SMALL = process.env.BENCH_SCANNER_SMALL === '1'
const ADVISORIES = SMALL ? 20_000 : 200_000
const PACKAGES = SMALL ? 1_000 : 10_000
const VERSIONS_PER_PACKAGE = 10
/** Libraries the packages depend on; advisories name some of them. */
const LIBRARIES = SMALL ? 500 : 5_000
const PUBLISHES = 30
const TOUCHED = 1_000
const PASSWORD = 'bench-admin-password'
const SEVERITIES = ['critical', 'high', 'medium', 'low']

function rng(seed) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** An advisory's OSV record: one npm package, versions below `fixed` affected. */
function osvRecord(id, name, fixed, severity, modified) {
  return {
    schema_version: '1.6.0',
    id,
    modified,
    published: '2025-01-01T00:00:00Z',
    summary: `${severity} issue in ${name}`,
    details: `Versions of ${name} before ${fixed} are affected.`,
    affected: [
      {
        package: { ecosystem: 'npm', name },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }],
      },
    ],
    database_specific: { severity: severity.toUpperCase() },
  }
}

/** Fills the migrated database: advisories, packages, versions, their scan status and components. */
function fill(dbFile) {
  const SQLite = serverRequire('better-sqlite3')
  const db = new SQLite(dbFile)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const rand = rng(7)
  const now = Date.now()
  db.prepare(
    "INSERT INTO repositories (key, rclass, package_type, created_at, updated_at) VALUES ('npm-local', 'local', 'npm', 0, 0)",
  ).run()
  const adv = db.prepare(
    "INSERT INTO advisories (id, modified, published, aliases, summary, details, severity, refs, imported_at) VALUES (?, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', '[]', ?, '', ?, '[]', ?)",
  )
  const advPkg = db.prepare(
    "INSERT INTO advisory_packages (advisory_id, ecosystem, release, name, affected) VALUES (?, 'npm', '', ?, ?)",
  )
  db.transaction(() => {
    for (let i = 0; i < ADVISORIES; i++) {
      // A tenth of the advisories name the libraries stored versions use; the rest, other packages.
      const name = i % 10 === 0 ? `lib-${(i / 10) % LIBRARIES}` : `other-${i}`
      const fixed = `1.${1 + Math.floor(rand() * 9)}.0`
      const severity = SEVERITIES[i % 4]
      adv.run(`BENCH-${i}`, `${severity} issue in ${name}`, severity, now)
      advPkg.run(
        `BENCH-${i}`,
        name,
        JSON.stringify({ ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }], versions: [] }),
      )
    }
  })()
  const pkg = db.prepare(
    "INSERT INTO packages (id, package_type, name, lowercase_name, description, latest_version, downloads, created_at, modified_at) VALUES (?, 'npm', ?, ?, '', ?, 0, ?, ?)",
  )
  const ver = db.prepare(
    "INSERT INTO package_versions (id, package_id, repo_key, version, semver_key, release, size, created_at, modified_at) VALUES (?, ?, 'npm-local', ?, ?, 1, 100, ?, ?)",
  )
  const status = db.prepare("INSERT INTO scan_status (version_id, state, claimed_at, scanned_at) VALUES (?, 'scanned', ?, ?)")
  const comp = db.prepare(
    "INSERT INTO scan_components (version_id, ecosystem, release, name, version, path, licenses) VALUES (?, 'npm', '', ?, ?, ?, '[]')",
  )
  let versionId = 0
  db.transaction(() => {
    for (let p = 1; p <= PACKAGES; p++) {
      const name = `pkg-${p}`
      pkg.run(p, name, name, `1.0.${VERSIONS_PER_PACKAGE - 1}`, now, now)
      for (let v = 0; v < VERSIONS_PER_PACKAGE; v++) {
        versionId++
        const version = `1.0.${v}`
        ver.run(versionId, p, version, semverKey(version), now, now)
        status.run(versionId, now, now)
        comp.run(versionId, name, version, '')
        for (let d = 0; d < 2; d++) {
          const lib = `lib-${Math.floor(rand() * LIBRARIES)}`
          comp.run(versionId, lib, `1.${Math.floor(rand() * 10)}.0`, `${name}@${version}`)
        }
      }
    }
  })()
  db.exec('ANALYZE')
  db.close()
  return versionId
}

/** An npm publish body (the registry protocol npm uses) of a real tarball. */
async function publishBody(name, version, dependencies) {
  const manifest = { name, version, license: 'MIT', dependencies }
  const pack = tar.pack()
  pack.entry({ name: 'package/package.json' }, JSON.stringify(manifest))
  pack.entry({ name: 'package/index.js' }, 'module.exports = 1\n')
  pack.finalize()
  const chunks = []
  for await (const c of pack) chunks.push(c)
  const tgz = zlib.gzipSync(Buffer.concat(chunks))
  const file = `${name}-${version}.tgz`
  return {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: {
      [version]: {
        ...manifest,
        _id: `${name}@${version}`,
        dist: {
          shasum: crypto.createHash('sha1').update(tgz).digest('hex'),
          integrity: `sha512-${crypto.createHash('sha512').update(tgz).digest('base64')}`,
          tarball: `http://localhost/api/npm/npm-local/${name}/-/${file}`,
        },
      },
    },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: tgz.toString('base64'), length: tgz.length } },
  }
}

export async function benchScanner(row) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-scanner-'))
  const env = { TROVE_DATA_DIR: dataDir, TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_MODULES: 'repository,scanner' }
  const first = await startServer(env)
  await first.stop()
  const t0 = performance.now()
  const versions = fill(path.join(dataDir, 'trove.db'))
  const fillS = ((performance.now() - t0) / 1000).toFixed(0)
  const server = await startServer(env)
  try {
    // The scanner calls are POSTs: a session counts for them only with its CSRF token, as the console sends it.
    const headers = await signInAdmin(server.url, PASSWORD)
    const summary = async (name, version) => {
      const res = await fetch(`${server.url}/ui/api/v1/xray/ui/component/summary`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ package_id: `npm://${name}`, version }),
      })
      return res.status === 200 ? (await res.json()).state : `HTTP ${res.status}`
    }
    const note = `${ADVISORIES.toLocaleString('en')} advisories, ${versions.toLocaleString('en')} versions stored (filled in ${fillS} s); load ${os.loadavg()[0].toFixed(1)}`

    // 1. A new version: publish, then poll the console's summary until the scan shows.
    const times = []
    for (let i = 0; i < PUBLISHES; i++) {
      const name = `fresh-${i}`
      const body = JSON.stringify(await publishBody(name, '1.0.0', { [`lib-${i}`]: '1.0.0', [`lib-${i + 1}`]: '^1.2.0' }))
      const started = performance.now()
      const res = await fetch(`${server.url}/api/npm/npm-local/${name}`, { method: 'PUT', headers, body })
      if (res.status !== 200 && res.status !== 201) throw new Error(`publish ${name}: ${res.status} ${await res.text()}`)
      for (;;) {
        const state = await summary(name, '1.0.0')
        if (state === 'scanned') break
        if (state !== 'waiting' && state !== 'scanning') throw new Error(`scan of ${name}: ${state}`)
        await new Promise((r) => setTimeout(r, 2))
      }
      times.push(performance.now() - started)
    }
    const p50 = Math.round(percentile(times, 50))
    row(
      'scanner: new version scanned and visible, p50',
      p50,
      'ms',
      '< 200',
      p50 < 200,
      `${note}; p90 ${Math.round(percentile(times, 90))} ms; ${PUBLISHES} publishes`,
    )

    // 2. An update touching 1,000 advisories that name libraries the stored versions use.
    const records = []
    for (let k = 0; k < TOUCHED; k++) {
      const i = k * 10 // the advisories that name lib-*
      records.push(osvRecord(`BENCH-${i}`, `lib-${(i / 10) % LIBRARIES}`, '1.5.0', SEVERITIES[k % 4], '2026-01-01T00:00:00Z'))
    }
    const started = performance.now()
    const res = await fetch(`${server.url}/ui/api/v1/xray/ui/admin/database/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify(records),
    })
    const seconds = (performance.now() - started) / 1000
    if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`)
    const result = await res.json()
    row(
      'scanner: re-evaluation after 1,000 advisories change',
      seconds.toFixed(1),
      's',
      '< 30',
      seconds < 30,
      `${result.reevaluated.components.toLocaleString('en')} components of ${result.reevaluated.versions.toLocaleString('en')} versions re-matched`,
    )
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
