// The processes around a Trove cluster on one machine, for the cluster bench: a PostgreSQL server
// of its own, s3rver, haproxy; and what each of them (and the machine) spent in CPU, from /proc.
import { spawn } from 'node:child_process'
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
  return {
    pid: child.pid,
    cpu: () => cpuSeconds(child.pid),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return
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
  const ended = () =>
    child.exitCode !== null || child.signalCode !== null ? `exited (${child.signalCode ?? child.exitCode}): ${stderr}` : undefined
  return { ...owned(child), endpoint, ended }
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
