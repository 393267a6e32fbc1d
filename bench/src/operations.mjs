// Operations: tailing a 1 GB log, a support bundle over 1 GB of logs, service status with 10 nodes.
// The big files are generated in a temp dir at bench time and removed afterwards.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './server.mjs'
import { median } from './stats.mjs'

const main = new URL('../../apps/server/dist/src/main.js', import.meta.url).pathname
const PASSWORD = 'bench-admin-password'
const GB = 1024 ** 3
const MB = 1024 ** 2

/** Resident memory of a process, in bytes (Linux). */
function rss(pid) {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return m ? Number(m[1]) * 1024 : 0
}

/** Writes `bytes` of pino-like JSON lines, in large chunks (about 1 KB a line, each line different). */
function writeLog(file, bytes) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const fd = fs.openSync(file, 'w')
  const pad = 'x'.repeat(900)
  const time = new Date(Date.now() - 3600_000).toISOString()
  let written = 0
  let n = 0
  while (written < bytes) {
    const lines = []
    for (let i = 0; i < 8192; i++, n++)
      lines.push(`{"level":30,"time":"${time}","service":"trove","seq":${n},"pad":"${pad}","msg":"bench line ${n}"}\n`)
    const chunk = Buffer.from(lines.join(''))
    fs.writeSync(fd, chunk)
    written += chunk.length
  }
  fs.closeSync(fd)
  return written
}

async function start(dataDir, env = {}) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      TROVE_DATA_DIR: dataDir,
      TROVE_PORT: String(port),
      TROVE_HOST: '127.0.0.1',
      TROVE_LOG_STDOUT: 'false',
      TROVE_LOG_MAX_SIZE: '4g',
      TROVE_ADMIN_PASSWORD: PASSWORD,
      TROVE_NODE_ID: 'bench-node',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for (;;) {
    try {
      if ((await fetch(`${url}/api/system/ping`)).ok) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('the server exited during start')
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Signs in as a browser does (a password check per call would dominate every figure). */
async function signIn(server) {
  const res = await fetch(`${server.url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: PASSWORD, type: 'login' }),
  })
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`)
  const pairs = res.headers.getSetCookie().map((c) => c.split(';')[0])
  const csrf = pairs.find((p) => p.startsWith('trove_csrf='))?.slice('trove_csrf='.length) ?? ''
  server.headers = { cookie: pairs.join('; '), 'x-csrf-token': csrf }
}

async function api(server, pathAndQuery, init = {}) {
  if (!server.headers) await signIn(server)
  const res = await fetch(`${server.url}/ui/api/v1${pathAndQuery}`, { ...init, headers: { ...server.headers, ...init.headers } })
  if (!res.ok) throw new Error(`${pathAndQuery}: ${res.status} ${await res.text()}`)
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.text()
}

/** Samples a process's memory every 50 ms while `work` runs; resolves with the peak. */
async function peakDuring(pid, work) {
  let peak = rss(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rss(pid))
  }, 50)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(peak, rss(pid))
}

/** @param {import('./stats.mjs').Row} row */
export async function benchOperations(row) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-ops-'))
  const logFile = path.join(dataDir, 'logs', 'trove.log')
  try {
    const size = writeLog(logFile, GB)
    const server = await start(dataDir)
    try {
      // 1. A client tails the 1 GB log while lines are appended to it.
      let position = (await api(server, '/system/logs/data/repository?id=trove.log')).file_size
      const before = rss(server.pid)
      const times = []
      let received = 0
      const writer = fs.openSync(logFile, 'a')
      const peak = await peakDuring(server.pid, async () => {
        for (let i = 0; i < 300; i++) {
          fs.writeSync(writer, `{"level":30,"time":"${new Date().toISOString()}","msg":"appended ${i}"}\n`.repeat(20))
          const t0 = performance.now()
          const data = await api(server, `/system/logs/data/repository?id=trove.log&file_size=${position}`)
          times.push(performance.now() - t0)
          position = data.file_size
          received += data.log_content.length
        }
      })
      fs.closeSync(writer)
      const p50 = median(times)
      row(
        'log poll on a 1 GB log, p50',
        p50.toFixed(2),
        'ms',
        '< 20',
        p50 < 20,
        `${times.length} polls, ${(size / GB).toFixed(2)} GB file, ${Math.round(received / 1024)} KB received`,
      )
      const growth = (peak - before) / MB
      row(
        'log tail: server memory growth',
        growth.toFixed(1),
        'MB',
        '< 50',
        growth < 50,
        `RSS ${Math.round(before / MB)} → peak ${Math.round(peak / MB)} MB`,
      )

      // 2. A support bundle over the 1 GB of logs.
      const beforeBundle = rss(server.pid)
      const t0 = performance.now()
      let bundle
      const bundlePeak = await peakDuring(server.pid, async () => {
        const created = await api(server, '/ui/userSupport/generateBundle', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'bench', parameters: { thread_dump: { count: 1, interval: 0 } } }),
        })
        for (;;) {
          bundle = (await api(server, '/ui/userSupport/listBundles')).find((b) => b.id === created.id)
          if (bundle?.status !== 'in_progress') break
          await new Promise((r) => setTimeout(r, 200))
        }
      })
      const seconds = (performance.now() - t0) / 1000
      const bundleGrowth = (bundlePeak - beforeBundle) / MB
      row(
        'bundle over 1 GB of logs: memory growth',
        bundleGrowth.toFixed(1),
        'MB',
        '< 100',
        bundleGrowth < 100 && bundle?.status === 'success',
        `${bundle?.status}, ${seconds.toFixed(1)} s, zip ${Math.round((bundle?.size ?? 0) / MB)} MB, RSS ${Math.round(beforeBundle / MB)} → peak ${Math.round(bundlePeak / MB)} MB`,
      )
    } finally {
      await server.stop()
    }
    fs.rmSync(path.join(dataDir, 'logs'), { recursive: true, force: true })
    fs.rmSync(path.join(dataDir, 'support'), { recursive: true, force: true })

    // 3. Service status with 10 nodes: this one and 9 more processes' rows on the same database.
    const status = await start(dataDir)
    try {
      const { default: SQLite } = await import('better-sqlite3')
      const db = new SQLite(path.join(dataDir, 'trove.db'))
      const now = Date.now()
      const node = db.prepare(
        'INSERT INTO nodes (node_id, url, version, started_at, heartbeat_ms, last_heartbeat) VALUES (?, ?, ?, ?, ?, ?)',
      )
      const service = db.prepare('INSERT INTO node_services (node_id, service, started_at, last_heartbeat) VALUES (?, ?, ?, ?)')
      for (let i = 2; i <= 10; i++) {
        node.run(`node-${i}`, `http://10.0.0.${i}:8080`, '0.1.0', now, 5000, now + 3600_000)
        service.run(`node-${i}`, 'repository', now, now + 3600_000)
      }
      db.close()
      const nodes = (await api(status, '/system/status/ha')).repository.nodes.length
      const times = []
      for (let i = 0; i < 300; i++) {
        const t0 = performance.now()
        await api(status, '/system/status/ha')
        times.push(performance.now() - t0)
      }
      const p50 = median(times.slice(20))
      row(
        'service status with 10 nodes, p50',
        p50.toFixed(2),
        'ms',
        '< 10',
        p50 < 10 && nodes === 10,
        `${nodes} nodes, ${times.length} calls`,
      )
    } finally {
      await status.stop()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
