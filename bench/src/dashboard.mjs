// The Overview dashboard (GET /ui/api/v1/ui/dashboard) on a large instance: 1,000,000 files in 40
// repositories stored over a year and 10,000,000 download events over 60 days, written into a
// migrated SQLite database with the server stopped, through the roll-up's own triggers (migration
// 0133): each file insert and each download-count update (the shape storage/artifacts.ts flushes)
// records its change as the server's own writes do. The server then folds them, once, and answers
// every call from the folded rows.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { signInAdmin, startServer } from './server.mjs'
import { median, percentile } from './stats.mjs'

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url))

const PASSWORD = 'bench-admin-password'
export const FILES = 1_000_000
export const DOWNLOADS = 10_000_000
const REPOSITORIES = 40
const PACKAGES = 20_000
/** Download events per count update: what one file gathers in a flush on a busy node. */
const PER_FLUSH_ROW = 50
const RUNS = 200
const TARGET_MS = 200
const DAY_MS = 86_400_000
const TYPES = ['generic', 'npm', 'maven', 'docker', 'pypi']

function rng(seed) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/**
 * Fills a migrated SQLite database: repositories, a year of files (sizes from 1 KB to 8 MB, more in
 * the first repositories), download counts flushed over the last 60 days (fewer on weekends),
 * packages with versions whose scans found something.
 */
