import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchChromium } from './browser.mjs'
import { startServer } from './server.mjs'

const PASSWORD = 'bench-admin-password'
const assets = new URL('../../apps/web/dist/assets/', import.meta.url).pathname
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Signs in and waits until the landing page (topology) is fully rendered: heading and every service card. */
async function signInToLanding(browser, url) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${url}/ui/login`, { waitUntil: 'networkidle' })
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD)
  const started = Date.now()
  await page.getByRole('button', { name: 'Log In' }).click()
  await page.getByRole('heading', { name: 'Topology', level: 1 }).waitFor()
  await page.getByRole('region', { name: 'Tracker' }).waitFor()
  const ms = Date.now() - started
  // The console's own calls during that time, to see how many overlapped.
  const calls = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/ui/api/v1/'))
      .map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd })),
  )
  await context.close()
  return { ms, calls }
}

function maxInFlight(calls) {
  const edges = calls.flatMap((c) => [
    [c.start, 1],
    [c.end, -1],
  ])
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let now = 0
  let max = 0
  for (const [, d] of edges) {
    now += d
    max = Math.max(max, now)
  }
  return max
}

/** The shell: sign-in to landing, screen chunk sizes, start-up parallelism. */
export async function benchShell(row) {
  // Screen chunks: every lazily loaded file but the entry, gzipped at level 9.
  const chunks = fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js') && !f.startsWith('index-'))
    .map((f) => ({ f, kb: gzipSync(fs.readFileSync(path.join(assets, f)), { level: 9 }).length / 1024 }))
    .sort((a, b) => b.kb - a.kb)
  const biggest = chunks[0]
  row(
    'largest screen chunk (gzip)',
    biggest.kb.toFixed(1),
    'KB',
    '<= 100',
    biggest.kb <= 100,
    `${biggest.f}, ${chunks.length} chunks`,
  )

  const server = await startServer({ TROVE_ADMIN_PASSWORD: PASSWORD })
  const browser = await launchChromium()
  try {
    await signInToLanding(browser, server.url) // warm the server and the browser's disk cache
    const runs = []
    for (let i = 0; i < 7; i++) runs.push(await signInToLanding(browser, server.url))
    const ms = median(runs.map((r) => r.ms))
    row(
      'sign-in to landing fully rendered',
      ms,
      'ms median',
      '< 1000',
      ms < 1000,
      `7 runs after a warm-up, topology with every card`,
    )
    const last = runs.at(-1)
    const startup = last.calls.filter((c) => !c.name.endsWith('/auth/login'))
    row(
      'start-up calls in flight at once',
      maxInFlight(startup),
      'max',
      '> 1 (§4.5 step 3)',
      maxInFlight(startup) > 1,
      `${startup.length} console calls from sign-in to landing`,
    )
  } finally {
    await browser.close()
    await server.stop()
  }
}
