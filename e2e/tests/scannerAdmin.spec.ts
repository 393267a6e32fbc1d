import fs from 'node:fs'
import http from 'node:http'
import type net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { format, Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { npmPublish } from '../npmClient'
import { type OwnServer, shoot, signInAt, startOwnServer } from '../ownServer'
import { csrfOf, signInAsAdmin } from './signIn'

// The scanner's administration in the console, on a server of its own with the scanner module on:
// advisories uploaded and synced from a feed, a blocking policy and a watch made in the forms, a
// version published with npm that violates it (its download refused), and the violation ignored
// with a reason, which lets the download through and lists the rule.
const FIXTURES = fileURLToPath(new URL('../../apps/server/test/fixtures/osv', import.meta.url))
const LODASH = 'GHSA-35jh-r3h4-6jhm'
const records = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as { id: string })

let server: OwnServer
let feed: http.Server
let feedUrl: string
let work: string

test.beforeAll(async () => {
  test.setTimeout(60_000)
  server = await startOwnServer('scanner-admin', { TROVE_MODULES: 'repository,scanner' })
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-scanner-admin-'))
  // The advisory feed: the same records as an OSV JSON array, over http.
  feed = http.createServer((req, res) => {
    if (req.url !== '/osv/all.json') return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(records))
  })
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve))
  feedUrl = `http://127.0.0.1:${(feed.address() as net.AddressInfo).port}/osv/all.json`
})
test.afterAll(async () => {
  server?.stop()
  await new Promise((resolve) => feed?.close(resolve))
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

/** A package of `manifest` in the journey's folder, published with npm. */
function publish(registry: string, token: string, manifest: { name: string; version: string; license: string }) {
  const dir = path.join(work, `${manifest.name}-${manifest.version}`)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest))
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = 1\n')
  return npmPublish(work, dir, registry, token)
}

