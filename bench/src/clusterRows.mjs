// The rows of the cluster bench, from what its parts measured.
import os from 'node:os'
import { CONNECTIONS, KIND_LABELS, ROLES } from './clusterLoad.mjs'
import { bucketLabel } from './clusterProcesses.mjs'
import { median, percentile } from './stats.mjs'

/** CPU per request may grow by this much from one node to three and still count as flat on a shared machine. */
const FLAT = 1.25

const f1 = (n) => n.toFixed(1)
const f2 = (n) => n.toFixed(2)
const us = (seconds, requests) => ((seconds / requests) * 1e6).toFixed(0)

/** Rows of the mixed loads: `results` holds the rounds of each configuration by node count. */
export function loadRows(row, results, seconds) {
  const cores = os.cpus().length
  const summary = {}
  for (const [n, runs] of Object.entries(results)) {
    const requests = runs.reduce((s, r) => s + r.requests, 0)
    const total = (role) => runs.reduce((s, r) => s + r.cpu[role], 0)
    const time = runs.reduce((s, r) => s + r.seconds, 0)
    const s = { rps: median(runs.map((r) => r.rps)), perRequest: (total('trove') / requests) * 1e6 }
    summary[n] = s
    const label = n === '1' ? '1 node' : `${n} nodes`
    row(
      `cluster: mixed load, ${label}`,
      s.rps.toFixed(0),
      'req/s',
      '-',
      null,
      `median of ${runs.length} rounds (${runs.map((r) => r.rps.toFixed(0)).join(', ')}) of ${seconds} s through haproxy, ` +
        `${runs[0]?.connections ?? CONNECTIONS} connections; ${requests} requests, ${runs.reduce((s, r) => s + r.puts, 0)} of them deploys, ` +
        `${runs.reduce((s, r) => s + r.errors, 0)} errors`,
    )
    row(
      `cluster: latency p50 / p99, ${label}`,
      `${median(runs.map((r) => r.p50))} / ${median(runs.map((r) => r.p99))}`,
      'ms',
      '-',
      null,
      `per round: ${runs.map((r) => `${r.p50} / ${r.p99}`).join(', ')}`,
    )
    const used = Object.fromEntries(ROLES.map((role) => [role, total(role) / time]))
    const ours = ROLES.reduce((sum, role) => sum + used[role], 0)
    const busy = runs.reduce((sum, r) => sum + r.busyCores * r.seconds, 0) / time
    row(
      `cluster: CPU by process, ${label}`,
      `${f2(busy)} of ${cores}`,
      'cores busy',
      '-',
      null,
      `Trove ${f2(used.trove)}, haproxy ${f2(used.haproxy)}, PostgreSQL ${f2(used.postgres)}, ${bucketLabel()} ${f2(used.s3rver)}, ` +
        `autocannon ${f2(used.load)}, other work on the machine ${f2(Math.max(0, busy - ours))}; per request: Trove ` +
        `${us(total('trove'), requests)} µs (${us(
          runs.reduce((s, r) => s + r.troveSystem, 0),
          requests,
        )} of them in the kernel), haproxy ${us(total('haproxy'), requests)}, PostgreSQL ${us(total('postgres'), requests)}, ` +
        `${bucketLabel()} ${us(total('s3rver'), requests)}, autocannon ${us(total('load'), requests)}`,
    )
  }
  const [one, three] = [summary['1'], summary['3']]
  const growth = three.perRequest / one.perRequest
  row(
    'cluster: Trove CPU per request, 1 → 3 nodes',
    `${one.perRequest.toFixed(0)} → ${three.perRequest.toFixed(0)}`,
    'µs',
    `flat (≤ ${FLAT}×)`,
    growth <= FLAT,
    `${f2(growth)}×; the three node processes' utime + stime (/proc/<pid>/stat) over the measured windows, divided by the ` +
      `requests; 3 nodes answered ${f2(three.rps / one.rps)}× the requests of 1 on these ${cores} cores`,
  )
}

/** Three nodes should serve this many times one node's requests when each has cores of its own. */
const SCALE = 2.5

/**
 * The rows of the loads with each node held to `cores` of CPU: three nodes' throughput against
 * one's, and how long the quotas held the nodes back (a node that used its whole share).
 */
export function quotaRows(row, results, cores, throttled) {
  const rps = (runs) => median(runs.map((r) => r.rps))
  const [one, three] = [rps(results[1]), rps(results[3])]
  const seconds = (runs) => runs.reduce((s, r) => s + r.seconds, 0)
  row(
    `cluster: 3 nodes / 1 node, each held to ${cores} cores`,
    f2(three / one),
    '× req/s',
    `≥ ${SCALE}×`,
    three / one >= SCALE,
    `${one.toFixed(0)} → ${three.toFixed(0)} req/s (median of ${results[1].length} rounds each); the quotas held the nodes back ` +
      `${f1(throttled[1])} s over ${f1(seconds(results[1]))} s with one node, ${f1(throttled[3])} s over ${f1(seconds(results[3]))} s with three ` +
      `(a node that used its whole share waits out the rest of each 10 ms period)`,
  )
}

