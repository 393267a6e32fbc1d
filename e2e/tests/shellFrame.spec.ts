import { expect, test } from '@playwright/test'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { shoot } from '../ownServer'
import { expectAccessible } from './axe'
import { ADMIN_LANDING, signInAsAdmin } from './signIn'

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page)
})

test('an admin lands on topology inside the frame', async ({ page }) => {
  await expect(page).toHaveURL(ADMIN_LANDING)
  await expect(page.getByRole('heading', { name: 'Topology', level: 1 })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Artifact Repository' })).toContainText('Running')
  await expect(page.getByRole('region', { name: 'Security Scanner' })).toContainText('Not running')
  await expect(page.getByRole('navigation', { name: 'Administration' })).toBeVisible()
  await expectAccessible(page)
})

test('the admin card menu: grouped links, search that highlights, disabled items with a tooltip, empty groups left out', async ({
  page,
}) => {
  await page.goto('/ui/admin/artifactory/list')
  await expect(page).toHaveTitle('Administration - Trove')
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { name: 'Platform Configurations' })).toBeVisible()
  // Security & Compliance needs the scanner, which this instance does not run: every item is disabled.
  await expect(main.getByRole('heading', { name: 'Security & Compliance' })).toHaveCount(0)
  await expectAccessible(page)

  await main.getByText('LDAP', { exact: true }).hover()
  await expect(page.getByRole('tooltip')).toHaveText('LDAP is not part of Trove yet: sign users in with OAuth SSO or SAML SSO')

  await page.getByRole('textbox', { name: 'Search administration' }).fill('nginx')
  await expect(main.getByRole('link', { name: 'Reverse Proxy' })).toBeVisible()
  await expect(main.getByRole('link', { name: 'Users' })).toHaveCount(0)
  await page.getByRole('textbox', { name: 'Search administration' }).fill('prox')
  await expect(main.locator('mark')).toHaveText(['Prox'])
  await main.getByRole('link', { name: 'Reverse Proxy' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/proxies\/configuration$/)
})

test('/admin goes to the users page', async ({ page }) => {
  await page.goto('/ui/admin')
  await expect(page).toHaveURL(/\/ui\/(admin\/management\/users|404)$/)
  expect(page.url()).not.toMatch(/\/ui\/admin$/)
})

test('the sidebars follow the route and the menus remember the last page of each', async ({ page }) => {
  await page.goto('/ui/packages')
  await expect(page.getByRole('heading', { name: 'Packages', level: 1 })).toBeVisible()
  await page.getByRole('navigation', { name: 'Application' }).getByRole('link', { name: 'Overview' }).click()
  await page.getByRole('navigation', { name: 'Application' }).getByRole('link', { name: 'Packages' }).click()
  await page.getByLabel('Menu').getByText('Administration', { exact: true }).click()
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'General Settings' }).click()
  await expect(page.getByRole('navigation', { name: 'Administration' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'General Settings', level: 1 })).toBeVisible()
  await page.getByLabel('Menu').getByText('Application', { exact: true }).click()
  await expect(page).toHaveURL(/\/ui\/packages$/)
  await expect(page.getByRole('navigation', { name: 'Application' })).toBeVisible()
  await page.getByRole('navigation', { name: 'Application' }).getByRole('link', { name: 'Integrations' }).click()
  await expect(page).toHaveURL(/\/ui\/integrations$/)
  await page.getByLabel('Menu').getByText('Administration', { exact: true }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/configuration\/general$/)
  await page.getByLabel('Menu').getByText('Application', { exact: true }).click()
  await expect(page).toHaveURL(/\/ui\/integrations$/)
  // Remembered on the server too (other journeys of this user write there as well): a new tab
  // starts where the user last left each menu.
  const stored = (await (await page.request.get('/ui/api/v1/ui/localStorage')).json()) as Record<string, string>
  expect(stored['menu.application']).toMatch(/^\//)
  expect(stored['menu.administration']).toMatch(/^\/admin\//)
})

test('choosing a project switches Administration for Project Settings', async ({ page }) => {
  await page.goto('/ui/packages')
  await page.getByRole('combobox', { name: 'Project' }).click()
  await page.getByRole('option', { name: 'Default Project' }).click()
  await expect(page.getByRole('radio', { name: 'Project Settings' })).toBeAttached()
  await expect(page.getByRole('radio', { name: 'Administration' })).toHaveCount(0)
  await page.getByRole('combobox', { name: 'Project' }).click()
  await page.getByRole('option', { name: 'All projects' }).click()
  await expect(page.getByRole('radio', { name: 'Administration' })).toBeAttached()
})

