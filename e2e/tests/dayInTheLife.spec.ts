import crypto from 'node:crypto'
import { expect, type Page, test } from '@playwright/test'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { publishAsAdmin } from '../npmClient'
import { collectProblems, csrfOf, searchFor, signInAsAdmin, USER_LANDING } from './signIn'

// A day in the life of the console: a plain user and an administrator sign in, find a package and a
// file by a part of their names, follow every link of their sidebars (and the admin menu page), and
// read the Overview. No link leads to the 404 screen, a "not available" screen or an error, and
// the console logs no error and gets no server error on the way.

test.use({ viewport: { width: 1280, height: 900 } })

/** A screen that opened: not the 404 one, not "not available", not the error screen, with a title. */
async function expectScreen(page: Page, what: string) {
  await expect(page, what).not.toHaveURL(/\/ui\/(404|500)(\?|$)/)
  await expect(page.getByRole('heading', { level: 1 }).first(), what).toBeVisible()
  await expect(page.getByText(ScreenMessages.screenNotAvailable), what).toHaveCount(0)
  await expect(page.getByText('Oops!'), what).toHaveCount(0)
}

/** Clicks every enabled link of a sidebar in turn, checking the screen each one opens. */
async function followSidebar(page: Page, menu: 'Application' | 'Administration'): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: menu })
  // A link may lead to a screen of the other menu (Administration's Integrations is the catalogue):
  // the menu is chosen again before each click.
  const openMenu = async () => {
    const tab = page.getByRole('radio', { name: menu })
    if ((await tab.count()) > 0 && !(await tab.isChecked())) await page.locator('label').filter({ hasText: menu }).click()
    await expect(nav.getByRole('link').first()).toBeVisible()
  }
  await openMenu()
  const labels = (await nav.getByRole('link').allTextContents()).map((l) => l.trim())
  expect(labels.length).toBeGreaterThan(2)
  for (const label of labels) {
    await openMenu()
    await nav.getByRole('link', { name: label, exact: true }).click()
    await expectScreen(page, `${menu} → ${label}`)
    // A dialog a screen opens on arrival (quick setup) closes before the next link.
    if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape')
  }
  return labels
}