/** The row of the loads at `rate` requests a second per node: Trove's CPU per request with one node and with three. */
export function rateRow(row, results, rate) {
  const perRequest = (runs) => (runs.reduce((s, r) => s + r.cpu.trove, 0) / runs.reduce((s, r) => s + r.requests, 0)) * 1e6
  const [one, three] = [perRequest(results[1]), perRequest(results[3])]
  const kernel = (runs) =>
    us(
      runs.reduce((s, r) => s + r.troveSystem, 0),
      runs.reduce((s, r) => s + r.requests, 0),
    )
  const rps = (runs) => median(runs.map((r) => r.rps)).toFixed(0)
  const busy = (runs) => f2(median(runs.map((r) => r.busyCores)))
  row(
    `cluster: Trove CPU per request at ${rate} req/s per node, 1 → 3 nodes`,
    `${one.toFixed(0)} → ${three.toFixed(0)}`,
    'µs',
    `flat (≤ ${FLAT}×)`,
    three / one <= FLAT,
    `${f2(three / one)}× (in the kernel ${kernel(results[1])} → ${kernel(results[3])} µs); ${rps(results[1])} req/s through one ` +
      `node, ${rps(results[3])} through three (asked ${rate} and ${3 * rate}); ` +
      `machine busy ${busy(results[1])} and ${busy(results[3])} cores; ${results[1].length} rounds of ${results[1][0].seconds} s each`,
  )
}

/** The row of one node's CPU per request as its request rate grows. */
export function costByRateRow(row, { idle, byRate }, seconds) {
  const per = (r) => (r.cpu.trove / r.requests) * 1e6
  row(
    'cluster: Trove CPU per request by node rate',
    byRate.map((r) => (per(r) / 1000).toFixed(2)).join(' / '),
    'ms',
    '-',
    null,
    `the mix sent to node a directly at ${byRate.map((r) => r.asked).join(' / ')} req/s (reached ${byRate
      .map((r) => r.rps.toFixed(0))
      .join(' / ')}), ${seconds} s each: the node used ${byRate.map((r) => f2(r.cpu.trove / r.seconds)).join(' / ')} cores; ` +
      `idle ${idle.toFixed(3)} cores`,
  )
}

/** The row of a node's packument GETs while another node takes writes. */
export function crossNodeWritesRow(row, results, readRate) {
  const [quiet] = results
  const last = results[results.length - 1]
  row(
    'cluster: packument GET on a while b takes deploys',
    results.map((r) => r.perRead.toFixed(0)).join(' / '),
    'µs CPU on a',
    '-',
    null,
    `${readRate} packument GETs a second to node a while node b takes ${results.map((r) => r.writeRate).join(' / ')} generic deploys ` +
      `a second (reached ${results.map((r) => r.writes.toFixed(0)).join(' / ')}); a's CPU per GET ${f2(last.perRead / quiet.perRead)}× at the ` +
      `most writes; p99 ${results.map((r) => r.p99).join(' / ')} ms${results.some((r) => r.errors) ? `; ${results.reduce((s, r) => s + r.errors, 0)} errors` : ''}`,
  )
}

/** Rows of each kind of request alone on a node on the bucket and on one on its disk. */
export function kindRows(row, onS3, onDisk) {
  for (const [kind, label] of Object.entries(KIND_LABELS)) {
    const [s, d] = [onS3[kind], onDisk[kind]]
    const per = (r) =>
      `Trove ${us(r.cpu.trove, r.requests)} µs, PostgreSQL ${us(r.cpu.postgres, r.requests)}` +
      `${r === s ? `, ${bucketLabel()} ${us(r.cpu.s3rver, r.requests)}` : ''}, autocannon ${us(r.cpu.load, r.requests)}`
    const errors = s.errors + d.errors
    row(
      `cluster: alone on one node, ${label}`,
      `${s.rps.toFixed(0)} / ${d.rps.toFixed(0)}`,
      'req/s S3 / disk',
      '-',
      null,
      `${(s.share * 100).toFixed(0)}% of the mix; p50 / p99 ${s.p50} / ${s.p99} ms on S3, ${d.p50} / ${d.p99} ms on disk; ` +
        `CPU per request on S3: ${per(s)}; on disk: ${per(d)}${errors ? `; ${errors} errors` : ''}`,
    )
  }
}

