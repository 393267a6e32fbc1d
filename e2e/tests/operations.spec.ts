import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { unzip } from '../../apps/server/test/zip'
import { shoot } from '../ownServer'
import { ADMIN_PASSWORD } from '../playwright.config'
import { expectAccessible } from './axe'
import { signInAsAdmin } from './signIn'

const dataDir = `${process.env.TROVE_E2E_DATA_DIR}/server-0`
const shots = process.env.TROVE_E2E_SCREENSHOTS

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

test('the admin lands on topology: the node running the repository, and the setting that turns on the scanner and distribution', async ({
  page,
  baseURL,
}) => {
  // The journeys' server runs TROVE_MODULES=repository under its host name (no TROVE_NODE_ID).
  await signInAsAdmin(page)
  const node = page.getByRole('table', { name: 'Nodes' }).getByRole('row', { name: `Node ${os.hostname()}` })
  await expect(node).toContainText(String(baseURL))
  await expect(node.getByText('repository', { exact: true })).toBeVisible()
  await expect(node.getByText('Online')).toBeVisible()

  const repository = page.getByRole('region', { name: 'Artifact Repository' })
  await expect(repository.getByText('Running', { exact: true })).toBeVisible()
  await expect(repository).toContainText(os.hostname())
  const scanner = page.getByRole('region', { name: 'Security Scanner' })
  await expect(scanner.getByText('Not running')).toBeVisible()
  await expect(scanner.getByText('TROVE_MODULES=repository,scanner', { exact: true })).toBeVisible()
  const distribution = page.getByRole('region', { name: 'Distribution' })
  await expect(distribution.getByText('Not running')).toBeVisible()
  await expect(distribution.getByText('TROVE_MODULES=repository,distribution', { exact: true })).toBeVisible()
  // Trove has no pipelines: no setting is made up for them.
  const pipelines = page.getByRole('region', { name: 'Pipelines' })
  await expect(pipelines).toContainText('Not part of Trove')
  await expect(pipelines).not.toContainText('TROVE_MODULES')
  await expectAccessible(page)
  await shoot(page, 'topology')

  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Dark theme' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  try {
    // The user menu closes after its transition: axe would read its half-gone list.
    await expect(page.getByRole('menu')).toHaveCount(0)
    await expectAccessible(page)
  } finally {
    await page.keyboard.press('Alt+T')
  }
})

test('an admin watches new log lines of the running node appear', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/monitoring/system_logs')
  const log = page.getByRole('log', { name: 'Log lines' })
  // The tail of the file: the server's own request lines, whatever ran before.
  await expect(log).toContainText('"msg":"request"')
  await expect(page.getByTestId('refresh-countdown')).toHaveText(/Refreshing in \ds/)

  // Something happens on the server: its request line is appended to the log.
  const marker = `marker-${Date.now()}`
  await page.request.get(`/api/system/version?${marker}=1`)
  await page.getByRole('button', { name: 'Refresh now' }).click()
  await expect(log).toContainText(marker)

  // Paused, the countdown stops; resumed, the next poll brings the next line by itself.
  await page.getByRole('button', { name: 'Pause' }).click()
  await expect(page.getByTestId('refresh-countdown')).toHaveText('Paused')
  await page.getByRole('button', { name: 'Resume' }).click()
  const second = `second-${Date.now()}`
  await page.request.get(`/api/system/version?${second}=1`)
  await expect(log).toContainText(second, { timeout: 8000 })
  await expectAccessible(page)
  if (shots) await page.screenshot({ path: `${shots}/system-logs.png`, fullPage: true })
})

test('an admin creates, downloads and opens a support bundle', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/support-zone')
  await page.getByRole('button', { name: 'Create Support Bundle' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create Support Bundle' })
  const name = `e2e-${Date.now()}`
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name)
  await dialog.getByRole('textbox', { name: 'Description' }).fill('made in the browser')
  await dialog.getByRole('textbox', { name: 'Thread dump count' }).fill('2')
  await dialog.getByRole('textbox', { name: 'Thread dump interval (ms)' }).fill('100')
  await dialog.getByRole('button', { name: 'Create' }).click()

  const row = page.getByRole('row', { name: `Bundle ${name}` })
  await expect(row).toBeVisible()
  await expect(row.getByText('Ready')).toBeVisible({ timeout: 15_000 })
  await expectAccessible(page)
  if (shots) await page.screenshot({ path: `${shots}/support-zone.png`, fullPage: true })

  // The download opens in a new window (spec §7); the browser saves what that window receives.
  const popup = page.waitForEvent('popup')
  const fromOpener = page.waitForEvent('download')
  await row.getByRole('button', { name: 'Download' }).click()
  const download = await Promise.race([fromOpener, popup.then((p) => p.waitForEvent('download'))])
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bundle-')), download.suggestedFilename())
  await download.saveAs(file)
  const files = await unzip(fs.readFileSync(file))
  expect([...files.keys()].sort()).toEqual([
    'configuration/trove-config.json',
    'logs/trove.log',
    'manifest.json',
    'system/system-info.json',
    'thread_dumps/report-1.json',
    'thread_dumps/report-2.json',
  ])
  expect(JSON.parse(files.get('manifest.json') ?? '{}')).toMatchObject({ name, description: 'made in the browser' })
  expect(JSON.parse(files.get('configuration/trove-config.json') ?? '{}').environment.adminPassword).toBe('***')
  for (const [entry, text] of files) expect(text, entry).not.toContain(ADMIN_PASSWORD)
  expect(files.get('logs/trove.log')).toContain('server started')

  await row.getByRole('button', { name: 'Delete' }).click()
  await expect(row).toHaveCount(0)
})

