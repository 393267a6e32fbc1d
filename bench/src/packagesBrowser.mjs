import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { launchChromium } from './browser.mjs'
import { fillSqlite } from './packagesData.mjs'
import { startServer } from './server.mjs'

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url))

const PASSWORD = 'bench-admin-password'
const RUNS = 15
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]

/**
 * Types a name prefix into the top bar's search on the package list and measures, inside the page,
 * from the last key pressed to the first result row drawn that matches it. Everything counts: the
 * search's own pause after typing, the metadata call, and React drawing the rows.
 */
async function typeToResults(page, prefix) {
  const box = page.getByRole('combobox', { name: 'Search packages' })
  await box.fill('')
  // Wait for the empty state, so the next rows are the new search's.
  await page.getByText('Find your packages using the Search Bar').waitFor()
  await page.evaluate((p) => {
    const w = window
    w.__lastKey = 0
    w.__drawn = 0
    document.addEventListener('keydown', () => (w.__lastKey = performance.now()), { capture: true })
    const seen = () => [...document.querySelectorAll('[data-package-id]')].some((e) => e.textContent?.toLowerCase().includes(p))
    const observer = new MutationObserver(() => {
      if (!w.__drawn && seen()) {
        w.__drawn = performance.now()
        observer.disconnect()
      }
    })
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
  }, prefix)
  await box.pressSequentially(prefix, { delay: 30 })
  await page.waitForFunction(() => window.__drawn > 0, null, { timeout: 10_000 })
  return page.evaluate(() => {
    // The list call that answered this search: when it left and how long the server took.
    const call = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/mds/packages') && e.startTime >= window.__lastKey)
      .pop()
    return {
      total: window.__drawn - window.__lastKey,
      sent: call ? call.startTime - window.__lastKey : Number.NaN,
      call: call ? call.responseEnd - call.startTime : Number.NaN,
      drawn: call ? window.__drawn - call.responseEnd : Number.NaN,
    }
  })
}

/**
 * A migrated SQLite database filled with the packages data set the metadata API benchmark uses
 * (100,000 packages, 1,000,000 versions; packagesData.mjs).
 */
async function preparedDataDir() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-browser-'))
  const first = await startServer({ TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_DATA_DIR: dataDir })
  await first.stop()
  const dbFile = path.join(dataDir, 'trove.db')
  await fillSqlite(dbFile)
  const label = '100,000 packages, 1,000,000 versions'
  // Prefixes of real names spread over the set, as a person would type them.
  const SQLite = serverRequire('better-sqlite3')
  const db = new SQLite(dbFile, { readonly: true })
  const names = db.prepare('SELECT name FROM packages WHERE id % 6007 = 3 ORDER BY id LIMIT ?').all(RUNS + 1)
  db.close()
  return { dataDir, label, prefixes: names.map((n) => n.name.slice(0, 9).toLowerCase()) }
}

/** The packages browser in a real browser on a large data set. */
export async function benchPackagesBrowser(row) {
  const { dataDir, label, prefixes } = await preparedDataDir()
  const server = await startServer({ TROVE_ADMIN_PASSWORD: PASSWORD, TROVE_DATA_DIR: dataDir })
  const browser = await launchChromium()
  try {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.url}/ui/login`)
    await page.getByRole('textbox', { name: 'Username' }).fill('admin')
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Log In' }).click()
    await page.waitForURL(/\/ui\/admin\//)
    await page.goto(`${server.url}/ui/packages`)
    await page.getByRole('combobox', { name: 'Search packages' }).waitFor()
    // One warm-up run first (code chunks, caches).
    await typeToResults(page, prefixes[0])
    const load = os.loadavg()[0].toFixed(1)
    const runs = []
    for (const prefix of prefixes.slice(1)) runs.push(await typeToResults(page, prefix))
    const ms = runs.map((r) => r.total)
    const p50 = quantile(ms, 0.5)
    const max = Math.max(...ms)
    const part = (key) =>
      Math.round(
        quantile(
          runs.map((r) => r[key]),
          0.5,
        ),
      )
    row(
      'packages: typing to results drawn',
      Math.round(p50),
      'ms p50',
      '< 300',
      p50 < 300,
      `SQLite, ${label}; load ${load}; ${RUNS} prefixes of 9 characters, max ${Math.round(max)} ms; p50 parts: call sent ${part('sent')} ms after the last key (the pause after typing), call ${part('call')} ms, drawn ${part('drawn')} ms after`,
    )
    await context.close()
  } finally {
    await browser.close()
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