test('the search type follows the route', async ({ page }) => {
  await page.goto('/ui/packages')
  await expect(page.getByRole('combobox', { name: 'Search packages' })).toBeVisible()
  const distributionCalls: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/distribution/')) distributionCalls.push(r.url())
  })
  await page.goto('/ui/release-bundles')
  // No Enterprise+ licence and no distribution: the target tab, which says what turns it on and calls nothing.
  await expect(page).toHaveURL(/\/ui\/release-bundles\/target$/)
  await expect(page.getByRole('combobox', { name: 'Search release bundles' })).toBeVisible()
  // The selector names the screen's own type, not a blank.
  await expect(page.getByRole('combobox', { name: 'Search type' })).toHaveValue('Release Bundles')
  await expect(page.getByText(ReleaseBundleMessages.distributionOff)).toBeVisible()
  await page.getByRole('tab', { name: 'Target history' }).click()
  await expect(page.getByText(ReleaseBundleMessages.distributionOff)).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(distributionCalls).toEqual([])
  // Recent searches open on the box and close when a search runs, leaving the results in view.
  await page.goto('/ui/packages')
  const box = page.getByRole('combobox', { name: 'Search packages' })
  await box.fill('recent-alpha')
  await box.press('Enter')
  await expect(page).toHaveURL(/recent-alpha/)
  await box.fill('')
  await page.getByRole('heading', { name: 'Packages', level: 1 }).click()
  await box.click()
  const recent = page.getByRole('listbox')
  await expect(recent.getByRole('option', { name: 'recent-alpha' })).toBeVisible()
  await box.fill('recent-beta')
  await box.press('Enter')
  await expect(page).toHaveURL(/recent-beta/)
  await expect(recent).toBeHidden()
  await page.goto('/ui/artifacts/browse/tree/General')
  await expect(page.getByRole('combobox', { name: 'Search artifacts' })).toBeVisible()
  await page.keyboard.press('/')
  await expect(page.getByRole('combobox', { name: 'Search artifacts' })).toBeFocused()
})

test('the help menu, the keyboard shortcuts dialog and the navigation tour', async ({ page }) => {
  await page.getByRole('button', { name: 'Help menu' }).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Documentation↗',
    'Learning Center↗',
    'Navigation Tour',
    'Keyboard Shortcuts',
  ])
  await menu.getByRole('menuitem', { name: 'Keyboard Shortcuts' }).click()
  const dialog = page.getByRole('dialog', { name: 'Keyboard Shortcuts' })
  await expect(dialog).toContainText('Show keyboard shortcuts')
  await expectAccessible(page)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await page.keyboard.press('Shift+?')
  await expect(page.getByRole('dialog', { name: 'Keyboard Shortcuts' })).toBeVisible()
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Help menu' }).click()
  await page.getByRole('menuitem', { name: 'Navigation Tour' }).click()
  const tour = page.getByRole('dialog', { name: 'Navigation tour' })
  await expect(tour).toContainText('Search (1/5)')
  await tour.getByRole('button', { name: 'Next' }).click()
  await expect(tour).toContainText('Menus (2/5)')
  await tour.getByRole('button', { name: 'Skip tour' }).click()
  await expect(tour).toHaveCount(0)
  // Esc closes it too, and the header stays usable while it is open.
  await page.getByRole('button', { name: 'Help menu' }).click()
  await page.getByRole('menuitem', { name: 'Navigation Tour' }).click()
  await expect(tour).toContainText('Search (1/5)')
  await page.keyboard.press('Escape')
  await expect(tour).toHaveCount(0)
  await page.getByRole('button', { name: 'Help menu' }).click()
  await page.getByRole('menuitem', { name: 'Navigation Tour' }).click()
  await expect(tour).toBeVisible()
  await page.getByRole('button', { name: 'Quick actions' }).click({ timeout: 5000 })
  await expect(tour).toHaveCount(0)
  await expect(page.getByRole('menu').getByRole('menuitem', { name: 'Getting Started' })).toBeVisible()
  await page.keyboard.press('Escape')
})

