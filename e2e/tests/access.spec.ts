import { expect, type Page, test } from '@playwright/test'
import { Messages } from '@trove/contracts/messages'
import { csrfOf, signInAsAdmin } from './signIn'

const USER = 'e2e-paula'
const PASSWORD = 'paula-password-1'

async function signIn(page: Page, user: string, password: string) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/(overview|packages)/)
}

/** Deploys a small file with the page's session, as the console's calls do: the status. */
const deploy = async (page: Page, repo: string, file: string) =>
  (
    await page.request.put(`/artifactory/${repo}/${file}`, { headers: { 'x-csrf-token': await csrfOf(page) }, data: 'hello' })
  ).status()

const actionsOn = async (page: Page, repo: string) =>
  (await (await page.request.get(`/ui/api/v1/ui/access/repositories/${repo}/actions`)).json()).actions

test('the forms for a new user, group and permission open clean: no call for an empty name, no error', async ({ page }) => {
  await signInAsAdmin(page)
  for (const [url, field] of [
    ['/ui/admin/management/users/new', 'User name'],
    ['/ui/admin/management/groups/new', 'Group name'],
    ['/ui/admin/management/permissions/create', 'Permission name'],
  ] as const) {
    const refused: string[] = []
    const listen = (response: import('@playwright/test').Response) => {
      if (response.url().includes('/ui/api/') && response.status() >= 400) refused.push(`${response.status()} ${response.url()}`)
    }
    page.on('response', listen)
    await page.goto(url)
    await expect(page.getByRole('textbox', { name: field })).toBeVisible()
    await page.waitForLoadState('networkidle')
    page.off('response', listen)
    expect(refused, url).toEqual([])
    await expect(page.getByText(/Invalid request/)).toHaveCount(0)
  }
})

test('an admin creates a user, a group and a permission; the user then can and cannot do exactly that', async ({
  browser,
  page,
}, info) => {
  // A whole administration journey in two browsers: 22 s alone on a 2-core machine, more beside
  // the other journeys (the 30 s default left too little room).
  test.setTimeout(90_000)
  await signInAsAdmin(page)

  // A user
  await page.goto('/ui/admin/management/users/new')
  await page.getByRole('button', { name: 'Create user' }).click()
  await expect(page.getByText(Messages.fieldMandatory).first()).toBeVisible()
  await page.getByRole('textbox', { name: 'User name' }).fill('bad name!')
  await page.getByRole('button', { name: 'Create user' }).click()
  await expect(page.getByText(Messages.invalidName)).toBeVisible()
  await page.getByRole('textbox', { name: 'User name' }).fill(USER)
  await page.getByRole('textbox', { name: 'Email' }).fill('paula@example.org')
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Create user' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/management\/users$/)
  await page.getByRole('textbox', { name: 'Search users' }).fill('paula')
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('link', { name: USER })).toBeVisible()
  await page.screenshot({ path: info.outputPath('users.png') })

  // A group with that user
  await page.goto('/ui/admin/management/groups/new')
  await page.getByRole('textbox', { name: 'Group name' }).fill('e2e-team')
  await page.getByRole('combobox', { name: 'Members' }).fill(USER)
  await page.getByRole('combobox', { name: 'Members' }).press('Enter')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Create group' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/management\/groups$/)
  await expect(page.getByRole('table', { name: 'Groups' }).getByRole('row', { name: /e2e-team/ })).toContainText('1')

  // A permission: the group reads and deploys on libs-* repositories
  await page.goto('/ui/admin/management/permissions/create')
  await page.getByRole('textbox', { name: 'Permission name' }).fill('e2e-libs')
  await page.getByRole('combobox', { name: 'Repositories: include patterns' }).fill('libs-*')
  await page.getByRole('combobox', { name: 'Repositories: include patterns' }).press('Enter')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Add repositories grant' }).click()
  await page.getByRole('combobox', { name: 'Repositories grant 1 kind' }).selectOption('group')
  await page.getByRole('textbox', { name: 'Repositories grant 1 name' }).fill('e2e-team')
  await page.getByRole('checkbox', { name: 'Repositories grant 1 Deploy/Cache' }).check()
  await page.screenshot({ path: info.outputPath('permission.png'), fullPage: true })
  await page.getByRole('button', { name: 'Create permission' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/management\/permissions$/)
  await expect(page.getByRole('table', { name: 'Permissions' }).getByRole('row', { name: /e2e-libs/ })).toContainText(
    'Repositories',
  )

  // Two real repositories: one the permission names, one it does not.
  for (const key of ['libs-release', 'other-local']) {
    const made = await page.request.put(`/api/repositories/${key}`, {
      headers: { 'x-csrf-token': await csrfOf(page) },
      data: { rclass: 'local', packageType: 'generic' },
    })
    expect(made.status()).toBe(201)
  }

  // The user, in a browser of their own
  const context = await browser.newContext()
  const paula = await context.newPage()
  await signIn(paula, USER, PASSWORD)
  // Shell §6: the console offers her nothing of the admin area.
  await expect(paula.getByRole('button', { name: 'User menu' })).toContainText(USER)
  await expect(paula.getByRole('radio', { name: 'Administration' })).toHaveCount(0)
  await paula.getByRole('button', { name: 'Quick actions' }).click()
  const quick = paula.getByRole('menu')
  await expect(quick.getByRole('menuitem', { name: 'Set Me Up' })).toBeVisible()
  for (const adminOnly of ['New User', 'New Group', 'New Permission', 'New Local Repository']) {
    await expect(quick.getByRole('menuitem', { name: adminOnly })).toHaveCount(0)
  }
  await paula.keyboard.press('Escape')
  expect(await actionsOn(paula, 'libs-release')).toEqual(['read', 'deploy'])
  expect(await actionsOn(paula, 'docker-local')).toEqual([])
  // What the permission says, on the real repositories: deploy and read libs-release, nothing on the other.
  expect(await deploy(paula, 'libs-release', 'notes/a.txt')).toBe(201)
  expect((await paula.request.get('/artifactory/libs-release/notes/a.txt')).status()).toBe(200)
  expect(await deploy(paula, 'other-local', 'notes/a.txt')).toBe(403)
  const listed = (await (await paula.request.get('/api/repositories')).json()) as { key: string }[]
  expect(listed.map((r) => r.key)).toEqual(['libs-release'])
  expect((await paula.request.get('/ui/api/v1/ui/admin/users')).status()).toBe(403)
  await paula.goto('/ui/admin/management/users')
  await expect(paula.getByText(Messages.notAuthorized)).toBeVisible()
  await expect(paula).not.toHaveURL(/admin/)

  // The admin takes the deploy action away: the user loses it at once.
  await page.getByRole('link', { name: 'e2e-libs' }).click()
  await page.getByRole('checkbox', { name: 'Repositories grant 1 Deploy/Cache' }).uncheck()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/management\/permissions$/)
  expect(await actionsOn(paula, 'libs-release')).toEqual(['read'])
  expect(await deploy(paula, 'libs-release', 'notes/b.txt')).toBe(403)
  expect((await paula.request.get('/artifactory/libs-release/notes/a.txt')).status()).toBe(200)

  // And the audit shows who did it.
  await page.goto('/ui/admin/management/audit')
  await expect(page.getByRole('table', { name: 'Audit events' })).toContainText('permission.update')
  await page.screenshot({ path: info.outputPath('audit.png') })

  // Disabled on the user's screen: the user is signed out at once.
  await page.goto(`/ui/admin/management/users/${USER}`)
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('paula@example.org')
  await page.getByRole('checkbox', { name: 'Disabled' }).check()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/management\/users$/)
  expect((await paula.request.get('/ui/api/v1/ui/auth/current')).ok()).toBe(true)
  expect((await (await paula.request.get('/ui/api/v1/ui/auth/current')).json()).anonymous).toBe(true)
  await context.close()
})