test('an admin uploads advisories, syncs a feed, sets a blocking policy and a watch, and ignores the violation that follows', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInAt(page, server.url)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const api = (p: string) => `${server.url}${p}`
  expect(
    (
      await page.request.put(api('/api/repositories/npm-local'), { headers, data: { rclass: 'local', packageType: 'npm' } })
    ).status(),
  ).toBe(201)
  const token = (
    await (await page.request.post(api('/ui/api/v1/ui/userIdentifyToken/admin'), { headers, data: { expiresIn: 3600 } })).json()
  ).access_token as string

  // ---- the advisory database, reached from the admin menu ----
  await page.goto(`${server.url}/ui/admin/security_policies`)
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Advisory Database' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/security_database$/)
  await expect(page.getByRole('heading', { name: ScreenMessages.scannerDatabaseTitle })).toBeVisible()
  await expect(page.getByLabel('Advisories', { exact: true })).toHaveText('0')
  await expect(page.getByText(ScreenMessages.scannerNoImports)).toBeVisible()

  // A malformed record is refused with its field named, and nothing is imported.
  const upload = page.getByRole('form', { name: 'Upload advisories' })
  await upload.locator('input[type=file]').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        id: 'BROKEN-1',
        modified: '2024-01-01T00:00:00Z',
        affected: [{ package: { ecosystem: 'npm', name: 'x' }, ranges: [{ type: 'SEMVER', events: [{}] }] }],
      }),
    ),
  })
  await upload.getByRole('button', { name: 'Import' }).click()
  await expect(upload.getByRole('alert')).toContainText('BROKEN-1')
  const imports = page.getByRole('table', { name: 'Last imports' })
  await expect(imports.getByRole('row').filter({ hasText: 'upload:broken.json' })).toContainText('failed')
  await expect(page.getByLabel('Advisories', { exact: true })).toHaveText('0')

  // The fixtures, as one OSV array.
  await upload.locator('input[type=file]').setInputFiles({
    name: 'osv-fixtures.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(records)),
  })
  await upload.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByText(format(ScreenMessages.scannerImported, { records: records.length, versions: 0 }))).toBeVisible()
  await expect(page.getByLabel('Advisories', { exact: true })).toHaveText(String(records.length))
  const done = imports.getByRole('row').filter({ hasText: 'upload:osv-fixtures.json' })
  await expect(done).toContainText('done')
  await expect(done).toContainText(String(records.length))

  // The feed: a bad URL is refused on its field; a good one is saved, then synced now.
  const feedForm = page.getByRole('form', { name: 'Advisory feed' })
  const url = feedForm.getByRole('textbox', { name: 'Feed URL' })
  await url.fill('ftp://mirror.example/all.zip')
  await feedForm.getByRole('button', { name: 'Save' }).click()
  await expect(feedForm.getByText(Messages.invalidUrl)).toBeVisible()
  await url.fill(feedUrl)
  await feedForm.getByRole('textbox', { name: 'Sync every (hours)' }).fill('12')
  await feedForm.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText(ScreenMessages.scannerFeedSaved)).toBeVisible()
  await feedForm.getByRole('button', { name: 'Sync now' }).click()
  await expect(imports.getByRole('row').filter({ hasText: feedUrl })).toContainText('done')
  await expect(page.getByLabel('Advisories', { exact: true })).toHaveText(String(records.length))
  await shoot(page, 'scanner-admin-database')

  // ---- a policy that blocks downloads of anything high or worse ----
  await page.goto(`${server.url}/ui/admin/security_policies`)
  await expect(page.getByText(ScreenMessages.scannerNoPolicies)).toBeVisible()
  await page.getByRole('button', { name: 'New policy' }).click()
  const policy = page.getByRole('dialog', { name: 'New policy' })
  await policy.getByRole('textbox', { name: 'Name' }).fill('no-high')
  await policy.getByRole('textbox', { name: 'Description' }).fill('High and critical advisories, and AGPL, are not shipped')
  await policy.getByRole('combobox', { name: 'Minimum severity' }).selectOption('high')
  const denied = policy.getByRole('combobox', { name: 'Denied licences' })
  await denied.fill('NOT-A-LICENCE')
  await denied.press('Enter')
  await policy.getByRole('checkbox', { name: /Block download/ }).check()
  await policy.getByRole('button', { name: 'Create' }).click()
  // The server knows the SPDX ids: its refusal is shown on the field.
  await expect(policy.getByText('unknown SPDX licence id NOT-A-LICENCE')).toBeVisible()
  await shoot(page, 'scanner-admin-policy-refused')
  await denied.press('Backspace')
  await denied.fill('AGPL-3.0-only')
  await denied.press('Enter')
  await policy.getByRole('button', { name: 'Create' }).click()
  await expect(policy).toBeHidden()
  const policyRow = page
    .getByRole('table', { name: ScreenMessages.scannerPoliciesTitle })
    .getByRole('row')
    .filter({ hasText: 'no-high' })
  await expect(policyRow).toContainText('high')
  await expect(policyRow).toContainText('never AGPL-3.0-only')
  await expect(policyRow).toContainText('Block download')
  await shoot(page, 'scanner-admin-policies')

  // ---- a watch applying it to npm-local ----
  await page.goto(`${server.url}/ui/admin/security_watches`)
  await page.getByRole('button', { name: 'New watch' }).click()
  const watch = page.getByRole('dialog', { name: 'New watch' })
  await watch.getByRole('textbox', { name: 'Name' }).fill('npm')
  await watch.getByRole('combobox', { name: 'Repositories' }).click()
  await page.getByRole('option', { name: 'npm-local' }).click()
  await watch.getByRole('combobox', { name: /^Policies/ }).click()
  await page.getByRole('option', { name: 'no-high' }).click()
  // Clicking elsewhere closes the open list, which covers the buttons.
  await watch.getByRole('heading', { name: 'New watch' }).click()
  // It also judges every build run CI asks to scan.
  await watch.getByLabel('Builds').fill('*')
  await watch.getByLabel('Builds').press('Enter')
  await shoot(page, 'scanner-admin-watch-form')
  await watch.getByRole('button', { name: 'Create' }).click()
  await expect(watch).toBeHidden()
  const watchRow = page
    .getByRole('table', { name: ScreenMessages.scannerWatchesTitle })
    .getByRole('row')
    .filter({ hasText: 'npm' })
  await expect(watchRow).toContainText('npm-local')
  await expect(watchRow).toContainText('no-high')
  await expect(watchRow).toContainText('every build')
  await shoot(page, 'scanner-admin-watches')

  // ---- a developer publishes lodash 4.17.20, which the advisory names ----
  const registry = api('/api/npm/npm-local/')
  const published = publish(registry, token, { name: 'lodash', version: '4.17.20', license: 'MIT' })
  expect(published.status, published.stderr).toBe(0)
  const tarball = api('/api/npm/npm-local/lodash/-/lodash-4.17.20.tgz')

  await page.goto(`${server.url}/ui/admin/security_violations`)
  const violations = page.getByRole('table', { name: ScreenMessages.scannerViolationsTitle })
  const violation = violations.getByRole('row').filter({ hasText: LODASH })
  // The scan follows the publish within a moment; the list is read when the screen opens.
  await expect(async () => {
    await page.reload()
    await expect(violation).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 30_000 })
  await expect(violation).toContainText('npm://lodash@4.17.20')
  await expect(violation).toContainText('npm-local')
  await expect(violation).toContainText('Blocks download')
  const blocked = await page.request.get(tarball, { headers: { authorization: `Bearer ${token}` } })
  expect(blocked.status()).toBe(403)
  expect(await blocked.text()).toContain(LODASH)

  // The filters ask the server: a critical-only list has nothing, a high vulnerability list has it.
  const filters = page.getByRole('group', { name: 'Filters' })
  await filters.getByRole('combobox', { name: 'Severity' }).selectOption('critical')
  await expect(page.getByText(ScreenMessages.scannerNoViolations)).toBeVisible()
  await filters.getByRole('combobox', { name: 'Severity' }).selectOption('high')
  await filters.getByRole('combobox', { name: 'Type' }).selectOption('security')
  await filters.getByRole('textbox', { name: 'Package' }).fill('lodash')
  await expect(violation).toBeVisible()
  await shoot(page, 'scanner-admin-violations')

  // ---- ignored, with a reason, until the end of 2099 ----
  await violation.getByRole('button', { name: `Ignore ${LODASH} in npm://lodash@4.17.20` }).click()
  const ignore = page.getByRole('dialog', { name: 'Ignore violation' })
  await ignore.getByRole('button', { name: 'Ignore' }).click()
  await expect(ignore.getByText(ScreenMessages.scannerIgnoreNeedsReason)).toBeVisible()
  await ignore.getByRole('textbox', { name: 'Reason' }).fill('template() is not used: no user input reaches it')
  await ignore.getByLabel('Expires').fill('2099-12-31')
  await shoot(page, 'scanner-admin-ignore-dialog')
  await ignore.getByRole('button', { name: 'Ignore' }).click()
  await expect(page.getByText(format(ScreenMessages.scannerIgnoreCreated, { issue: LODASH }))).toBeVisible()
  await expect(page.getByText(ScreenMessages.scannerNoViolations)).toBeVisible()
  const allowed = await page.request.get(tarball, { headers: { authorization: `Bearer ${token}` } })
  expect(allowed.status()).toBe(200)

  await page.getByRole('tab', { name: ScreenMessages.scannerIgnoreRulesTitle }).click()
  const rule = page
    .getByRole('table', { name: ScreenMessages.scannerIgnoreRulesTitle })
    .getByRole('row')
    .filter({ hasText: LODASH })
  await expect(rule).toContainText('npm://lodash@4.17.20')
  await expect(rule).toContainText('template() is not used')
  await expect(rule).toContainText('by admin')
  await shoot(page, 'scanner-admin-ignore-rules')
})

test('without the scanner module the screens are closed and their menu items disabled', async ({ page }) => {
  await signInAsAdmin(page)
  for (const screen of ['security_policies', 'security_watches', 'security_violations', 'security_database']) {
    await page.goto(`/ui/admin/${screen}`)
    await expect(page.getByText(Messages.notAuthorized)).toBeVisible()
    await expect(page).not.toHaveURL(new RegExp(screen))
  }
})