export function fillDashboardSqlite(dbFile, { files = FILES, downloads = DOWNLOADS, now = Date.now() } = {}) {
  const SQLite = serverRequire('better-sqlite3')
  const db = new SQLite(dbFile)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const rand = rng(7)
  const repos = Array.from({ length: REPOSITORIES }, (_, i) => ({
    key: `${TYPES[i % TYPES.length]}-${['release', 'snapshot', 'thirdparty', 'builds', 'images', 'cache', 'tools', 'edge'][i % 8]}-${i}`,
    type: TYPES[i % TYPES.length],
  }))
  // Repository i holds a share proportional to 1 / (i + 1): a few large ones, a long tail.
  const weights = repos.map((_, i) => 1 / (i + 1))
  const total = weights.reduce((a, b) => a + b, 0)
  const cumulative = []
  let acc = 0
  for (const w of weights) {
    acc += w / total
    cumulative.push(acc)
  }
  const pick = () => {
    const x = rand()
    const i = cumulative.findIndex((c) => x <= c)
    return repos[i === -1 ? repos.length - 1 : i]
  }
  const today = Math.floor(now / DAY_MS)
  db.transaction(() => {
    const repo = db.prepare(
      "INSERT INTO repositories (key, rclass, package_type, created_at, updated_at) VALUES (?, 'local', ?, 0, 0)",
    )
    for (const r of repos) repo.run(r.key, r.type)
    db.prepare('INSERT INTO blobs (sha256, size, md5, sha1, created_at, touched_at) VALUES (?, 1, ?, ?, 0, 0)').run(
      'a'.repeat(64),
      'b'.repeat(32),
      'c'.repeat(40),
    )
    const pkg = db.prepare(
      'INSERT INTO packages (id, package_type, name, lowercase_name, latest_version, downloads, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const ver = db.prepare(
      "INSERT INTO package_versions (id, package_id, repo_key, version, created_by, created_at, modified_at) VALUES (?, ?, ?, ?, 'ci', ?, ?)",
    )
    const scan = db.prepare(
      "INSERT INTO scan_status (version_id, state, claimed_at, scanned_at, critical, high, medium, low, unknown) VALUES (?, 'scanned', ?, ?, ?, ?, ?, ?, ?)",
    )
    for (let id = 1; id <= PACKAGES; id++) {
      const r = pick()
      const name = `${['core', 'web', 'api', 'data', 'auth', 'ui', 'cli', 'sdk'][id % 8]}-${['client', 'server', 'utils', 'kit', 'lib'][id % 5]}-${id}`
      const at = now - Math.floor(rand() * 365) * DAY_MS
      pkg.run(id, r.type, name, name, '1.0.0', Math.floor(rand() ** 8 * 400_000), at, at)
      ver.run(id, id, r.key, '1.0.0', at, at)
      const bad = rand()
      scan.run(
        id,
        at,
        at + id,
        bad > 0.995 ? 1 + Math.floor(rand() * 3) : 0,
        bad > 0.97 ? 1 : 0,
        bad > 0.9 ? 2 : 0,
        bad > 0.8 ? 1 : 0,
        0,
      )
    }
  })()
  // Files, a year of them, through the insert trigger.
  const file = db.prepare(
    "INSERT INTO files (repo_key, path, name, size, md5, sha1, sha256, mime_type, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'application/octet-stream', ?, ?)",
  )
  const batch = 20_000
  for (let start = 0; start < files; start += batch) {
    db.transaction(() => {
      for (let i = start; i < Math.min(files, start + batch); i++) {
        const r = pick()
        // More recent days hold more files: a repository grows.
        const ago = Math.floor(365 * rand() ** 1.6)
        const at = (today - ago) * DAY_MS + Math.floor(rand() * DAY_MS)
        const size = Math.floor(1024 + rand() ** 3 * 8 * 1024 * 1024)
        file.run(
          r.key,
          `dir-${i % 1000}/file-${i}.bin`,
          `file-${i}.bin`,
          size,
          'b'.repeat(32),
          'c'.repeat(40),
          'a'.repeat(64),
          at,
          at,
        )
      }
    })()
  }
  // Downloads: count updates as the flush writes them, each on the day of its last download.
  // A weekend day draws half as often; the draws go on until every event is counted.
  const count = db.prepare('UPDATE files SET download_count = download_count + ?, last_downloaded_at = ? WHERE id = ?')
  let left = downloads
  while (left > 0) {
    db.transaction(() => {
      for (let u = 0; u < batch && left > 0; u++) {
        const id = 1 + Math.floor(rand() ** 2 * files)
        const ago = Math.floor(60 * rand() ** 1.3)
        const weekday = new Date((today - ago) * DAY_MS).getUTCDay()
        if ((weekday === 0 || weekday === 6) && rand() < 0.5) continue
        const n = Math.min(PER_FLUSH_ROW, left)
        count.run(n, (today - ago) * DAY_MS + 3_600_000, id)
        left -= n
      }
    })()
  }
  db.exec('ANALYZE')
  const flushMs = { with: flushCost(db, files, rand), without: 0 }
  // The same statements without the download trigger, undone after.
  db.exec('BEGIN')
  db.exec('DROP TRIGGER dashboard_files_downloads')
  flushMs.without = flushCost(db, files, rand)
  db.exec('ROLLBACK')
  const pending = db.prepare('SELECT count(*) AS n FROM dashboard_deltas').get().n
  db.close()
  return { repos, pending, flushMs }
}

/**
 * The time of one download-count flush of 500 files, in the statement storage/artifacts.ts writes
 * (one UPDATE with `case id when … then …`), median of 50, inside a savepoint rolled back after.
 */
function flushCost(db, files, rand) {
  const times = []
  db.exec('SAVEPOINT flush_cost')
  for (let n = 0; n < 50; n++) {
    const ids = Array.from({ length: 500 }, () => 1 + Math.floor(rand() * files))
    const unique = [...new Set(ids)]
    const cases = unique.map((id) => `when ${id} then cast(3 as bigint)`).join(' ')
    const at = unique.map((id) => `when ${id} then cast(${Date.now()} as bigint)`).join(' ')
    const statement = db.prepare(
      `UPDATE files SET download_count = download_count + (case id ${cases} end), last_downloaded_at = (case id ${at} end) WHERE id IN (${unique.join(',')})`,
    )
    const t0 = performance.now()
    statement.run()
    times.push(performance.now() - t0)
  }
  db.exec('ROLLBACK TO flush_cost')
  db.exec('RELEASE flush_cost')
  return median(times)
}

