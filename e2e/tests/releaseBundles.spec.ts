import crypto from 'node:crypto'
import { expect, test } from '@playwright/test'
import { type OwnServer, shoot, signInAt, startOwnServer } from '../ownServer'
import { ADMIN_PASSWORD } from '../playwright.config'
import { csrfOf } from './signIn'

// Release bundles between two servers of their own with the distribution module: a bundle made,
// signed and distributed in the console of the source, its progress followed to the end, found by a
// file's checksum; on the target, the bundle received and verified, the file served, the history.
const MODULES = { TROVE_MODULES: 'repository,distribution', TROVE_DISTRIBUTION_POLL_MS: '200' }
const CONTENT = `The guide, ${Date.now()}\n`
const SHA256 = crypto.createHash('sha256').update(CONTENT).digest('hex')

let source: OwnServer
let target: OwnServer

test.beforeAll(async () => {
  test.setTimeout(60_000)
  source = await startOwnServer('bundles-source', MODULES)
  target = await startOwnServer('bundles-target', MODULES)
})
test.afterAll(() => {
  source?.stop()
  target?.stop()
})

/** An administrator's token of the target, as its admin would make one for the source. */
async function targetToken(): Promise<string> {
  const login = await fetch(`${target.url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
  })
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const made = await fetch(`${target.url}/ui/api/v1/ui/userIdentifyToken/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? '' },
    body: JSON.stringify({ expiresIn: 3600 }),
  })
  return ((await made.json()) as { access_token: string }).access_token
}

