import crypto from 'node:crypto'
import { expect, type Locator, type Page, test } from '@playwright/test'
import type { Dashboard } from '@trove/contracts/dashboard'
import { publishAsAdmin } from '../npmClient'
import { expectAccessible } from './axe'
import { collectProblems, csrfOf, signInAsAdmin, USER_LANDING } from './signIn'

test.use({ viewport: { width: 1280, height: 900 } })

const dashboardOf = async (page: Page) => (await (await page.request.get('/ui/api/v1/ui/dashboard')).json()) as Dashboard
const count = (n: number) => n.toLocaleString('en')

async function signIn(page: Page, user: string, password: string) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(USER_LANDING)
}

/** A card's chart, drawn: recharts' svg with at least one shape in it. */
async function expectDrawn(card: Locator, shape: string) {
  await expect(card.locator('.recharts-surface').first()).toBeVisible()
  await expect(card.locator(shape).filter({ visible: true }).first()).toBeVisible()
}

async function shoot(page: Page, name: string) {
  // Let recharts finish its entry animation before the picture.
  await page.waitForTimeout(1200)
  await page.screenshot({ path: test.info().outputPath(name), fullPage: true })
}

test('the Overview shows what was published and downloaded, and each user only what they may read', async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const errors = collectProblems(page)
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const suffix = crypto.randomBytes(3).toString('hex')
  const repo = `npm-overview-${suffix}`
  // A dot in a key: the storage chart must not read it as a path.
  const secret = `generic.overview-${suffix}`
  for (const [key, packageType] of [
    [repo, 'npm'],
    [secret, 'generic'],
  ] as const) {
    const created = await page.request.put(`/api/repositories/${key}`, { headers, data: { rclass: 'local', packageType } })
    expect(created.status()).toBe(201)
  }

  // A package published with the real npm client, then downloaded three times.
  const name = `overview-${suffix}`
  const token = await publishAsAdmin(page, headers, {
    registry: `${baseURL}/api/npm/${repo}/`,
    tmpPrefix: 'trove-e2e-overview-',
    manifest: { name, version: '1.0.0', description: 'Counted on the Overview', license: 'MIT', main: 'index.js' },
    index: `module.exports = '${crypto.randomBytes(2048).toString('hex')}'\n`,
  })
  for (let i = 0; i < 3; i++) {
    const tarball = await page.request.get(`/api/npm/${repo}/${name}/-/${name}-1.0.0.tgz`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(tarball.status()).toBe(200)
  }
  // A file in a repository the reader below may not read.
  const hidden = await page.request.put(`/artifactory/${secret}/reports/q4.txt`, { headers, data: 'not for readers\n' })
  expect(hidden.status()).toBe(201)

  // The counts reach the roll-up within a flush (half a second) and the next dashboard call.
  await expect
    .poll(async () => (await dashboardOf(page)).topPackages.find((p) => p.name === name)?.downloads, { timeout: 15_000 })
    .toBe(3)
  const answer = await dashboardOf(page)
  expect(answer.scope).toBe('instance')
  const usage = answer.repositories.find((r) => r.repoKey === repo)
  expect(usage?.files).toBeGreaterThan(0)

  // As the administrator: every figure is the server's, and the published package is in each chart.
  await page.goto('/ui/overview')
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
  await expect(page.getByLabel('Breadcrumb')).toHaveText('Overview')
  await expect(page.getByText('The instance at a glance')).toBeVisible()
  const stat = (label: string) => page.getByRole('region', { name: label, exact: true }).getByRole('link')
  // Other journeys share this server and add repositories and files meanwhile: each figure shown is
  // the server's of some moment between the answer before the page and the one after it.
  await expect(stat('Uploads')).toHaveText(/^[\d,]+$/)
  const after = await dashboardOf(page)
  for (const [label, key] of [
    ['Repositories', 'repositories'],
    ['Files', 'files'],
    ['Downloads', 'downloads'],
    ['Uploads', 'uploads'],
  ] as const) {
    const shown = Number(((await stat(label).textContent()) ?? '').replaceAll(',', ''))
    expect(shown, label).toBeGreaterThanOrEqual(answer.totals[key])
    expect(shown, label).toBeLessThanOrEqual(after.totals[key])
  }
  await expect(stat('Repositories')).toHaveAttribute('href', '/ui/admin/repositories')
  expect(answer.totals.downloads).toBeGreaterThanOrEqual(3)

  const storage = page.getByRole('region', { name: 'Storage by repository' })
  await expect(storage.getByRole('link', { name: repo })).toHaveAttribute('href', `/ui/artifacts/browse/tree/General/${repo}`)
  await expectDrawn(storage, '.recharts-bar-rectangle')
  const growth = page.getByRole('region', { name: 'Storage growth, last 30 days' })
  await expectDrawn(growth, '.recharts-area')
  await expect(growth.locator('.recharts-legend-wrapper')).toContainText(repo)
  const traffic = page.getByRole('region', { name: 'Downloads and uploads per day, last 30 days' })
  await expectDrawn(traffic, '.recharts-bar-rectangle')

  const top = page.getByRole('region', { name: 'Most downloaded packages' })
  await expect(top.getByLabel(`${name} downloads`)).toHaveText('3')
  await expect(top.getByRole('link', { name })).toHaveAttribute('href', `/ui/packages/${encodeURIComponent(`npm://${name}`)}`)

  const activity = page.getByRole('list', { name: 'Recent activity' })
  const publish = activity.getByRole('listitem').filter({ hasText: `${name} 1.0.0` })
  await expect(publish.first()).toContainText('Published')

  const vulnerabilities = page.getByRole('region', { name: 'Vulnerabilities' })
  if (answer.vulnerabilities) {
    await expect(vulnerabilities.getByLabel('critical vulnerabilities')).toHaveText(count(answer.vulnerabilities.counts.critical))
  } else {
    await expect(vulnerabilities).toContainText('No node runs the scanner')
  }
  const nodes = page.getByRole('region', { name: 'Nodes' })
  await expect(nodes.getByText('Online').first()).toBeVisible()
  await expect(nodes.getByRole('link', { name: 'Service status' })).toHaveAttribute('href', '/ui/admin/monitoring/service-status')
  await shoot(page, 'overview-admin.png')
  // Drawn with data, every badge and axis is readable in both themes.
  await expectAccessible(page)
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Dark theme' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  await expect(page.getByRole('menu')).toHaveCount(0)
  await expectAccessible(page)
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Light theme' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')

  // Its links open the screens they name.
  await top.getByRole('link', { name }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/packages/npm%3A%2F%2F${name}$`))
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await page.goBack()
  await page.getByRole('region', { name: 'Storage by repository' }).getByRole('link', { name: repo }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/artifacts/browse/tree/General/${repo}$`))
  await expect(page.getByRole('tree').getByRole('treeitem', { name: repo })).toBeVisible()
  expect(errors).toEqual([])

  // A reader of the npm repository only, and a user who may read nothing.
  const reader = `e2e-overview-reader-${suffix}`
  const nobody = `e2e-overview-nobody-${suffix}`
  for (const user of [reader, nobody]) {
    const made = await page.request.post('/ui/api/v1/ui/admin/users', {
      headers,
      data: { name: user, password: 'reader-password-1' },
    })
    expect(made.status()).toBe(201)
  }
  const granted = await page.request.post('/ui/api/v1/ui/admin/permissions', {
    headers,
    data: {
      name: `e2e-overview-read-${suffix}`,
      repositories: {
        resources: { names: [repo], include: [], exclude: [] },
        grants: [{ kind: 'user', name: reader, actions: ['read'] }],
      },
    },
  })
  expect(granted.status()).toBe(201)
  // The administrator sees the access change, linked to the audit log.
  await page.goto('/ui/overview')
  const change = page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem').filter({ hasText: 'Access' })
  await expect(change.getByRole('link', { name: new RegExp(`e2e-overview-read-${suffix}`) })).toHaveAttribute(
    'href',
    '/ui/admin/management/audit',
  )

  const readerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const readerPage = await readerContext.newPage()
  const readerErrors = collectProblems(readerPage)
  await signIn(readerPage, reader, 'reader-password-1')
  await readerPage.goto('/ui/overview')
  await expect(readerPage.getByText('The repositories you can read, at a glance')).toBeVisible()
  const readerStat = (label: string) => readerPage.getByRole('region', { name: label, exact: true }).getByRole('link')
  await expect(readerStat('Repositories')).toHaveText('1')
  await expect(readerStat('Repositories')).toHaveAttribute('href', '/ui/artifacts/browse')
  await expect(readerStat('Files')).toHaveText(count(usage?.files ?? -1))
  const readerStorage = readerPage.getByRole('region', { name: 'Storage by repository' })
  await expect(readerStorage.getByRole('link', { name: repo })).toBeVisible()
  await expect(readerPage.getByText(secret)).toHaveCount(0)
  await expect(readerPage.getByRole('region', { name: 'Most downloaded packages' }).getByLabel(`${name} downloads`)).toHaveText(
    '3',
  )
  await expect(readerPage.getByRole('region', { name: 'Nodes' })).toHaveCount(0)
  await expect(readerPage.getByRole('list', { name: 'Recent activity' })).not.toContainText('permission')
  await expect(readerPage.locator('main a[href^="/ui/admin"]')).toHaveCount(0)
  await expectDrawn(readerPage.getByRole('region', { name: 'Storage growth, last 30 days' }), '.recharts-area')
  await shoot(readerPage, 'overview-reader.png')
  expect(readerErrors).toEqual([])
  await readerContext.close()

  // Nothing to read: every card says so, and no chart is drawn empty.
  const nobodyContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const nobodyPage = await nobodyContext.newPage()
  const nobodyErrors = collectProblems(nobodyPage)
  await signIn(nobodyPage, nobody, 'reader-password-1')
  await nobodyPage.goto('/ui/overview')
  await expect(nobodyPage.getByRole('region', { name: 'Repositories', exact: true }).getByRole('link')).toHaveText('0')
  await expect(nobodyPage.getByRole('region', { name: 'Storage by repository' })).toContainText('Nothing stored yet')
  await expect(nobodyPage.getByRole('region', { name: 'Storage growth, last 30 days' })).toContainText('Nothing stored yet')
  await expect(nobodyPage.getByRole('region', { name: 'Downloads and uploads per day, last 30 days' })).toContainText(
    'No download or upload in the last 30 days',
  )
  await expect(nobodyPage.getByRole('region', { name: 'Most downloaded packages' })).toContainText('No package downloaded yet')
  await expect(nobodyPage.locator('.recharts-surface')).toHaveCount(0)
  await shoot(nobodyPage, 'overview-empty.png')
  expect(nobodyErrors).toEqual([])
  await nobodyContext.close()
})
