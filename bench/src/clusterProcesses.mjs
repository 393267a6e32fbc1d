// The processes around a Trove cluster on one machine, for the cluster bench: a PostgreSQL server
// of its own, s3rver, haproxy; and what each of them (and the machine) spent in CPU, from /proc.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { run } from './exec.mjs'
import { freePort } from './server.mjs'

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux everywhere it runs). */
const TICKS = 100

export const PG_BIN = fs.existsSync('/usr/lib/postgresql')
  ? fs
      .readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(a) - Number(b))
      .map((v) => `/usr/lib/postgresql/${v}/bin`)
      .filter((bin) => fs.existsSync(path.join(bin, 'initdb')))
      .pop()
  : undefined

export const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => fs.existsSync(p))

function stat(pid) {
  try {
    // The command name may hold spaces: the fields start after its closing parenthesis.
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  } catch {
    return undefined
  }
}

/**
 * CPU seconds a process has used, its threads included, plus those of its children that ended and
 * were waited for (a PostgreSQL backend that exits is counted in the postmaster's from then on).
 */
export function cpuSeconds(pid) {
  const f = stat(pid)
  return f ? (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS : 0
}

/** A process's CPU seconds in user space and in the kernel (utime and stime, its threads included). */
export function cpuSplit(pid) {
  const f = stat(pid)
  return f ? { user: Number(f[11]) / TICKS, system: Number(f[12]) / TICKS } : { user: 0, system: 0 }
}

/** CPU seconds of a process and of its living children (PostgreSQL: the postmaster and its backends). */
export function treeCpuSeconds(pid) {
  let total = cpuSeconds(pid)
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const f = stat(name)
    if (f && Number(f[1]) === pid) total += (Number(f[11]) + Number(f[12])) / TICKS
  }
  return total
}

/** The whole machine's CPU seconds so far: busy (every core) and in all. */
export function machineCpu() {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = cpu
  const busy = user + nice + system + irq + softirq + steal
  return { busy: busy / TICKS, all: (busy + idle + iowait) / TICKS }
}

/**
 * A PostgreSQL server of the bench's own on a temp dir and a free port, made from the installed
 * binaries as scripts/with-postgres.sh and apps/server/test/cluster.ts (OwnPostgres) make theirs,
 * but with PostgreSQL's default durability (fsync and synchronous commit on): a commit here costs
 * what it costs a production server on this disk.
 */
