// The packages metadata API on a large data set: 100,000 packages and 1,000,000 versions (one
// package holds 10,000 of them; see packagesData.mjs), bulk-inserted into a migrated database, then
// the console's metadata calls measured with autocannon at 20 connections — on SQLite and on a
// throwaway PostgreSQL cluster.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { fillPostgres, fillSqlite } from './packagesData.mjs'
import { freePort, signInAdmin, startServer } from './server.mjs'

const { PACKAGES_QUERY, VERSIONS_QUERY } = await import('@trove/contracts/packages')

const ADMIN_PASSWORD = 'bench-admin-password'
const CONNECTIONS = 20
const DURATION_S = Number(process.env.BENCH_PACKAGES_SECONDS ?? 10)

/** A throwaway PostgreSQL cluster (as scripts/with-postgres.sh makes one); stop() removes it. */
export async function startPostgres() {
  const root = '/usr/lib/postgresql'
  const version = fs.existsSync(root) ? fs.readdirSync(root).sort().at(-1) : undefined
  const bin = version ? path.join(root, version, 'bin') : undefined
  if (!bin || !fs.existsSync(path.join(bin, 'initdb'))) return undefined
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-pg-'))
  const port = await freePort()
  const asOwner = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  if (asOwner.length > 0) execFileSync('chown', ['postgres', dir])
  const spawnAs = (cmd, args) => {
    const [exe, ...rest] = [...asOwner, cmd, ...args]
    return spawnSync(exe, rest, { encoding: 'utf8' })
  }
  const run = (cmd, args) => {
    const res = spawnAs(cmd, args)
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr}`)
  }
  run(path.join(bin, 'initdb'), ['-D', `${dir}/data`, '-U', 'trove', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  run(path.join(bin, 'pg_ctl'), [
    '-D',
    `${dir}/data`,
    '-l',
    `${dir}/server.log`,
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=256MB`,
    'start',
  ])
  return {
    url: `postgres://trove@127.0.0.1:${port}/postgres`,
    stop() {
      spawnAs(path.join(bin, 'pg_ctl'), ['-D', `${dir}/data`, '-m', 'immediate', 'stop'])
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function measure(url, headers, label, body) {
  const post = (payload) =>
    fetch(`${url}/ui/api/v1/mds/${label}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
    })
  // The answer is checked once, then warmed up, then measured.
  const check = await post(body)
  const json = await check.json()
  const edges = json.data?.[label]?.edges
  if (check.status !== 200 || !Array.isArray(edges) || edges.length !== 100) {
    throw new Error(`${label}: ${check.status} ${JSON.stringify(json).slice(0, 300)}`)
  }
  const run = (seconds, connections = CONNECTIONS) =>
    autocannon({
      url: `${url}/ui/api/v1/mds/${label}`,
      method: 'POST',
      connections,
      duration: seconds,
      headers,
      body: JSON.stringify(body),
    })
  await run(2)
  const result = await run(DURATION_S)
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  // One connection: the time one answer takes, without queueing behind the other 19.
  const single = await run(3, 1)
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: Math.round(result.requests.average),
    single: single.latency.p50,
  }
}

async function benchOn(row, dialectName, env, fill) {
  let dialect = dialectName
  // A first start migrates the empty database; the data goes in with the server stopped.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-packages-'))
  // BENCH_PACKAGES_CACHE_MS=0 measures every answer computed afresh (the answer cache off).
  const cacheMs = process.env.BENCH_PACKAGES_CACHE_MS
  const common = {
    TROVE_DATA_DIR: dataDir,
    TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...(cacheMs !== undefined ? { TROVE_PACKAGES_CACHE_MS: cacheMs } : {}),
    ...env,
  }
  if (cacheMs === '0') dialect = `${dialect}, cache off`
  const first = await startServer(common)
  await first.stop()
  const t0 = performance.now()
  await fill(dataDir)
  const fillS = ((performance.now() - t0) / 1000).toFixed(0)
  const server = await startServer(common)
  try {
    // The metadata calls are POSTs: a session counts for them only with its CSRF token, as the console sends it.
    const headers = await signInAdmin(server.url, ADMIN_PASSWORD)
    const load = os.loadavg()[0].toFixed(1)
    const note = `${dialect}; load ${load}; data set filled in ${fillS} s`
    const list = await measure(server.url, headers, 'packages', {
      graphQL: { query: PACKAGES_QUERY, variables: { filter: { package_type: '*', versionCountMin: 1 }, first: 100 } },
    })
    row(
      `packages list, first page of 100 (${dialect}), p50`,
      list.p50,
      'ms',
      '< 10',
      list.p50 < 10,
      `${note}; ${list.rps} req/s; 1 connection p50 ${list.single} ms`,
    )
    row(`packages list, first page of 100 (${dialect}), p99`, list.p99, 'ms', '< 50', list.p99 < 50, note)
    const search = await measure(server.url, headers, 'packages', {
      graphQL: {
        query: PACKAGES_QUERY,
        variables: { filter: { package_type: '*', lowercase_name: 'react*', versionCountMin: 1 }, first: 100 },
      },
    })
    row(
      `packages name-prefix search (${dialect}), p50`,
      search.p50,
      'ms',
      '< 20',
      search.p50 < 20,
      `react*; ${search.rps} req/s; p99 ${search.p99} ms; 1 connection p50 ${search.single} ms`,
    )
    // Any part of a name (filter.search): the trigram index's candidates, ranked, first page.
    const substring = await measure(server.url, headers, 'packages', {
      graphQL: {
        query: PACKAGES_QUERY,
        variables: { filter: { package_type: '*', search: 'script', versionCountMin: 1 }, first: 100 },
      },
    })
    row(
      `packages substring search (${dialect}), p50`,
      substring.p50,
      'ms',
      '< 20',
      substring.p50 < 20,
      `"script" (typescript-…, …-typescript-…); ${substring.rps} req/s; p99 ${substring.p99} ms; 1 connection p50 ${substring.single} ms`,
    )
    const versions = await measure(server.url, headers, 'versions', {
      graphQL: { query: VERSIONS_QUERY, variables: { filter: { packageId: 'npm://big-package' }, first: 100 } },
    })
    row(
      `versions page of a 10,000-version package (${dialect}), p50`,
      versions.p50,
      'ms',
      '< 15',
      versions.p50 < 15,
      `semver order; ${versions.rps} req/s; p99 ${versions.p99} ms; 1 connection p50 ${versions.single} ms`,
    )
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** @param {import('./stats.mjs').Row} row */
export async function benchPackages(row) {
  await benchOn(row, 'SQLite', {}, (dataDir) => fillSqlite(path.join(dataDir, 'trove.db')))
  const pg = await startPostgres()
  if (!pg) {
    row('packages on PostgreSQL', '-', '', 'runs', false, 'no PostgreSQL binaries under /usr/lib/postgresql')
    return
  }
  try {
    await benchOn(row, 'PostgreSQL', { TROVE_DATABASE_URL: pg.url }, () => fillPostgres(pg.url))
  } finally {
    pg.stop()
  }
}
