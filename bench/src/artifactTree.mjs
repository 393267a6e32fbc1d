// The artifact tree on a large repository: 1,000,000 files in 10,000 folders (100 each) at the
// root of one repository, and a folder `big/` holding 100,000 more in 1,000 subfolders. Filled
// straight into a migrated SQLite database with the server stopped, then measured through HTTP
// and in Chromium.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { launchChromium } from './browser.mjs'
import { startServer } from './server.mjs'
import { median } from './stats.mjs'

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url))
const PASSWORD = 'bench-admin-password'
const REPO = 'tree-big'
const FOLDERS = 10_000
const PER_FOLDER = 100
const BIG_FOLDERS = 1_000
const BLOB = 'a'.repeat(64)
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]
const pad = (n, w) => String(n).padStart(w, '0')

export function fill(dbFile) {
  const SQLite = serverRequire('better-sqlite3')
  const db = new SQLite(dbFile)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  db.prepare(
    "INSERT INTO repositories (key, rclass, package_type, created_at, updated_at) VALUES (?, 'local', 'generic', 0, 0)",
  ).run(REPO)
  db.prepare('INSERT INTO blobs (sha256, size, md5, sha1, created_at, touched_at) VALUES (?, 1, ?, ?, 0, 0)').run(
    BLOB,
    'b'.repeat(32),
    'c'.repeat(40),
  )
  const file = db.prepare(
    "INSERT INTO files (repo_key, path, name, size, md5, sha1, sha256, mime_type, created_at, modified_at) VALUES (?, ?, ?, 1, ?, ?, ?, 'application/octet-stream', 0, 0)",
  )
  const folder = (dir, count) => {
    for (let f = 0; f < count; f++) {
      const name = `f${pad(f, 3)}.bin`
      file.run(REPO, `${dir}/${name}`, name, 'b'.repeat(32), 'c'.repeat(40), BLOB)
    }
  }
  for (let d = 0; d < FOLDERS; d += 500) {
    db.transaction(() => {
      for (let k = d; k < d + 500; k++) folder(`d${pad(k, 5)}`, PER_FOLDER)
    })()
  }
  for (let d = 0; d < BIG_FOLDERS; d += 100) {
    db.transaction(() => {
      for (let k = d; k < d + 100; k++) folder(`big/s${pad(k, 4)}`, PER_FOLDER)
    })()
  }
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}

const rssMb = (pid) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

