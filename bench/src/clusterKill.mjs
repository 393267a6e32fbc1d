// npm run bench -- cluster-kill: the cluster-fault test (apps/server/src/clusterFaults.test.ts) run
// longer: two built nodes on PostgreSQL behind a real nginx from Trove's generated configuration,
// TROVE_BENCH_CLUSTER_S seconds (default 20) of downloads at TROVE_BENCH_CLUSTER_RATE a second
// (default 200) with one node killed half-way; then its PostgreSQL server stopped and started under
// load. Needs nginx and PostgreSQL's binaries (scripts/with-postgres.sh).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const ROOT = new URL('../..', import.meta.url).pathname
const SERVER = path.join(ROOT, 'apps/server')
const SECONDS = Number(process.env.TROVE_BENCH_CLUSTER_S ?? 20)
const RATE = Number(process.env.TROVE_BENCH_CLUSTER_RATE ?? 200)

export async function benchClusterKill(row) {
  const { spawn } = await import('node:child_process')
  const report = path.join(os.tmpdir(), `trove-cluster-${process.pid}.json`)
  const env = {
    ...process.env,
    TROVE_CLUSTER_LOAD_MS: String(SECONDS * 1000),
    TROVE_CLUSTER_RATE: String(RATE),
    TROVE_CLUSTER_REPORT: report,
  }
  const child = spawn(
    path.join(ROOT, 'scripts/with-postgres.sh'),
    [path.join(ROOT, 'node_modules/.bin/vitest'), 'run', 'src/clusterFaults.test.ts', '--reporter=dot'],
    { cwd: SERVER, env, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c ?? 1)))
  const r = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : undefined
  fs.rmSync(report, { force: true })
  if (!r?.requests) {
    row('cluster kill', 'no report', '', '', false, `the test did not run (exit ${code}): nginx and PostgreSQL are needed`)
    return
  }
  const achieved = Math.round(r.requests / (r.loadMs / 1000))
  row(
    'cluster kill: downloads failed',
    `${r.failed} / ${r.requests}`,
    'failed / requests',
    `<= ${r.inFlightOnKilled} (in flight on the killed node)`,
    r.failed <= r.inFlightOnKilled && code === 0,
    `${achieved} req/s for ${r.loadMs / 1000} s through nginx; ${r.inFlightOnKilled} in flight on the killed node at the kill, ${r.movedToOtherNode} of them moved by nginx to the other node and answered; ${r.afterKill} begun after the kill${r.failed ? `; first: ${r.failures[0]}` : ''}`,
  )
  row(
    'cluster kill: time to Offline',
    r.offlineMs,
    'ms',
    `<= 3 heartbeats (${3 * r.heartbeatMs} ms) + a status call`,
    r.offlineMs !== undefined && r.offlineMs <= 3 * r.heartbeatMs + 250,
    `TROVE_HEARTBEAT_MS=${r.heartbeatMs}; status read through nginx every 50 ms`,
  )
  const p = r.pgRestart
  if (p) {
    row(
      'PostgreSQL restart: cached reads',
      `${p.failed} / ${p.requests}`,
      'failed / requests',
      '0 (each download read before the outage)',
      p.failed === 0 && code === 0,
      `${p.outageMs} ms down, ${p.duringOutage} downloads begun meanwhile, all served from the node's caches; writes, sign-in and unread files answered 503; no Trove restart${p.failed ? `; failed: ${p.failedStatuses.join(', ')}` : ''}`,
    )
  }
}