async function timed(url, headers) {
  const t0 = performance.now()
  const res = await fetch(`${url}/ui/api/v1/ui/dashboard`, { headers })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`dashboard: ${res.status} ${JSON.stringify(body)}`)
  return { ms: performance.now() - t0, body }
}

/** The dashboard's answer time, as an administrator and as a user who reads half the repositories. */
export async function benchDashboard(row) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-dashboard-'))
  const env = { TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_DATA_DIR: dataDir, TROVE_MODULES: 'repository,scanner' }
  const first = await startServer(env)
  await first.stop()
  const seeding = performance.now()
  const { repos, pending, flushMs } = fillDashboardSqlite(path.join(dataDir, 'trove.db'))
  const seedS = (performance.now() - seeding) / 1000
  const server = await startServer(env)
  try {
    const admin = await signInAdmin(server.url, PASSWORD)
    const cold = await timed(server.url, { cookie: admin.cookie })
    const files = cold.body.totals.files
    if (files !== FILES) throw new Error(`the dashboard counts ${files} files, not ${FILES}`)
    const downloads = cold.body.traffic.reduce((s, t) => s + t.downloads, 0)

    const adminMs = []
    for (let i = 0; i < RUNS; i++) adminMs.push((await timed(server.url, { cookie: admin.cookie })).ms)

    // A plain user with read on every other repository.
    const created = await fetch(`${server.url}/ui/api/v1/ui/admin/users`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name: 'reader', password: 'reader-password-1', email: 'reader@example.com' }),
    })
    if (created.status !== 201) throw new Error(`user: ${created.status}`)
    const granted = await fetch(`${server.url}/ui/api/v1/ui/admin/permissions`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        name: 'half',
        repositories: {
          resources: { names: repos.filter((_, i) => i % 2 === 0).map((r) => r.key), include: [], exclude: [] },
          grants: [{ kind: 'user', name: 'reader', actions: ['read'] }],
        },
      }),
    })
    if (granted.status !== 201) throw new Error(`permission: ${granted.status} ${await granted.text()}`)
    const login = await fetch(`${server.url}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'reader', password: 'reader-password-1', type: 'login' }),
    })
    const readerCookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const userMs = []
    for (let i = 0; i < RUNS; i++) userMs.push((await timed(server.url, { cookie: readerCookie })).ms)

    const label = `${(FILES / 1e6).toFixed(0)}M files, ${(DOWNLOADS / 1e6).toFixed(0)}M download events, ${REPOSITORIES} repositories`
    row(
      'dashboard: seed through the triggers',
      seedS.toFixed(1),
      's',
      '-',
      null,
      `${label}; ${pending.toLocaleString('en')} changes recorded`,
    )
    row('dashboard: first answer (folds every change)', cold.ms.toFixed(0), 'ms', '-', null, `once, after the bulk load`)
    const p50 = median(adminMs)
    row(
      'dashboard p50, administrator',
      p50.toFixed(1),
      'ms',
      `< ${TARGET_MS}`,
      p50 < TARGET_MS,
      `p95 ${percentile(adminMs, 95).toFixed(1)} ms, ${RUNS} calls`,
    )
    const u50 = median(userMs)
    row(
      'dashboard p50, user reading 20 repositories',
      u50.toFixed(1),
      'ms',
      `< ${TARGET_MS}`,
      u50 < TARGET_MS,
      `p95 ${percentile(userMs, 95).toFixed(1)} ms`,
    )
    row(
      'dashboard: a 500-file download flush',
      flushMs.with.toFixed(2),
      'ms',
      '-',
      null,
      `${flushMs.without.toFixed(2)} ms without the roll-up's trigger; off the request path either way`,
    )
    row('dashboard: downloads in the last 30 days', downloads.toLocaleString('en'), 'events', '-', null, 'of the 60 days seeded')
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