export async function startPostgres() {
  if (!PG_BIN) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql)')
  // A directory of its own: when the bench runs as root, PostgreSQL runs as postgres and owns it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-pg-'))
  const port = await freePort()
  const asOwner = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  if (asOwner.length > 0) await run('chown', ['postgres', dir])
  const pg = (bin, args) => {
    const [cmd, ...rest] = [...asOwner, path.join(PG_BIN, bin), ...args]
    return run(cmd, rest)
  }
  const data = path.join(dir, 'data')
  await pg('initdb', ['-D', data, '-U', 'trove', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  await pg('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-t',
    '30',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    'start',
  ])
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
  return {
    pid,
    url: (database) => `postgres://trove@127.0.0.1:${port}/${database}`,
    createDatabase: (name) => pg('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'trove', name]),
    cpu: () => treeCpuSeconds(pid),
    async stop() {
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A process the bench started: its pid, its CPU seconds, and a stop that waits for its end. */
function owned(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const running = () => child.exitCode === null && child.signalCode === null
  return {
    pid: child.pid,
    running,
    cpu: () => cpuSeconds(child.pid),
    async stop(signal = 'SIGTERM') {
      if (!running()) return
      child.kill(signal)
      await exited
    },
  }
}

/**
 * s3rver (the S3-compatible server the tests use, a Node.js process of its own), its objects in
 * `dir`, bucket `trove`; `keepPrefixes` are the key prefixes of the nodes that will use it.
 */
export async function startS3(dir, keepPrefixes = []) {
  const require = createRequire(import.meta.url)
  const bin = path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js')
  const port = await freePort()
  const child = spawn(
    process.execPath,
    [bin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent', '--configure-bucket', 'trove'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  // What it said last, and how it ended: a bench that fails because the bucket went away says so.
  let stderr = ''
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000)
  })
  const endpoint = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await fetch(`${endpoint}/`)
      break
    } catch (error) {
      if (i > 200 || child.exitCode !== null) throw error
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  // s3rver removes a folder of its own when a delete leaves it empty, and a write into it at that
  // moment fails in a stream it has no error handler for, ending the process: under concurrent
  // deploys (temp objects put and deleted under <prefix>tmp/ at once) it died within minutes. An
  // object that is never deleted keeps the folder.
  for (const prefix of keepPrefixes) {
    const res = await fetch(`${endpoint}/trove/${prefix}tmp/.keep`, { method: 'PUT', body: 'keeps the folder' })
    if (res.status !== 200) throw new Error(`s3rver: keep object: ${res.status} ${await res.text()}`)
  }
  const server = owned(child)
  const ended = () => (server.running() ? undefined : `exited (${child.signalCode ?? child.exitCode}): ${stderr}`)
  return { ...server, endpoint, ended, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
}

/** The S3-compatible service the bench started (startS3, startRgw): its name for the rows. */
let bucketService = 's3rver'
export const bucketLabel = () => bucketService

/** CPU seconds of one process or of several (a service made of several daemons) together. */
export function cpuOf(pids) {
  return [].concat(pids).reduce((sum, pid) => sum + cpuSeconds(pid), 0)
}

export const RGW = fs.existsSync('/usr/bin/radosgw') && fs.existsSync('/usr/bin/ceph-osd') && fs.existsSync('/usr/bin/ceph-mon')

/**
 * Ceph's S3 gateway (Debian's radosgw 16) on a one-node Ceph cluster of its own in `dir`: a
 * monitor, one OSD keeping its objects in memory (memstore: the bench measures the service, not
 * this machine's disk twice), one radosgw, no authentication between them; a user with keys
 * `TROVE`/`TROVE-SECRET` and the bucket `trove`. A real S3 service: a copy within the bucket
 * shares the object's data instead of writing it again, as S3 does. `pid` lists the three daemons.
 */
export async function startRgw(dir) {
  const { S3Client, CreateBucketCommand } = await import(
    createRequire(new URL('../../apps/server/package.json', import.meta.url)).resolve('@aws-sdk/client-s3')
  )
  const [monPort, rgwPort] = [await freePort(), await freePort()]
  const fsid = crypto.randomUUID()
  for (const sub of ['run', 'log', 'mon', 'osd']) fs.mkdirSync(path.join(dir, sub), { recursive: true })
  const conf = path.join(dir, 'ceph.conf')
  fs.writeFileSync(
    conf,
    [
      '[global]',
      `fsid = ${fsid}`,
      `mon host = v1:127.0.0.1:${monPort}`,
      'auth cluster required = none',
      'auth service required = none',
      'auth client required = none',
      'osd pool default size = 1',
      'osd pool default min size = 1',
      'osd pool default pg num = 8',
      'osd pool default pgp num = 8',
      'osd objectstore = memstore',
      // Room for a run's layers (three rounds of 1 GB on two nodes, and the bucket's own): a full
      // OSD holds every write until space is freed.
      `memstore device bytes = ${16 * 1024 ** 3}`,
      'osd crush chooseleaf type = 0',
      'mon allow pool size one = true',
      'mon warn on pool no redundancy = false',
      'ms bind ipv4 = true',
      `run dir = ${dir}/run`,
      `log file = ${dir}/log/$name.log`,
      `admin socket = ${dir}/run/$name.asok`,
      `pid file = ${dir}/run/$name.pid`,
      `keyring = ${dir}/keyring`,
      '[mon.a]',
      `mon data = ${dir}/mon`,
      '[osd.0]',
      `osd data = ${dir}/osd`,
      '[client.rgw.a]',
      `rgw frontends = beast endpoint=127.0.0.1:${rgwPort}`,
      // Deleted objects' data freed within seconds (two hours by default).
      'rgw gc obj min wait = 0',
      'rgw gc processor period = 10',
      '',
    ].join('\n'),
  )
  const c = ['-c', conf]
  await run('ceph-authtool', ['--create-keyring', `${dir}/keyring`, '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *'])
  await run('monmaptool', ['--create', '--add', 'a', `v1:127.0.0.1:${monPort}`, '--fsid', fsid, `${dir}/monmap`])
  await run('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', `${dir}/monmap`, '--keyring', `${dir}/keyring`])
  // Each daemon in the foreground, a child of the bench's.
  const daemon = (cmd, args) => owned(spawn(cmd, [...c, '-f', ...args], { stdio: 'ignore' }))
  const daemons = [daemon('ceph-mon', ['-i', 'a'])]
  const stop = async () => {
    for (const d of [...daemons].reverse()) await d.stop('SIGKILL')
  }
  const endpoint = `http://127.0.0.1:${rgwPort}`
  const keys = { accessKeyId: 'TROVE', secretAccessKey: 'TROVE-SECRET' }
  try {
    const osdUuid = crypto.randomUUID()
    await run('ceph', [...c, '--connect-timeout', '30', 'osd', 'new', osdUuid])
    await run('ceph-osd', [...c, '-i', '0', '--mkfs', '--osd-uuid', osdUuid])
    daemons.push(daemon('ceph-osd', ['-i', '0']), daemon('radosgw', ['-n', 'client.rgw.a']))
    let osdStarts = 1
    for (let i = 0; ; i++) {
      // An OSD that sends its first command before it has the monitor's map (the cluster's id
      // still zero) is refused and exits ("wrong fsid"; two starts in eleven here): it starts again.
      if (!daemons[1].running() && osdStarts < 4) {
        daemons[1] = daemon('ceph-osd', ['-i', '0'])
        osdStarts++
      }
      const up = await fetch(`${endpoint}/`).then(
        (r) => r.ok,
        () => false,
      )
      if (up) break
      if (i > 600) {
        // The bench's folder goes when it ends: the daemons' logs are kept for a look.
        const kept = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-ceph-logs-'))
        fs.cpSync(`${dir}/log`, kept, { recursive: true })
        throw new Error(`radosgw did not answer at ${endpoint} (the Ceph daemons' logs: ${kept})`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
    // The SDK's warning that its releases after January 2027 need Node.js 22 (see apps/server's core/s3Objects.ts).
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
    await run('radosgw-admin', [
      ...c,
      'user',
      'create',
      '--uid=trove',
      '--display-name=trove',
      `--access-key=${keys.accessKeyId}`,
      `--secret=${keys.secretAccessKey}`,
    ])
    const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: keys })
    await client.send(new CreateBucketCommand({ Bucket: 'trove' }))
    client.destroy()
  } catch (error) {
    // Nothing of a cluster that did not come up is left running.
    await stop()
    throw error
  }
  bucketService = 'Ceph RGW'
  return {
    pid: daemons.map((d) => d.pid),
    endpoint,
    ...keys,
    ended: () => (daemons.every((d) => d.running()) ? undefined : `a daemon exited (see ${dir}/log)`),
    stop,
  }
}

/**
 * haproxy run from the configuration Trove generated, below a global section that logs nothing:
 * the bench measures the proxying, not a log line per request.
 */
export async function startHaproxy(file, generated, url) {
  if (!HAPROXY) throw new Error('haproxy is not installed (apt-get install haproxy)')
  fs.writeFileSync(file, `global\n    maxconn 4096\n\n${generated}`)
  await run(HAPROXY, ['-c', '-q', '-f', file])
  let log = ''
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.on('data', (d) => {
    log += d
  })
  child.stderr.on('data', (d) => {
    log += d
  })
  for (let i = 0; ; i++) {
    const status = await fetch(`${url}/api/system/ping`).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) break
    if (i > 200 || child.exitCode !== null) throw new Error(`haproxy did not come up: ${log}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return owned(child)
}

const QUOTA_PERIOD_US = 10_000

/**
 * Puts a process, all its threads and later children, in a cgroup of its own limited to `cores` of
 * CPU (the cgroup v1 cpu controller's CFS quota, or cgroup v2's cpu.max; needs root): a node
 * given its own share of the machine, as if it had cores of its own. `remove()` moves it back.
 */
export function cpuQuota(pid, cores, name) {
  const v1 = '/sys/fs/cgroup/cpu'
  const v2 = fs.existsSync('/sys/fs/cgroup/cgroup.controllers')
  const root = v2 ? '/sys/fs/cgroup' : v1
  if (!v2 && !fs.existsSync(path.join(v1, 'cpu.cfs_quota_us')))
    throw new Error('no cgroup cpu controller at /sys/fs/cgroup: TROVE_BENCH_CLUSTER_NODE_CPU needs one (and root)')
  const dir = path.join(root, name)
  fs.mkdirSync(dir)
  // A short period (10 ms): a node that spent its share waits at most the rest of it, as a
  // process sharing a core would, not the default period's 100 ms.
  if (v2) {
    fs.writeFileSync(path.join(dir, 'cpu.max'), `${Math.round(QUOTA_PERIOD_US * cores)} ${QUOTA_PERIOD_US}`)
  } else {
    fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(QUOTA_PERIOD_US))
    fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(Math.round(QUOTA_PERIOD_US * cores)))
  }
  fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid))
  return {
    /** Seconds the quota held the process back (cgroup v1 and v2 both report it). */
    throttledSeconds() {
      const stat = fs.readFileSync(path.join(dir, 'cpu.stat'), 'utf8')
      const v1time = /^throttled_time (\d+)/m.exec(stat)
      if (v1time) return Number(v1time[1]) / 1e9
      return Number(/^throttled_usec (\d+)/m.exec(stat)?.[1] ?? 0) / 1e6
    },
    remove() {
      for (const p of fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) {
        try {
          fs.writeFileSync(path.join(root, 'cgroup.procs'), p)
        } catch {
          // It ended meanwhile.
        }
      }
      fs.rmdirSync(dir)
    },
  }
}