test('a plain user and an administrator find things by part of their names, follow every link and read the Overview', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000)
  const adminProblems = collectProblems(page, { serverErrors: true })
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  const suffix = crypto.randomBytes(3).toString('hex')
  const npmRepo = `day-npm-${suffix}`
  const filesRepo = `day-files-${suffix}`
  for (const [key, packageType] of [
    [npmRepo, 'npm'],
    [filesRepo, 'generic'],
  ] as const) {
    const created = await page.request.put(`/api/repositories/${key}`, { headers, data: { rclass: 'local', packageType } })
    expect(created.status()).toBe(201)
  }
  // The morning's work: a package published with npm, downloaded twice, and a report uploaded.
  const name = `@day-${suffix}/weekly-planner`
  const token = await publishAsAdmin(page, headers, {
    registry: `${baseURL}/api/npm/${npmRepo}/`,
    tmpPrefix: 'trove-e2e-day-',
    manifest: { name, version: '2.1.0', description: 'Plans the week' },
    index: 'module.exports = "plan"\n',
  })
  for (let i = 0; i < 2; i++) {
    const tarball = await page.request.get(`/api/npm/${npmRepo}/${name}/-/weekly-planner-2.1.0.tgz`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(tarball.status()).toBe(200)
  }
  const report = `reports/2026/q4_sales-summary-${suffix}.csv`
  const uploaded = await page.request.put(`/artifactory/${filesRepo}/${report}`, { headers, data: 'region,total\nnorth,42\n' })
  expect(uploaded.status()).toBe(201)

  // A plain user who may read both repositories.
  const user = `day-user-${suffix}`
  const made = await page.request.post('/ui/api/v1/ui/admin/users', {
    headers,
    data: { name: user, password: 'day-user-password-1' },
  })
  expect(made.status()).toBe(201)
  const granted = await page.request.post('/ui/api/v1/ui/admin/permissions', {
    headers,
    data: {
      name: `day-read-${suffix}`,
      repositories: {
        resources: { names: [npmRepo, filesRepo], include: [], exclude: [] },
        grants: [{ kind: 'user', name: user, actions: ['read'] }],
      },
    },
  })
  expect(granted.status()).toBe(201)

  // ---- the plain user ----
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const plain = await context.newPage()
  const userProblems = collectProblems(plain, { serverErrors: true })
  await plain.goto('/ui/login')
  await plain.getByRole('textbox', { name: 'Username' }).fill(user)
  await plain.getByRole('textbox', { name: 'Password' }).fill('day-user-password-1')
  await plain.getByRole('button', { name: 'Log In' }).click()
  await expect(plain).toHaveURL(USER_LANDING)
  // The packages screen lists on arrival; the middle of a name finds the package.
  await expect(plain.getByRole('button', { name: new RegExp(name) })).toBeVisible()
  await searchFor(plain, 'Packages', 'planner')
  await expect(plain.getByRole('button', { name: new RegExp(name) })).toBeVisible()
  await plain.getByRole('button', { name: new RegExp(name) }).click()
  await expect(plain.getByRole('heading', { name })).toBeVisible()
  // A file by a piece of its name, then opened in the tree.
  await searchFor(plain, 'Artifacts', 'sales-summary')
  const results = plain.getByRole('region', { name: 'Search results' })
  await expect(results.getByText('1 file matches “sales-summary”.')).toBeVisible()
  await results.getByRole('link', { name: `q4_sales-summary-${suffix}.csv` }).click()
  await expect(plain.getByRole('heading', { name: `q4_sales-summary-${suffix}.csv` })).toBeVisible()
  // No administration for a plain user: one sidebar, every link of it opens its screen.
  await expect(plain.getByRole('radio', { name: 'Administration' })).toHaveCount(0)
  const userLinks = await followSidebar(plain, 'Application')
  expect(userLinks).toEqual(expect.arrayContaining(['Overview', 'Packages', 'Artifacts', 'Builds', 'Integrations']))
  // The Overview: the user's repositories, the package among the most downloaded, its publish in the activity.
  await plain.goto('/ui/overview')
  await expect(plain.getByText('The repositories you can read, at a glance')).toBeVisible()
  await expect(plain.getByRole('region', { name: 'Repositories', exact: true }).getByRole('link')).toHaveText('2')
  await expect
    .poll(
      async () => {
        await plain.reload()
        return plain
          .getByRole('region', { name: 'Most downloaded packages' })
          .getByLabel(`${name} downloads`)
          .textContent({ timeout: 2000 })
          .catch(() => null)
      },
      { timeout: 20_000 },
    )
    .toBe('2')
  await expect(
    plain
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('listitem')
      .filter({ hasText: `${name} 2.1.0` })
      .first(),
  ).toContainText('Published')
  expect(userProblems).toEqual([])
  await context.close()

  // ---- the administrator ----
  await page.goto('/ui/packages')
  await searchFor(page, 'Packages', 'weekly')
  await expect(page.getByRole('button', { name: new RegExp(name) })).toBeVisible()
  await searchFor(page, 'Artifacts', `q4_sales repo:${filesRepo}`)
  await expect(page.getByRole('region', { name: 'Search results' }).getByRole('row', { name: new RegExp(suffix) })).toContainText(
    'reports/2026/',
  )
  await page.goto('/ui/overview')
  const appLinks = await followSidebar(page, 'Application')
  expect(appLinks).toContain('Release Bundles')
  const adminLinks = await followSidebar(page, 'Administration')
  expect(adminLinks).toEqual(expect.arrayContaining(['Repositories', 'Users', 'Topology', 'Service Status', 'Integrations']))
  // The admin menu page links every screen of the administration too.
  await page.goto('/ui/admin/artifactory/list')
  const menu = page.getByRole('main')
  await expect(menu.getByRole('link', { name: 'Repositories', exact: true })).toBeVisible()
  const menuLinks = (await menu.getByRole('link').allTextContents()).map((l) => l.trim()).filter(Boolean)
  expect(menuLinks.length).toBeGreaterThanOrEqual(adminLinks.length - 2)
  for (const label of menuLinks) {
    await page.goto('/ui/admin/artifactory/list')
    await page.getByRole('main').getByRole('link', { name: label, exact: true }).first().click()
    await expectScreen(page, `admin menu → ${label}`)
    if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape')
  }
  // The administrator's Overview: the whole instance, its nodes, and the permission just given.
  await page.goto('/ui/overview')
  await expect(page.getByText('The instance at a glance')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Storage by repository' }).getByRole('link', { name: npmRepo })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Nodes' }).getByText('Online').first()).toBeVisible()
  await expect(
    page
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('link', { name: new RegExp(`day-read-${suffix}`) })
      .first(),
  ).toBeVisible()
  expect(adminProblems).toEqual([])
})
