// npm run bench: Trove's figures, one table. Each row names its target; see docs/performance.md.
import autocannon from 'autocannon'
import { loginPageJavaScript } from './loginPageJs.mjs'
import { startServer } from './server.mjs'

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const rows = []
const row = (name, value, unit, target, ok, note = '') => rows.push({ name, value, unit, target, ok, note })

// 1. Cold start to first successful ping, empty database (new data dir each time).
const starts = []
for (let i = 0; i < 5; i++) {
  const server = await startServer()
  starts.push(server.startMs)
  await server.stop()
}
const coldStart = median(starts)
row(
  'cold start to first ping (empty db)',
  coldStart.toFixed(0),
  'ms',
  '< 1500',
  coldStart < 1500,
  `median of 5, max ${Math.max(...starts).toFixed(0)}`,
)

// 2. Ping throughput, 50 connections.
const server = await startServer()
try {
  const run = (duration) =>
    new Promise((resolve, reject) =>
      autocannon({ url: `${server.url}/api/system/ping`, connections: 50, duration }, (err, result) =>
        err ? reject(err) : resolve(result),
      ),
    )
  await run(2) // warm-up
  const result = await run(10)
  const rps = result.requests.average
  row(
    '/api/system/ping throughput',
    rps.toFixed(0),
    'req/s',
    '>= 15000',
    rps >= 15000 && result.non2xx === 0,
    `50 connections, 10 s; p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; errors ${result.errors + result.non2xx}`,
  )

  // 3. What the login page makes the browser download.
  const js = await loginPageJavaScript(server.url)
  row('login page JavaScript (gzip)', js.gzipKB.toFixed(1), 'KB', '<= 150', js.gzipKB <= 150, `${js.files.length} files`)
} finally {
  await server.stop()
}

const header = ['benchmark', 'value', 'unit', 'target', 'met', 'notes']
const table = rows.map((r) => [r.name, r.value, r.unit, r.target, r.ok ? 'yes' : 'NO', r.note])
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => String(t[i]).length)))
const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`
console.log(line(header))
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
for (const t of table) console.log(line(t))
console.log(`\nnode ${process.versions.node}, ${(await import('node:os')).cpus().length} cores, ${new Date().toISOString()}`)