test('an admin sees a second node come and go in service status', async ({ page }) => {
  test.setTimeout(60_000)
  const port = await freePort()
  let second: ChildProcess | undefined = spawn(process.execPath, ['../apps/server/dist/src/main.js'], {
    env: {
      ...process.env,
      TROVE_PORT: String(port),
      TROVE_HOST: '127.0.0.1',
      TROVE_DATA_DIR: dataDir,
      TROVE_LOG_DIR: path.join(dataDir, 'logs', 'second-node'),
      TROVE_LOG_STDOUT: 'false',
      TROVE_NODE_ID: 'second-node',
      TROVE_MODULES: 'repository',
      TROVE_HEARTBEAT_MS: '500',
      TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
    stdio: 'ignore',
  })
  try {
    await signInAsAdmin(page)
    await page.goto('/ui/admin/monitoring/service-status')
    const section = page.getByRole('region', { name: 'Artifact Repository' })
    const row = section.getByRole('row', { name: 'Node second-node' })
    await expect(row.getByText('Online')).toBeVisible({ timeout: 15_000 })
    await expect(section.getByRole('row').filter({ hasText: 'Online' })).toHaveCount(2)
    await expect(section.getByText('2 of 2 healthy')).toBeVisible()
    await expect(row).toContainText(/\d+s|\dm/)
    await expectAccessible(page)

    // Its logs, read through the first node.
    await page.goto('/ui/admin/monitoring/system_logs')
    await page.getByRole('combobox', { name: 'Node' }).click()
    await page.getByRole('option', { name: 'second-node' }).click()
    await expect(page.getByRole('log', { name: 'Log lines' })).toContainText('server started')

    // Peers: both nodes with their addresses, and what each last saw of the other.
    await page.goto('/ui/admin/monitoring/pdn')
    const peerRow = page.getByRole('table', { name: 'Nodes' }).getByRole('row', { name: /second-node/ })
    await expect(peerRow).toContainText(`http://127.0.0.1:${port}`)
    await expect(peerRow.getByText('Online')).toBeVisible()
    const sightings = page.getByRole('table', { name: 'Sightings' })
    await expect(sightings.getByRole('row')).toHaveCount(3)
    // Each node beats, reads the other, and the screen asks again every 5 s.
    await expect(sightings.getByText('never seen')).toHaveCount(0, { timeout: 20_000 })
    await expect(sightings.getByText('Online')).toHaveCount(2)
    await expectAccessible(page)
    if (shots) await page.screenshot({ path: `${shots}/peers.png`, fullPage: true })

    await page.goto('/ui/admin/monitoring/service-status')
    if (shots) await page.screenshot({ path: `${shots}/service-status.png`, fullPage: true })
    second.kill('SIGTERM')
    second = undefined
    await expect(row.getByText('Offline')).toBeVisible({ timeout: 15_000 })
    await expect(row).toContainText('unavailable')
    await expect(section.getByText('1 of 2 healthy')).toBeVisible()
    await expectAccessible(page)
    await row.getByRole('button', { name: 'Delete node second-node' }).click()
    await page.getByRole('dialog', { name: 'Delete node' }).getByRole('button', { name: 'Delete' }).click()
    await expect(row).toHaveCount(0)
    await expect(section.getByRole('row').filter({ hasText: 'Online' })).toHaveCount(1)
  } finally {
    second?.kill('SIGTERM')
  }
})

test('the operations screens pass the accessibility check in the dark theme, and fit a 1024 px laptop', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await signInAsAdmin(page)
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Dark theme' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  try {
    await page.goto('/ui/admin/monitoring/service-status')
    const badge = page.getByRole('region', { name: 'Artifact Repository' }).getByText('Online').first()
    await expect(badge).toBeVisible()
    // The status badge is shown whole, not cut to "ON…".
    expect(await badge.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true)
    await expectAccessible(page)
    for (const path of ['/ui/admin/monitoring/system_logs', '/ui/admin/support-zone']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      await expectAccessible(page)
      // Nothing wider than the window: no sideways scrolling on a laptop.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true)
    }
  } finally {
    await page.keyboard.press('Alt+T')
  }
})
