// npm run bench -- cluster: Trove scaled out, on one machine. Three built nodes on one PostgreSQL
// server of the bench's own and one S3-compatible bucket (Ceph's radosgw on a one-node Ceph cluster
// where Debian's radosgw, ceph-mon and ceph-osd are installed, else s3rver;
// TROVE_BENCH_CLUSTER_S3=rgw or s3rver chooses), one master key, behind haproxy run from the
// configuration Trove generates; then:
//
// 1. a mixed load (npm, PyPI, OCI reads and 2% generic deploys, clusterData.mjs) with autocannon
//    through haproxy to one node and to all three, in alternating rounds: req/s, p50 and p99, and
//    the CPU every process took (/proc), so the table shows what a request costs and where the
//    machine is full; then one node's CPU per request as its rate grows, and each kind of request
//    alone on it;
// 2. a write on node a (an npm publish, a token revoked) and the time until b and c see it; and
//    what deploys on b cost a's packument GETs;
// 3. a large layer pushed and pulled with skopeo, a node on the bucket against a node on its local
//    disk (another database of the same PostgreSQL server), the bucket's node sending the layer's
//    reader to the bucket by a presigned URL and another streaming it itself; and each kind of
//    request alone on the disk's node too.
//
// TROVE_BENCH_CLUSTER_LOAD_S (default 15) seconds per measured load, TROVE_BENCH_CLUSTER_ROUNDS
// (default 2) rounds of each, as fast as it goes and at TROVE_BENCH_CLUSTER_NODE_RATE (default 60)
// requests a second per node; TROVE_BENCH_CLUSTER_KIND_S (default 5) seconds per kind alone;
// TROVE_BENCH_CLUSTER_CHANGES (default 50) writes of each sort; TROVE_BENCH_CLUSTER_BLOB_MB
// (default 1024) and TROVE_BENCH_CLUSTER_BLOB_ROUNDS (default 3) for the layer. Needs PostgreSQL's
// binaries, haproxy and skopeo.
//
// TROVE_BENCH_CLUSTER_NODE_CPU=0.15 gives each node that much CPU of its own (a cgroup CPU quota
// per node process, as root) and runs only the mixed loads: as fast as they go, and at
// TROVE_BENCH_CLUSTER_QUOTA_RATE (default 200, 0 for none) requests a second per node; one node
// against three, each as if on cores of its own, the rest of the machine left to PostgreSQL,
// s3rver, haproxy and the load generator. The clients grow with the nodes there (20 connections
// per node), so each node is offered the same work; haproxy's health checks must keep passing (a
// node held to too little CPU answers its ping late and is taken out). TROVE_BENCH_NODE_FLAGS
// passes Node.js flags to every node (`--cpu-prof --cpu-prof-dir=DIR`: a CPU profile each;
// `--trace-gc` with TROVE_BENCH_NODE_OUT=DIR, where each node's output is kept).
//
// TROVE_BENCH_CLUSTER_ONLY=blob runs part 3's layer push and pull alone. TROVE_BENCH_CLUSTER_BLOB_CPU=0.5
// holds each of part 3's nodes to that much CPU (a cgroup quota, as root): the node on the bucket
// and the node on its disk each as if on a machine of its own, the bucket's service and skopeo on
// the rest of this one, as a bucket is a service apart from the nodes.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pushPullRounds, skopeoClient, summarize } from './clusterBlob.mjs'
import { publishSeen, revocationSeen } from './clusterChanges.mjs'
import { accessToken, npmPublish, registryToken, seed } from './clusterData.mjs'
import { CONNECTIONS, costByRate, crossNodeWrites, kindCosts, load, warmUp } from './clusterLoad.mjs'
import {
  bucketLabel,
  cpuQuota,
  HAPROXY,
  PG_BIN,
  RGW,
  startHaproxy,
  startPostgres,
  startRgw,
  startS3,
} from './clusterProcesses.mjs'
import {
  blobRows,
  changeRows,
  costByRateRow,
  crossNodeWritesRow,
  kindRows,
  loadRows,
  quotaRows,
  rateRow,
} from './clusterRows.mjs'
import { freePort, signInAdmin, startServer } from './server.mjs'

