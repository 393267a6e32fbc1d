// The cluster bench's loads: autocannon sending the mix (clusterData.mjs), with the CPU of every
// process of the set-up read from /proc around the measured window.
import os from 'node:os'
import autocannon from 'autocannon'
import { mix } from './clusterData.mjs'
import { cpuOf, cpuSeconds, cpuSplit, machineCpu } from './clusterProcesses.mjs'

export const CONNECTIONS = 20
/** The processes whose CPU is counted, by role. */
export const ROLES = ['trove', 'haproxy', 'postgres', 's3rver', 'load']

/** autocannon with `connections` connections for `duration` seconds; at most `rate` requests a second when given. */
export function cannon(url, requests, duration, rate = 0, connections = CONNECTIONS) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections, duration, requests, ...(rate > 0 ? { overallRate: rate } : {}) }, (err, r) =>
      err ? reject(err) : resolve(r),
    ),
  )
}

/**
 * Every process's CPU seconds so far, by role: `procs` names the Trove nodes' pids, haproxy's
 * (when one is in the path), the PostgreSQL server and s3rver's pid; `load` is this process, where
 * autocannon runs.
 */
function cpuNow(procs) {
  const own = process.cpuUsage()
  return {
    trove: procs.nodes.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    troveSystem: procs.nodes.reduce((sum, pid) => sum + cpuSplit(pid).system, 0),
    haproxy: procs.haproxy ? cpuSeconds(procs.haproxy) : 0,
    postgres: procs.postgres.cpu(),
    s3rver: cpuOf(procs.s3rver),
    load: (own.user + own.system) / 1e6,
    machine: machineCpu(),
  }
}

/** autocannon for `seconds` with every role's CPU seconds read around it. */
async function measured(url, requests, seconds, procs, rate = 0, connections = CONNECTIONS) {
  const before = cpuNow(procs)
  const r = await cannon(url, requests, seconds, rate, connections)
  const after = cpuNow(procs)
  const cpu = Object.fromEntries(ROLES.map((role) => [role, after[role] - before[role]]))
  const cores = os.cpus().length
  const wall = (after.machine.all - before.machine.all) / cores
  return {
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.non2xx + r.timeouts,
    seconds: r.duration,
    connections,
    cpu,
    // Of Trove's, the seconds in the kernel (sockets, files, scheduling).
    troveSystem: after.troveSystem - before.troveSystem,
    // Cores the whole machine kept busy meanwhile, ours and everyone else's.
    busyCores: (after.machine.busy - before.machine.busy) / wall,
  }
}

/** The mix through `url` for `seconds`, unmeasured: JIT, caches and connection pools warmed. */
export async function warmUp(url, data, token, bearer, seconds) {
  await cannon(url, mix(data, token, bearer).requests, seconds)
}

/**
 * One load of the mix through `url`: `warm` seconds unmeasured, then `seconds` measured; as fast as
 * the connections go, or at `rate` requests a second.
 */
export async function load(url, procs, data, token, bearer, warm, seconds, rate = 0, connections = CONNECTIONS) {
  const { requests, puts } = mix(data, token, bearer)
  await cannon(url, requests, warm, rate, connections)
  const before = puts.count
  const result = await measured(url, requests, seconds, procs, rate, connections)
  return { ...result, puts: puts.count - before }
}

export const KIND_LABELS = {
  packument: 'npm packument',
  tarball: 'npm tarball',
  pypi: 'PyPI simple page',
  layer: 'OCI layer (~96 KB)',
  config: 'OCI config blob',
  put: 'generic deploy (2 KB)',
}

/** Each kind of request of the mix alone, sent to `url` (a node) for `seconds` after 2 s of warm-up; by kind, with its share of the mix. */
export async function kindCosts(url, procs, data, token, bearer, seconds) {
  const { requests, kinds } = mix(data, token, bearer)
  const results = {}
  for (const kind of Object.keys(KIND_LABELS)) {
    const only = requests.filter((_, i) => kinds[i] === kind)
    await cannon(url, only, 2)
    results[kind] = { ...(await measured(url, only, seconds, procs)), share: only.length / requests.length }
  }
  return results
}

/**
 * One node's CPU with no requests, then with the mix at each of `rates` requests a second (sent to
 * it directly, 2 s of warm-up each): what a request costs as the node gets busier.
 */
export async function costByRate(url, procs, data, token, bearer, rates, seconds) {
  const before = cpuSeconds(procs.nodes[0])
  await new Promise((r) => setTimeout(r, seconds * 1000))
  const idle = (cpuSeconds(procs.nodes[0]) - before) / seconds
  const byRate = []
  for (const rate of rates) byRate.push({ asked: rate, ...(await load(url, procs, data, token, bearer, 2, seconds, rate)) })
  return { idle, byRate }
}

/**
 * What another node's writes cost a node's reads: packument GETs sent to `reader` at `readRate` a
 * second while `writer` takes generic deploys at each of `writeRates` a second (a write on one node
 * drops the caches it touches on every other node). The reader's CPU per GET, by write rate.
 */
export async function crossNodeWrites(reader, writer, procs, data, token, bearer, readRate, writeRates, seconds) {
  const { requests, kinds } = mix(data, token, bearer)
  const reads = requests.filter((_, i) => kinds[i] === 'packument')
  const writes = requests.filter((_, i) => kinds[i] === 'put')
  const results = []
  for (const writeRate of writeRates) {
    const writing = writeRate > 0 ? cannon(writer, writes, seconds + 2, writeRate, 4) : undefined
    await cannon(reader, reads, 1, readRate)
    const before = cpuSeconds(procs.nodes[0])
    const r = await cannon(reader, reads, seconds, readRate)
    const cpu = cpuSeconds(procs.nodes[0]) - before
    const w = await writing
    results.push({
      writeRate,
      writes: w ? w.requests.total / w.duration : 0,
      reads: r.requests.total / r.duration,
      perRead: (cpu / r.requests.total) * 1e6,
      p99: r.latency.p99,
      errors: r.non2xx + r.errors + (w ? w.non2xx + w.errors : 0),
    })
  }
  return results
}