test('a bundle made, signed and distributed in the console arrives verified on the target', async ({ page }) => {
  test.setTimeout(120_000)
  await signInAt(page, source.url)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  expect(
    (
      await page.request.put(`${source.url}/api/repositories/docs-local`, {
        headers,
        data: { rclass: 'local', packageType: 'generic' },
      })
    ).status(),
  ).toBe(201)
  expect(
    (await page.request.put(`${source.url}/artifactory/docs-local/guide/guide.txt`, { headers, data: CONTENT })).status(),
  ).toBe(201)

  // The source tab: a target, then a new bundle from a tree path.
  await page.goto(`${source.url}/ui/release-bundles/source`)
  await expect(page.getByRole('tab', { name: 'Source', selected: true })).toBeVisible()
  const targets = page.getByRole('region', { name: 'Targets' })
  const form = targets.getByRole('form', { name: 'Add a target' })
  await form.getByRole('textbox', { name: 'Name' }).fill('edge')
  await form.getByRole('textbox', { name: 'URL' }).fill(target.url)
  await form.getByLabel('Administrator token of the target').fill('trove_at_not-a-token')
  await form.getByRole('button', { name: 'Add target' }).click()
  await expect(form.getByRole('alert')).toContainText('The target answered 401')
  await form.getByLabel('Administrator token of the target').fill(await targetToken())
  await form.getByRole('button', { name: 'Add target' }).click()
  await expect(targets.getByRole('table', { name: 'Targets' })).toContainText(target.url)

  await page.getByRole('button', { name: 'New bundle' }).click()
  const dialog = page.getByRole('dialog', { name: 'New release bundle' })
  await dialog.getByRole('textbox', { name: /^Name/ }).fill('guide')
  await dialog.getByRole('textbox', { name: /^Version/ }).fill('1.0')
  // Markup in what a user writes is shown as text (stored XSS): it would set window.__xss if it ran.
  await dialog.getByRole('textbox', { name: 'Description' }).fill('The user guide <img src=x onerror="window.__xss=1">')
  await dialog
    .getByRole('textbox', { name: 'Release notes' })
    .fill('# Guide 1.0\n\nFirst edition.\n\n<script>window.__xss=1</script><img src=x onerror="window.__xss=1">')
  await dialog.getByRole('button', { name: 'Add tree path' }).click()
  const path = dialog.getByRole('group', { name: 'Source 1: Tree path' })
  await path.getByRole('combobox', { name: /Repository/ }).fill('docs-local')
  await page.getByRole('option', { name: 'docs-local' }).click()
  await path.getByRole('textbox', { name: /Path/ }).fill('guide')
  await shoot(page, 'bundles-new')
  await dialog.getByRole('button', { name: 'Create' }).click()

  // The drawer: sign, distribute, follow the progress to the end.
  const drawer = page.getByRole('dialog', { name: /guide/ })
  await expect(drawer.getByRole('table', { name: 'Contents' })).toContainText('guide/guide.txt')
  await expect(drawer).toContainText('The user guide <img src=x onerror="window.__xss=1">')
  expect(await page.locator('img[src="x"]').count()).toBe(0)
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
  await drawer.getByRole('button', { name: 'Sign' }).click()
  await drawer.getByRole('button', { name: 'Distribute' }).click()
  const distribute = page.getByRole('dialog', { name: 'Distribute guide 1.0' })
  await distribute.getByRole('checkbox', { name: 'edge' }).check()
  await distribute.getByRole('button', { name: 'Distribute' }).click()
  const progress = drawer.getByRole('table', { name: 'Distributions' })
  await expect(progress).toContainText('completed', { timeout: 30_000 })
  await expect(drawer.getByRole('progressbar', { name: 'Progress to edge' })).toHaveAttribute('aria-valuenow', '100')
  await shoot(page, 'bundles-drawer')
  // The open bundle is in the address.
  await expect(page).toHaveURL(/\/release-bundles\/source\/guide\/1\.0$/)
  await drawer.getByRole('button', { name: 'Close' }).click()
  await expect(page).toHaveURL(/\/release-bundles\/source$/)

  // The list says where it went; the checksum of its file finds it.
  await expect(page.getByRole('table', { name: 'Release bundles made here' })).toContainText('edge')
  const lookup = page.getByRole('region', { name: 'Find bundles by checksum' })
  await lookup.getByRole('textbox', { name: 'Checksum' }).fill(SHA256)
  await lookup.getByRole('textbox', { name: 'Checksum' }).press('Enter')
  await expect(lookup.getByRole('table', { name: 'Bundles with this checksum' })).toContainText('guide')
  await shoot(page, 'bundles-source')
  // Its file is held while the bundle exists.
  expect((await page.request.delete(`${source.url}/artifactory/docs-local/guide/guide.txt`, { headers })).status()).toBe(409)

  // The target: received and verified, its file served, the history.
  await signInAt(page, target.url)
  await page.goto(`${target.url}/ui/release-bundles/target`)
  const received = page.getByRole('table', { name: 'Release bundles received here' })
  await expect(received.getByRole('row', { name: /guide/ })).toContainText('verified')
  await expect(received.getByRole('row', { name: /guide/ })).toContainText(source.url)
  const served = await page.request.get(`${target.url}/artifactory/docs-local/guide/guide.txt`)
  expect(await served.text()).toBe(CONTENT)
  await shoot(page, 'bundles-target')
  // An old bundles link opens the bundle on its tab.
  await page.goto(`${target.url}/ui/bundles/target/guide/1.0`)
  await expect(page).toHaveURL(/\/release-bundles\/target\/guide\/1\.0$/)
  await expect(page.getByRole('dialog', { name: /guide/ })).toContainText('verified')
  await page.getByRole('dialog', { name: /guide/ }).getByRole('button', { name: 'Close' }).click()
  await page.getByRole('tab', { name: 'Target history' }).click()
  await expect(page).toHaveURL(/\/release-bundles\/target-history$/)
  const history = page.getByRole('table', { name: 'Target history' })
  const entry = history.getByRole('row', { name: /guide/ })
  await expect(entry).toContainText('Received')
  await expect(entry).toContainText('success')
  await expect(entry).toContainText(source.url)
  await shoot(page, 'bundles-history')
})