const LOAD_S = Number(process.env.TROVE_BENCH_CLUSTER_LOAD_S ?? 15)
const ROUNDS = Number(process.env.TROVE_BENCH_CLUSTER_ROUNDS ?? 2)
const RATE = Number(process.env.TROVE_BENCH_CLUSTER_NODE_RATE ?? 60)
const KIND_S = Number(process.env.TROVE_BENCH_CLUSTER_KIND_S ?? 5)
const CHANGES = Number(process.env.TROVE_BENCH_CLUSTER_CHANGES ?? 50)
const BLOB_MB = Number(process.env.TROVE_BENCH_CLUSTER_BLOB_MB ?? 1024)
const BLOB_ROUNDS = Number(process.env.TROVE_BENCH_CLUSTER_BLOB_ROUNDS ?? 3)
const NODE_CPU = Number(process.env.TROVE_BENCH_CLUSTER_NODE_CPU ?? 0)
const ONLY = process.env.TROVE_BENCH_CLUSTER_ONLY
/** With BLOB_CPU: the CPU (cores) each of the layer's nodes is held to (0: the machine shared). */
const BLOB_CPU = Number(process.env.TROVE_BENCH_CLUSTER_BLOB_CPU ?? 0)
/**
 * The S3-compatible service: Ceph's gateway (`rgw`: Debian's radosgw, ceph-mon and ceph-osd) where
 * they are installed, else s3rver (the tests' stand-in, a Node.js process of its own).
 */
const S3_SERVICE = process.env.TROVE_BENCH_CLUSTER_S3 ?? (RGW ? 'rgw' : 's3rver')
/** With NODE_CPU: requests a second per node of the loads at a set rate (0: none). */
const QUOTA_RATE = Number(process.env.TROVE_BENCH_CLUSTER_QUOTA_RATE ?? 200)
/** Unmeasured seconds of the mix before each measured load, and through all three nodes before the first. */
const WARM_S = 3
const FIRST_WARM_S = 10
const ADMIN_PASSWORD = 'bench-admin-password'

/** Trove's haproxy configuration for `first` and `others`, listening on `port`, generated through `api`. */
async function haproxyConfig(api, session, key, port, first, others) {
  const made = await fetch(`${api}/ui/api/v1/ui/admin/reverseProxies`, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({
      key,
      webServerType: 'haproxy',
      serverName: '127.0.0.1',
      dockerReverseProxyMethod: 'REPOPATHPREFIX',
      reverseProxyRepositories: [],
      useHttp: true,
      useHttps: false,
      httpPort: port,
      httpsPort: 443,
      sslCertificate: '',
      sslKey: '',
      upstreamUrl: first,
      clusterNodeUrls: others,
    }),
  })
  if (made.status !== 201) throw new Error(`reverse proxy ${key}: ${made.status} ${await made.text()}`)
  const res = await fetch(`${api}/ui/api/v1/ui/admin/reverseProxies/${key}/haproxy`, { headers: session })
  return (await res.json()).config
}

/** A node's admin token, what the load reads stored through it, and a registry token for its images. */
async function prepare(node) {
  const session = await signInAdmin(node.url, ADMIN_PASSWORD)
  const { token } = await accessToken(node.url, session)
  const data = await seed(node.url, token)
  const bearer = () =>
    registryToken(
      node.url,
      token,
      data.images.map((i) => `repository:docker-local/${i.image}:pull`),
    )
  return { session, token, data, bearer }
}