test('projects: a key must start with a lowercase letter; a project admin gets the projects screens and nothing more', async ({
  browser,
  page,
}, info) => {
  // A project made and staffed, then used by its admin in a second browser: 28 s in a full run.
  test.setTimeout(60_000)
  await signInAsAdmin(page)
  await page.goto('/ui/admin/projects/create')
  await page.getByRole('textbox', { name: 'Project name' }).fill('E2E Shop')
  await page.getByRole('textbox', { name: 'Project key' }).fill('Shop')
  await page.getByRole('button', { name: 'Create project' }).click()
  await expect(page.getByText(Messages.projectKeyLowercase)).toBeVisible()
  await page.getByRole('textbox', { name: 'Project key' }).fill('eshop')
  await page.getByRole('button', { name: 'Create project' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/projects\/members\?project=eshop$/)

  // A duplicate key fails with the spec's notice.
  await page.goto('/ui/admin/projects/create')
  await page.getByRole('textbox', { name: 'Project name' }).fill('Another')
  await page.getByRole('textbox', { name: 'Project key' }).fill('eshop')
  await page.getByRole('button', { name: 'Create project' }).click()
  await expect(page.getByText(Messages.projectCreateFailed)).toBeVisible()

  await page.request.post('/ui/api/v1/ui/admin/users', {
    headers: { 'x-csrf-token': (await page.context().cookies()).find((c) => c.name === 'trove_csrf')?.value ?? '' },
    data: { name: 'e2e-olga', password: 'olga-password-1' },
  })
  await page.goto('/ui/admin/projects/members?project=eshop')
  await page.getByRole('textbox', { name: 'Member name' }).fill('e2e-olga')
  await page.getByRole('checkbox', { name: 'Project Admin' }).check()
  await page.getByRole('button', { name: 'Add member' }).click()
  await page.getByRole('button', { name: 'Save members' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
  await page.screenshot({ path: info.outputPath('members.png') })

  const context = await browser.newContext()
  const olga = await context.newPage()
  await signIn(olga, 'e2e-olga', 'olga-password-1')
  await olga.goto('/ui/admin/projects/list')
  const table = olga.getByRole('table', { name: 'Projects' })
  await expect(table).toContainText('eshop')
  await expect(table).not.toContainText('dflt')
  await expect(olga.getByRole('link', { name: 'Create project' })).toHaveAttribute('data-disabled', 'true')
  await expect(olga.getByRole('tab', { name: 'Users' })).toHaveCount(0)
  expect(await actionsOn(olga, 'eshop-npm')).toEqual(['read', 'annotate', 'deploy', 'delete', 'manage'])
  // Shell §4.3: choosing her project gives her the Project Settings sidebar (never Administration),
  // and its items open that project's screens.
  await expect(olga.getByRole('radio', { name: 'Administration' })).toHaveCount(0)
  await olga.getByRole('combobox', { name: 'Project' }).click()
  await olga.getByRole('option', { name: 'E2E Shop' }).click()
  await expect(olga).toHaveURL(/\/ui\/admin\/projects\/overview\?(projectKey|project)=eshop/)
  await expect(olga.getByRole('textbox', { name: 'Project name' })).toHaveValue('E2E Shop')
  const settings = olga.getByRole('navigation', { name: 'Project Settings' })
  await settings.getByRole('link', { name: 'Members' }).click()
  await expect(olga).toHaveURL(/\/ui\/admin\/projects\/members\?project=eshop$/)
  await expect(olga.getByRole('textbox', { name: 'Member name' })).toBeVisible()
  await olga.screenshot({ path: info.outputPath('project-admin-members.png') })
  await olga.goto('/ui/admin/management/permissions')
  await expect(olga.getByText(Messages.notAuthorized)).toBeVisible()
  await context.close()
})

test('global roles: an admin adds a role that spans projects; a member given it holds exactly its actions', async ({
  browser,
  page,
}, info) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/management/global_roles')
  await expect(page).toHaveTitle(/^Global roles - /)
  const roles = page.getByRole('table', { name: 'Roles' })
  await expect(roles.getByRole('row', { name: /Project Admin/ })).toContainText('Predefined')
  await expect(page.getByRole('button', { name: 'Delete role Viewer' })).toBeDisabled()

  await page.getByRole('button', { name: 'Create role' }).click()
  await expect(page.getByText(Messages.fieldMandatory)).toBeVisible()
  await page.getByRole('textbox', { name: 'Role name' }).fill('Viewer')
  await page.getByRole('button', { name: 'Create role' }).click()
  await expect(page.getByRole('alert')).toContainText('A role named Viewer already exists')
  await page.getByRole('textbox', { name: 'Role name' }).fill('E2E Release Manager')
  await page.getByRole('checkbox', { name: 'Annotate' }).check()
  await page.getByRole('button', { name: 'Create role' }).click()
  await expect(roles.getByRole('row', { name: /E2E Release Manager/ })).toContainText('Read, Annotate')
  await expect(roles.getByRole('row', { name: /E2E Release Manager/ })).toContainText('Global')
  await page.screenshot({ path: info.outputPath('global-roles.png'), fullPage: true })

  // A project and a member holding the new role there.
  const headers = { 'x-csrf-token': await csrfOf(page) }
  expect(
    (
      await page.request.post('/ui/api/v1/ui/admin/projects', { headers, data: { key: 'rel', displayName: 'E2E Releases' } })
    ).status(),
  ).toBe(201)
  expect(
    (
      await page.request.post('/ui/api/v1/ui/admin/users', { headers, data: { name: 'e2e-rita', password: 'rita-password-1' } })
    ).status(),
  ).toBe(201)
  await page.goto('/ui/admin/projects/members?project=rel')
  await page.getByRole('textbox', { name: 'Member name' }).fill('e2e-rita')
  await page.getByRole('checkbox', { name: 'E2E Release Manager' }).check()
  await page.getByRole('button', { name: 'Add member' }).click()
  await page.getByRole('button', { name: 'Save members' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()

  const context = await browser.newContext()
  const rita = await context.newPage()
  await signIn(rita, 'e2e-rita', 'rita-password-1')
  expect(await actionsOn(rita, 'rel-generic')).toEqual(['read', 'annotate'])
  expect(await actionsOn(rita, 'dflt-generic')).toEqual([])

  // The role can go again; the member then holds nothing through it, at once.
  await page.goto('/ui/admin/management/global_roles')
  await page.getByRole('button', { name: 'Delete role E2E Release Manager' }).click()
  await expect(roles.getByRole('row', { name: /E2E Release Manager/ })).toHaveCount(0)
  expect(await actionsOn(rita, 'rel-generic')).toEqual([])
  await context.close()
})