test('the sidebar toggle shows a cross while the sidebar is open and bars while it is closed', async ({ page }) => {
  const toggle = page.getByRole('button', { name: 'Toggle sidebar' })
  const sidebar = page.getByRole('navigation', { name: 'Administration' })
  await expect(sidebar).toBeInViewport()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(sidebar).not.toBeInViewport()
  await expect(toggle).not.toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(sidebar).toBeInViewport()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  // On a phone the sidebar is a drawer, closed until the toggle opens it.
  await page.setViewportSize({ width: 600, height: 800 })
  await expect(sidebar).not.toBeInViewport()
  await expect(toggle).not.toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(sidebar).toBeInViewport()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
})

test('the quick-action menu of an admin, and the quick setup and set-me-up panels', async ({ page }) => {
  await page.getByRole('button', { name: 'Quick actions' }).click()
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText([
    'Getting Started',
    'Quick Repository Creation',
    'Set Me Up',
    'New Local Repository',
    'New Remote Repository',
    'New Virtual Repository',
    'New User',
    'New Group',
    'New Permission',
  ])
  await page.getByRole('menuitem', { name: 'Getting Started' }).click()
  const setup = page.getByRole('dialog', { name: 'Quick Setup' })
  await expect(setup).toContainText('Create a repository')
  await setup.getByRole('button', { name: 'Point your package client at it (Set Me Up)' }).click()
  // Set-me-up asks which repository; its snippets are walked by the first-run journey.
  await expect(page.getByRole('dialog', { name: 'Set Me Up' }).getByRole('combobox', { name: 'Repository' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Set Me Up' })).toHaveCount(0)
  await page.getByRole('button', { name: 'User menu' }).click()
  await expect(page.getByRole('menuitem', { name: 'Edit Profile' })).toBeVisible()
})

test('teasers and old links', async ({ page }) => {
  await page.goto('/ui/admin/security-compliance-teaser')
  await expect(page.getByRole('heading', { name: 'Security & Compliance', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Learn more' })).toBeVisible()
  // This instance runs the repository module only: the teaser says which node to restart, and how.
  await expect(
    page.getByText(
      /^No node of this instance runs the Security Scanner module\. To turn Security & Compliance on, restart node \S+ with$/,
    ),
  ).toBeVisible()
  await expect(page.getByText('TROVE_MODULES=repository,scanner', { exact: true })).toBeVisible()
  await expect(page.getByText(/free trial/i)).toHaveCount(0)
  await expectAccessible(page)
  // Topology is part of every node: its teaser opens it.
  await page.goto('/ui/topology-teaser')
  await expect(page.getByText(/free trial/i)).toHaveCount(0)
  await page.getByRole('link', { name: 'Open Topology' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/mission_control\/topology$/)
  await page.goto('/ui/admin/pipelines-teaser')
  await expect(page.getByText('Pipelines is not part of Trove yet.')).toBeVisible()
  await page.goto('/ui/demo/admin/projects/list')
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await page.goto('/ui/demo/admin/no/such/page')
  await expect(page).toHaveURL(/\/ui\/packages$/)
  await page.goto('/ui/bundles/target/app/1.0')
  await expect(page).toHaveURL(/\/ui\/release-bundles\/target\/app\/1\.0$|\/ui\/404$/)
  await page.goto('/ui/#/builds/app/42')
  // The builds route then opens the run under its own URL (no such build here: the 404 screen);
  // builds.spec.ts follows an old link to a real run.
  await expect(page).toHaveURL(/\/ui\/builds\/app\/42(\?jenkinsRedirect=true)?$|\/ui\/404$/)
  await page.goto('/ui/#/artifacts/browse/tree/General/libs/a.jar')
  // /repos/{path} lands on the same node in the tree.
  await expect(page).toHaveURL(/\/ui\/artifacts\/browse\/tree\/General\/libs\/a\.jar$/)
})

test('/template and /demo cancel navigation while the tested feature is off', async ({ page }) => {
  await page.goto('/ui/packages')
  await expect(page.getByRole('heading', { name: 'Packages', level: 1 })).toBeVisible()
  await page.evaluate(() => {
    window.history.pushState({}, '', '/ui/template')
    window.dispatchEvent(new PopStateEvent('popstate'))
  })
  await expect(page).toHaveURL(/\/ui\/packages$/)
})

test('admin configuration screens pass the accessibility check', async ({ page }) => {
  // Four screens, each loaded and checked whole: 27 s in a full run on 2 cores.
  test.setTimeout(60_000)
  for (const [path, heading] of [
    ['/ui/admin/configuration/general', 'General Settings'],
    ['/ui/admin/license_management/licenses', 'Licenses'],
    ['/ui/admin/proxies/configuration', 'Reverse Proxy'],
    ['/ui/admin/configuration/security/general', 'Security Configuration'],
  ] as const) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
    await page.waitForLoadState('networkidle')
    await expectAccessible(page)
  }
})

test('a reverse proxy: new, saved, its nginx configuration shown to copy', async ({ page }) => {
  const name = `edge-${Date.now()}`
  await page.goto('/ui/admin/proxies/configuration')
  await page.getByRole('link', { name: 'New reverse proxy' }).click()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('This field is mandatory').first()).toBeVisible()
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
  await page.getByRole('textbox', { name: 'Server name' }).fill('repo.example.test')
  await page.getByRole('radio', { name: 'Sub-domain (repo.server)' }).check()
  await expect(page.getByRole('textbox', { name: 'HTTP port' })).toHaveValue('80')
  // A cluster: nginx spreads requests over this node and the two others, failing over between them.
  await page.getByRole('textbox', { name: "Trove's internal URL" }).fill('http://10.0.0.11:8080')
  await page.getByRole('textbox', { name: 'Other cluster nodes' }).fill('http://10.0.0.12:8080, http://10.0.0.13:8080')
  await shoot(page, 'reverse-proxy-cluster-form')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(new RegExp(`/ui/admin/proxies/configuration/edit/${name}$`))
  await expect(page.getByTestId('nginx-config')).toContainText('server_name repo.example.test')
  await expect(page.getByTestId('nginx-config')).toContainText('listen 80;')
  for (const node of ['10.0.0.11', '10.0.0.12', '10.0.0.13']) {
    await expect(page.getByTestId('nginx-config')).toContainText(`server ${node}:8080 max_fails=1 fail_timeout=10s;`)
  }
  await expect(page.getByTestId('nginx-config')).toContainText('proxy_next_upstream error timeout;')
  await expect(page.getByRole('textbox', { name: 'Other cluster nodes' })).toHaveValue(
    'http://10.0.0.12:8080, http://10.0.0.13:8080',
  )
  await shoot(page, 'reverse-proxy-cluster-config')
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible()
  await page.goto('/ui/admin/proxies/configuration')
  await expect(page.getByRole('link', { name })).toBeVisible()
  // One that does not exist is not found: never an empty "Edit" form of it.
  await page.goto(`/ui/admin/proxies/configuration/edit/${name}-gone`)
  await expect(page).toHaveURL(/\/ui\/404$/)
  await expect(page.getByRole('heading', { name: `Edit ${name}-gone` })).toHaveCount(0)
})

test('the dark theme passes the accessibility check too, and the login page does', async ({ page, context }) => {
  // Three screens and the login page, each checked whole: 30 s in a full run on 2 cores.
  test.setTimeout(60_000)
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Dark theme' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  for (const path of ['/ui/admin/mission_control/topology', '/ui/admin/artifactory/list', '/ui/admin/configuration/general']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    await expectAccessible(page)
  }
  await page.keyboard.press('Alt+T')
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light')
  await context.clearCookies()
  await page.goto('/ui/login')
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
  await expectAccessible(page)
})

test('every link of the administration sidebar opens a screen, and the configure shortcuts land on theirs', async ({ page }) => {
  test.setTimeout(90_000)
  await page.goto('/ui/admin/management/users')
  const nav = page.getByRole('navigation', { name: 'Administration' })
  await expect(nav).toBeVisible()
  const hrefs = [
    ...new Set(await nav.locator('a[href^="/ui/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))),
  ]
  expect(hrefs.length).toBeGreaterThan(10)
  // Directory sign-in (LDAP, Crowd) has no screen yet: its menu entries are the directory-sign-in work's.
  const directory = ['/ui/admin/configuration/security/ldap', '/ui/admin/configuration/security/crowd_integration']
  for (const href of hrefs.filter((h) => !directory.includes(h))) {
    await page.goto(href)
    await expect(page.getByRole('heading', { level: 1 }).first(), href).toBeVisible()
    expect(new URL(page.url()).pathname, href).not.toBe('/ui/404')
  }
  await page.goto('/ui/admin/configuration/integrations')
  await expect(page).toHaveURL(/\/ui\/integrations$/)
  await page.goto('/ui/projects')
  await expect(page).toHaveURL(/\/ui\/admin\/projects\/list$/)
})