export async function benchCluster(row) {
  if (S3_SERVICE === 'rgw' && !RGW) {
    row('cluster', 'n/a', '', '', false, 'TROVE_BENCH_CLUSTER_S3=rgw needs radosgw, ceph-mon and ceph-osd (apt-get install)')
    return
  }
  if (!PG_BIN || !HAPROXY) {
    row('cluster', 'n/a', '', '', false, 'PostgreSQL binaries (/usr/lib/postgresql) and haproxy are needed')
    return
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-cluster-'))
  const stops = []
  let s3
  const dir = (name) => {
    fs.mkdirSync(path.join(work, name))
    return path.join(work, name)
  }
  try {
    const postgres = await startPostgres()
    stops.push(() => postgres.stop())
    await postgres.createDatabase('trove_cluster')
    await postgres.createDatabase('trove_disk')
    await postgres.createDatabase('trove_streamed')
    s3 = S3_SERVICE === 'rgw' ? await startRgw(dir('rgw')) : await startS3(dir('s3'), ['cluster/', 'streamed/'])
    stops.push(() => s3.stop('SIGKILL'))

    const common = { TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD, TROVE_UPLOAD_MAX_SIZE: String(4 * 1024 ** 3) }
    // The cluster's database, bucket and master key.
    const shared = {
      ...common,
      TROVE_DATABASE_URL: postgres.url('trove_cluster'),
      TROVE_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
      TROVE_BLOB_STORE: 's3://trove/cluster',
      TROVE_S3_ENDPOINT: s3.endpoint,
      TROVE_S3_ACCESS_KEY_ID: s3.accessKeyId,
      TROVE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      TROVE_S3_FORCE_PATH_STYLE: 'true',
    }
    let kindsOnS3
    if (ONLY !== 'blob') {
      const measured = await scaleOut({ row, dir, work, stops, postgres, s3, shared })
      if (measured.done) return
      kindsOnS3 = measured.kindsOnS3
    }

    // 3. A node on the bucket and a node on its local disk, each reached directly (its own URL as
    // base URL, where the registry sends clients for tokens). The bucket's node reaches the bucket
    // as localhost while skopeo reaches the node at 127.0.0.1: on another host name, so a large
    // layer's reader is sent to the bucket (TROVE_S3_PRESIGN_ABOVE), as where the bucket is a
    // service of its own. A second node on the bucket (its own database and prefix) reaches it at
    // 127.0.0.1, the host skopeo reached it at, and so streams the layer itself.
    const bucket = await startServer({
      ...shared,
      TROVE_S3_ENDPOINT: s3.endpoint.replace('127.0.0.1', 'localhost'),
      TROVE_S3_PRESIGN_ABOVE: '64m',
      TROVE_DATA_DIR: dir('node-s3'),
      TROVE_NODE_ID: 's3',
    })
    stops.push(() => bucket.stop())
    const streaming = await startServer({
      ...shared,
      TROVE_DATABASE_URL: postgres.url('trove_streamed'),
      TROVE_BLOB_STORE: 's3://trove/streamed',
      TROVE_DATA_DIR: dir('node-s3-streamed'),
      TROVE_NODE_ID: 's3-streamed',
    })
    stops.push(() => streaming.stop())
    await prepare(streaming)
    const disk = await startServer({
      ...common,
      TROVE_DATA_DIR: dir('node-disk'),
      TROVE_NODE_ID: 'disk',
      TROVE_DATABASE_URL: postgres.url('trove_disk'),
    })
    stops.push(() => disk.stop())
    const onDisk = await prepare(disk)
    if (kindsOnS3) {
      const kindsOnDisk = await kindCosts(
        disk.url,
        { nodes: [disk.pid], postgres, s3rver: s3.pid },
        onDisk.data,
        onDisk.token,
        await onDisk.bearer(),
        KIND_S,
      )
      kindRows(row, kindsOnS3, kindsOnDisk)
    } else {
      // Only the layer: the bucket's node has its repositories from this seed.
      await prepare(bucket)
    }

    const { skopeo, version } = await skopeoClient()
    const host = (node) => node.url.replace('http://', '')
    if (BLOB_CPU > 0) holdEach([bucket, streaming, disk], BLOB_CPU, ['layer-s3', 'layer-streamed', 'layer-disk'], stops)
    const blobs = await pushPullRounds({
      targets: [
        { name: 's3', host: host(bucket), dataDir: bucket.dataDir, pid: bucket.pid },
        { name: 'streamed', host: host(streaming), dataDir: streaming.dataDir, pid: streaming.pid },
        { name: 'disk', host: host(disk), dataDir: disk.dataDir, pid: disk.pid },
      ],
      s3Pid: s3.pid,
      s3Endpoint: s3.endpoint,
      s3Keys: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      password: ADMIN_PASSWORD,
      rounds: BLOB_ROUNDS,
      mb: BLOB_MB,
      work,
      skopeo,
    })
    blobRows(row, {
      onS3: summarize(blobs.s3),
      onDisk: summarize(blobs.disk),
      streamed: summarize(blobs.streamed),
      bucket: blobs.bucket,
      mb: BLOB_MB,
      rounds: BLOB_ROUNDS,
      version,
      nodeCpu: BLOB_CPU,
    })
  } catch (error) {
    // The rows measured so far are kept; what the nodes logged as errors says why it stopped.
    for (const name of fs.readdirSync(work).filter((n) => n.startsWith('node-'))) {
      for (const line of nodeErrors(path.join(work, name))) console.error(`${name}: ${line}`)
    }
    const s3ended = s3?.ended()
    if (s3ended) console.error(`${bucketLabel()} ${s3ended}`)
    row('cluster', 'failed', '', '', false, error.message.split('\n')[0])
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
    fs.rmSync(work, { recursive: true, force: true })
  }
}

/**
 * Parts 1 and 2: three nodes on the bucket behind haproxy, the mixed loads and the writes seen
 * across nodes; what each kind of request alone costs node a (for part 3's table), unless only the
 * loads under CPU quotas ran.
 */
async function scaleOut({ row, dir, work, stops, postgres, s3, shared }) {
  const ids = ['a', 'b', 'c']
  const ports = await Promise.all(ids.map(() => freePort()))
  const [lb1Port, lb3Port] = [await freePort(), await freePort()]
  const lb1 = `http://127.0.0.1:${lb1Port}`
  const lb3 = `http://127.0.0.1:${lb3Port}`
  const env = (i) => ({
    ...shared,
    TROVE_DATA_DIR: dir(`node-${ids[i]}`),
    TROVE_PORT: String(ports[i]),
    TROVE_NODE_ID: ids[i],
    TROVE_BASE_URL: lb3,
    TROVE_TRUST_PROXY: 'true',
  })
  // The first node migrates the database and makes the administrator; the others join it.
  const a = await startServer(env(0))
  stops.push(() => a.stop())
  const rest = await Promise.all([1, 2].map((i) => startServer(env(i))))
  for (const node of rest) stops.push(() => node.stop())
  const nodes = [a, ...rest]

  const { session, token, data, bearer } = await prepare(a)
  const one = await haproxyConfig(a.url, session, 'one', lb1Port, a.url, [])
  const others = rest.map((n) => n.url)
  const three = await haproxyConfig(a.url, session, 'three', lb3Port, a.url, others)
  const haproxy1 = await startHaproxy(path.join(work, 'one.cfg'), one, lb1)
  stops.push(() => haproxy1.stop())
  const haproxy3 = await startHaproxy(path.join(work, 'three.cfg'), three, lb3)
  stops.push(() => haproxy3.stop())

  // 1. The mixed load, one node and three in turn, the order alternating between rounds; every
  // node has served the mix before the first round.
  const results = { 1: [], 3: [] }
  const cluster = { nodes: nodes.map((n) => n.pid), postgres, s3rver: s3.pid }
  await warmUp(lb3, data, token, await bearer(), FIRST_WARM_S)
  if (NODE_CPU > 0) {
    // Each node on a share of the machine of its own: only the loads as fast as they go.
    const quotas = holdEach(nodes, NODE_CPU, ids, stops)
    const throttled = { 1: 0, 3: 0 }
    const atRate = { 1: [], 3: [] }
    for (let r = 0; r < ROUNDS; r++) {
      for (const n of r % 2 === 0 ? [1, 3] : [3, 1]) {
        const [url, haproxy] = n === 1 ? [lb1, haproxy1] : [lb3, haproxy3]
        const before = quotas.reduce((sum, q) => sum + q.throttledSeconds(), 0)
        const procs = { ...cluster, haproxy: haproxy.pid }
        results[n].push(await load(url, procs, data, token, await bearer(), WARM_S, LOAD_S, 0, CONNECTIONS * n))
        throttled[n] += quotas.reduce((sum, q) => sum + q.throttledSeconds(), 0) - before
        // The same rate per node, below what a node's share allows: the cluster's own cost per
        // request, apart from how busy each node is.
        if (QUOTA_RATE > 0) {
          atRate[n].push(await load(url, procs, data, token, await bearer(), WARM_S, LOAD_S, QUOTA_RATE * n, CONNECTIONS * n))
        }
      }
    }
    loadRows(row, results, LOAD_S)
    quotaRows(row, results, NODE_CPU, throttled)
    if (QUOTA_RATE > 0) rateRow(row, atRate, QUOTA_RATE)
    return { done: true }
  }
  const atRate = { 1: [], 3: [] }
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of r % 2 === 0 ? [1, 3] : [3, 1]) {
      const [url, haproxy] = n === 1 ? [lb1, haproxy1] : [lb3, haproxy3]
      const procs = { ...cluster, haproxy: haproxy.pid }
      results[n].push(await load(url, procs, data, token, await bearer(), WARM_S, LOAD_S))
      // The same request rate on each node: what a request costs with one node or three, the
      // amortization of each node's own fixed costs aside.
      atRate[n].push(await load(url, procs, data, token, await bearer(), WARM_S, LOAD_S, RATE * n))
    }
  }
  loadRows(row, results, LOAD_S)
  rateRow(row, atRate, RATE)
  // Node a alone, directly: its cost per request as its rate grows, then each kind of request alone.
  const alone = { ...cluster, nodes: [a.pid] }
  costByRateRow(row, await costByRate(a.url, alone, data, token, await bearer(), [10, 30, 100, 300], KIND_S), KIND_S)
  const kindsOnS3 = await kindCosts(a.url, alone, data, token, await bearer(), KIND_S)

  // 2. Writes on a, seen by b and c.
  await npmPublish(a.url, token, 'prop-pkg', '1.0.0')
  const published = []
  const revoked = []
  for (let i = 0; i < CHANGES; i++) published.push(await publishSeen(a, rest, token, `2.0.${i}`))
  for (let i = 0; i < CHANGES; i++) revoked.push(await revocationSeen(a, rest, token))
  changeRows(row, [
    ['npm publish on a, served by b and c', published],
    ['token revoked on a, refused by b and c', revoked],
  ])
  // What those notifications cost the nodes that hear them.
  const crossRate = 1000
  const cross = await crossNodeWrites(a.url, rest[0].url, alone, data, token, await bearer(), crossRate, [0, 10, 40], KIND_S)
  crossNodeWritesRow(row, cross, crossRate)
  await haproxy1.stop()
  await haproxy3.stop()
  for (const node of nodes) await node.stop()
  return { kindsOnS3 }
}

/**
 * Holds each node process to `cores` of CPU (a cgroup quota each, named by `names`); the quotas
 * are removed with the run's other stops. Returns them (each says how long it held its node back).
 */
function holdEach(nodes, cores, names, stops) {
  const quotas = nodes.map((n, i) => cpuQuota(n.pid, cores, `trove-bench-${process.pid}-${names[i]}`))
  stops.push(async () => {
    for (const q of quotas) q.remove()
  })
  return quotas
}

/** The last error lines (level 50 and up) of a node's log. */
function nodeErrors(dataDir) {
  const file = path.join(dataDir, 'logs', 'trove.log')
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /"level":(5|6)\d/.test(line))
    .slice(-5)
}