/** @param {import('./stats.mjs').Row} row */
export async function benchArtifactTree(row) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-tree-'))
  const first = await startServer({ TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_DATA_DIR: dataDir })
  await first.stop()
  const filled = performance.now()
  fill(path.join(dataDir, 'trove.db'))
  const fillS = (performance.now() - filled) / 1000
  const server = await startServer({ TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_DATA_DIR: dataDir })
  // A session, as the console calls (a password in Basic would cost an argon2 check per request).
  const login = await fetch(`${server.url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: PASSWORD, type: 'login' }),
  })
  const auth = {
    cookie: login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  }
  const label = `${(FOLDERS * PER_FOLDER + BIG_FOLDERS * PER_FOLDER).toLocaleString('en')} files`
  try {
    const timed = async (url) => {
      const t = performance.now()
      const res = await fetch(`${server.url}${url}`, { headers: auth })
      const body = await res.json()
      if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`)
      return { ms: performance.now() - t, body }
    }
    const tree = (q) => `/ui/api/v1/ui/artifacts/tree?repoKey=${REPO}&${q}`
    for (let i = 0; i < 20; i++) await timed(tree('limit=200'))
    const firstPage = []
    for (let i = 0; i < 200; i++) firstPage.push((await timed(tree('limit=200'))).ms)
    const p50 = median(firstPage)
    row(
      'tree: first page of a folder of 10,000 children (200)',
      p50.toFixed(2),
      'ms p50',
      '< 10 ms',
      p50 < 10,
      `${label}; p95 ${quantile(firstPage, 0.95).toFixed(2)} ms, HTTP round trip on loopback`,
    )
    const middle = []
    for (let i = 0; i < 100; i++) {
      const after = `d${pad(Math.floor((i * 97) % FOLDERS), 5)}/`
      middle.push((await timed(tree(`limit=200&after=${encodeURIComponent(after)}`))).ms)
    }
    row(
      'tree: a page further in (200 after a cursor)',
      median(middle).toFixed(2),
      'ms p50',
      '-',
      null,
      `p95 ${quantile(middle, 0.95).toFixed(2)} ms`,
    )
    const big = []
    for (let i = 0; i < 20; i++) big.push((await timed(tree('limit=1000'))).ms)
    row('tree: a page of 1,000 children', median(big).toFixed(2), 'ms p50', '-', null, 'the largest page the tree asks for')

    // ?list&deep=1 over 100,000 files, streamed: how much the server's memory grows meanwhile.
    const before = rssMb(server.pid)
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid))
    }, 20)
    const t = performance.now()
    const res = await fetch(`${server.url}/api/storage/${REPO}/big?list&deep=1&listFolders=1`, { headers: auth })
    let bytes = 0
    for await (const chunk of res.body) bytes += chunk.length
    const listMs = performance.now() - t
    clearInterval(sampler)
    peak = Math.max(peak, rssMb(server.pid))
    const growth = peak - before
    row(
      'storage ?list&deep=1 over 100,000 files: RSS growth',
      growth.toFixed(1),
      'MB',
      '< 50 MB',
      growth < 50,
      `${(bytes / 1e6).toFixed(1)} MB of JSON in ${(listMs / 1000).toFixed(2)} s`,
    )

    // A deep link in Chromium: from navigation start to the selected node drawn with its details.
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.goto(`${server.url}/ui/login`)
      await page.getByRole('textbox', { name: 'Username' }).fill('admin')
      await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Log In' }).click()
      await page.waitForURL(/\/ui\/(admin|packages|overview)/)
      const drawnAt = (name) =>
        page.waitForFunction(
          (n) => {
            const selected = document.querySelector('[role="treeitem"][aria-selected="true"]')
            const heading = [...document.querySelectorAll('h2')].some((h) => h.textContent === n)
            return selected?.textContent?.includes(n) && heading ? performance.now() : 0
          },
          name,
          { polling: 'raf', timeout: 30_000 },
        )
      const link = (i) => ({
        path: `/ui/artifacts/browse/tree/General/${REPO}/d${pad(1000 + i * 1234, 5)}/f${pad(50 + i, 3)}.bin`,
        name: `f${pad(50 + i, 3)}.bin`,
      })
      // Pasted in the address bar: the whole console starts, then the tree opens at the node.
      const cold = []
      for (let i = 0; i < 7; i++) {
        const { path: p, name } = link(i)
        await page.goto(`${server.url}${p}`)
        const t = await (await drawnAt(name)).jsonValue()
        if (i > 0) cold.push(t)
      }
      // Followed inside the running console (a build's artifact link, a search result): the router
      // opens the tree screen at the node.
      const warm = []
      for (let i = 0; i < 7; i++) {
        const { path: p, name } = link(i)
        await page.goto(`${server.url}/ui/packages`)
        await page.getByRole('heading', { name: 'Packages', level: 1 }).waitFor()
        const start = await page.evaluate((to) => {
          const t = performance.now()
          window.history.pushState({}, '', to)
          window.dispatchEvent(new PopStateEvent('popstate'))
          return t
        }, p)
        const t = await (await drawnAt(name)).jsonValue()
        if (i > 0) warm.push(t - start)
      }
      const inApp = median(warm)
      row(
        'tree: a deep link followed in the console',
        inApp.toFixed(0),
        'ms median',
        '< 500 ms',
        inApp < 500,
        `link → node selected, details drawn; the node is the 1,000th–8,400th of 10,000 children (fill ${fillS.toFixed(0)} s)`,
      )
      row(
        'tree: a deep link opened in a new tab',
        median(cold).toFixed(0),
        'ms median',
        '-',
        null,
        "navigation start → the same; the console's own start-up is most of it",
      )
    } finally {
      await browser.close()
    }
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