const ms = (values) => `p50 ${f1(percentile(values, 50))} ms, max ${f1(Math.max(...values))} ms`

/** Rows of the writes on one node and when the others saw them. */
export function changeRows(row, changes) {
  for (const [what, runs] of changes) {
    const seen = runs.map((r) => r.seen)
    const p99 = percentile(seen, 99)
    row(
      `cluster: ${what}`,
      Number.isFinite(p99) ? p99.toFixed(1) : 'never',
      'ms p99',
      '< 1000',
      p99 < 1000,
      `${runs.length} times, from the write's answer on a, b and c polled every 5 ms; ${ms(seen)}; the write itself ${ms(runs.map((r) => r.call))}`,
    )
  }
}

/** Rows of the large layer's push and pull, S3 against disk, with what the bucket alone did. */
export function blobRows(row, { onS3, onDisk, streamed, bucket, mb, rounds, version, nodeCpu }) {
  const alone = (pick) => median(bucket.map(pick))
  const bucketNote = {
    push:
      `; the bucket alone (Trove's S3 client, no Trove) took ${f1(alone((b) => b.upload))} s to upload the layer and ` +
      `${f1(alone((b) => b.copy))} s to copy it to its final key (${bucketLabel()} CPU ${f1(alone((b) => b.s3rverCpu))} s for the upload, the copy and a read)`,
    pull: `; the bucket alone read it at ${alone((b) => b.bytes / 1024 ** 2 / b.read).toFixed(0)} MB/s`,
  }
  // Nodes held to a CPU share each: named in every row, as its figures are not the shared machine's.
  const size = (mb >= 1024 ? `${mb / 1024} GB` : `${mb} MB`) + (nodeCpu > 0 ? ` (nodes at ${nodeCpu} core)` : '')
  for (const way of ['push', 'pull']) {
    const [s, d] = [onS3[way], onDisk[way]]
    const ratio = s.rate / d.rate
    const rates = (x) => x.rates.map((v) => v.toFixed(0)).join(', ')
    const extra =
      way === 'push'
        ? `; the upload's final PUT (the node keeps the layer: fsync and rename on disk; upload to the bucket and copy there on S3) ` +
          `${f1(onS3.put)} s on S3, ${f1(onDisk.put)} s on disk; the PATCH that streamed it ${f1(onS3.patch)} / ${f1(onDisk.patch)} s`
        : ''
    row(
      `cluster: ${size} ${way}, S3 / disk`,
      `${s.rate.toFixed(0)} / ${d.rate.toFixed(0)}`,
      'MB/s',
      'S3 ≥ 0.8× disk',
      ratio >= 0.8,
      `${f2(ratio)}×; medians of ${rounds} (S3 ${rates(s)}; disk ${rates(d)}), skopeo ${version}; CPU: Trove ${f1(s.cpu)} s on S3, ` +
        `${f1(d.cpu)} s on disk; ${bucketLabel()} ${f1(s.s3rverCpu)} s; skopeo ${f1(s.client)} / ${f1(d.client)} s${extra}${bucketNote[way]}` +
        (way === 'pull' ? ' (the layer read from the bucket by a presigned URL; streamed by the node in the next row)' : ''),
    )
  }
  // What the machine leaves Trove: the bucket's own pace for the layer (upload, then copy), against the disk push.
  const bucketRate = alone((b) => b.bytes / 1024 ** 2 / (b.upload + b.copy))
  row(
    `cluster: ${size} push, S3 / the bucket alone`,
    `${onS3.push.rate.toFixed(0)} / ${bucketRate.toFixed(0)}`,
    'MB/s',
    '-',
    true,
    `${f2(onS3.push.rate / bucketRate)}×: Trove's push to the bucket against the bucket's own upload and copy of the layer (no Trove); ` +
      `the bucket alone reaches ${f2(bucketRate / onDisk.push.rate)}× of the disk push on this machine`,
  )
  // The same pull from a node that reaches the bucket at the host the client reached it at: it streams the layer itself.
  const [s, d] = [streamed.pull, onDisk.pull]
  const rates = (x) => x.rates.map((v) => v.toFixed(0)).join(', ')
  row(
    `cluster: ${size} pull streamed by the node, S3 / disk`,
    `${s.rate.toFixed(0)} / ${d.rate.toFixed(0)}`,
    'MB/s',
    '-',
    true,
    `${f2(s.rate / d.rate)}×; medians of ${rounds} (S3 ${rates(s)}); CPU: Trove ${f1(s.cpu)} s, ${bucketLabel()} ${f1(s.s3rverCpu)} s, skopeo ${f1(s.client)} s`,
  )
}
