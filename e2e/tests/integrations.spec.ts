import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { expectAccessible } from './axe'
import { csrfOf, signInAsAdmin } from './signIn'

// The integrations catalogue (packages §2) and the IDE integration (§4), each journey with users of
// its own so that no other journey's change to the admin's API key gets in the way.

async function makeUser(page: Page, name: string, password: string, admin: boolean) {
  const res = await page.request.post('/ui/api/v1/ui/admin/users', {
    headers: { 'x-csrf-token': await csrfOf(page) },
    data: { name, password, admin },
  })
  expect(res.status()).toBe(201)
}

async function signIn(page: Page, user: string, password: string) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).not.toHaveURL(/\/ui\/login/)
  await page.goto('/ui/integrations')
  await expect(page.getByRole('heading', { name: ScreenMessages.integrationsTitle, level: 1 })).toBeVisible()
}

const grid = (page: Page) => page.getByRole('list', { name: ScreenMessages.integrationsTitle })

test('an admin filters the catalogue, and Set Up of npm opens quick repository creation with npm ticked', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/integrations')
  await expect(page).toHaveTitle('Integrations - Trove')
  const cards = grid(page).getByRole('listitem')
  await expect(cards.first()).toBeVisible()
  const total = await cards.count()
  expect(total).toBeGreaterThanOrEqual(20)
  await expect(page.getByLabel(`${total} integrations shown`)).toBeVisible()

  await page.getByPlaceholder(Messages.searchIntegrations).fill('git')
  await expect(cards).toHaveText(['GitHub', 'GitLab', 'GitHub Actions', 'GitLab CI/CD'])
  await page.getByRole('button', { name: 'Clear search' }).click()
  await expect(cards).toHaveCount(total)

  const categories = page.getByRole('group', { name: ScreenMessages.integrationCategories })
  await categories.getByRole('checkbox', { name: 'Source Control' }).check()
  await expect(categories.getByRole('checkbox', { name: ScreenMessages.integrationFilterAll })).not.toBeChecked()
  await expect(cards).toHaveText(['GitHub', 'GitLab', 'Bitbucket Cloud', 'Bitbucket Server'])
  await page.getByRole('group', { name: ScreenMessages.integrationCloudVendor }).getByRole('checkbox', { name: 'AWS' }).check()
  await expect(page.getByText(Messages.noIntegrationsFound)).toBeVisible()
  await expect(page.getByText(Messages.noIntegrationsHint)).toBeVisible()
  await categories.getByRole('checkbox', { name: ScreenMessages.integrationFilterAll }).check()
  await expect(cards).toHaveText(['Amazon ECS'])
  await page.getByRole('group', { name: ScreenMessages.integrationCloudVendor }).getByRole('checkbox', { name: 'AWS' }).uncheck()

  // An admin's dialog: the documentation link opens in a new tab without opener or referrer.
  await grid(page).getByRole('button', { name: 'GitLab', exact: true }).click()
  const gitlab = page.getByRole('dialog', { name: 'GitLab' })
  await expect(gitlab.getByRole('link', { name: Messages.learnMore })).toHaveAttribute('rel', 'noopener noreferrer')
  await expect(gitlab.getByRole('link', { name: Messages.learnMore })).toHaveAttribute('target', '_blank')
  await page.keyboard.press('Escape')

  // A guide: what it does, the steps, and the snippet written for this instance.
  const origin = new URL(page.url()).origin
  await grid(page).getByRole('button', { name: 'GitHub Actions' }).click()
  const actions = page.getByRole('dialog', { name: 'GitHub Actions' })
  await expect(actions.getByText(/^Publishes what a pipeline builds to a Trove repository/)).toBeVisible()
  await expect(actions.getByRole('list', { name: 'Steps' }).getByRole('listitem')).toHaveCount(4)
  await expect(actions.getByText(`${origin}/api/build`, { exact: false })).toBeVisible()
  await expect(actions.getByRole('button', { name: 'Copy .github/workflows/build.yml' })).toBeVisible()
  await expectAccessible(page)
  await actions.getByRole('button', { name: Messages.setUp }).click()
  await expect(page).toHaveURL(/\/ui\/user_profile$/)
  await page.goto('/ui/integrations')
  await grid(page).getByRole('button', { name: 'Kubernetes', exact: true }).click()
  const kube = page.getByRole('dialog', { name: 'Kubernetes' })
  await expect(kube.getByText(`--docker-server=${new URL(origin).host}`, { exact: false })).toBeVisible()
  await kube.getByRole('button', { name: Messages.setUp }).click()
  await expect(page.getByRole('dialog', { name: 'Quick Setup' }).getByRole('checkbox', { name: 'Docker' })).toBeChecked()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Quick Setup' })).toHaveCount(0)

  await grid(page).getByRole('button', { name: 'npm', exact: true }).click()
  const npm = page.getByRole('dialog', { name: 'npm' })
  await expect(npm.getByText(`registry=${origin}/api/npm/npm-virtual/`, { exact: false })).toBeVisible()
  await npm.getByRole('button', { name: Messages.setUp }).click()
  const quickSetup = page.getByRole('dialog', { name: 'Quick Setup' })
  await expect(quickSetup.getByRole('checkbox', { name: 'npm' })).toBeChecked()
  await expect(quickSetup.getByRole('checkbox', { name: 'Docker' })).not.toBeChecked()
})

test('a non-admin sees only documentation links, opened in a new tab without opener or referrer', async ({ page, browser }) => {
  await signInAsAdmin(page)
  await makeUser(page, 'e2e-integrations-user', 'integrations-user-1', false)
  const context = await browser.newContext()
  const user = await context.newPage()
  await signIn(user, 'e2e-integrations-user', 'integrations-user-1')
  await expect(grid(user).getByRole('button')).toHaveCount(0)
  const links = grid(user).getByRole('link')
  await expect(links.first()).toBeVisible()
  expect(await links.count()).toBeGreaterThanOrEqual(20)
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute('target', '_blank')
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    await expect(link).toHaveAttribute('href', /^https:\/\//)
  }
  await context.close()
})

test('the IDE modal shows the base URL and an API key that works with npm whoami', async ({ page, browser, baseURL }) => {
  await signInAsAdmin(page)
  await makeUser(page, 'e2e-ide-admin', 'ide-admin-password', true)
  const npmRepo = await page.request.put('/api/repositories/e2e-ide-npm', {
    headers: { 'x-csrf-token': await csrfOf(page) },
    data: { rclass: 'local', packageType: 'npm' },
  })
  expect(npmRepo.status()).toBe(201)
  const context = await browser.newContext()
  const ide = await context.newPage()
  await signIn(ide, 'e2e-ide-admin', 'ide-admin-password')

  await grid(ide).getByRole('button', { name: 'Visual Studio Code' }).click()
  await ide.getByRole('dialog', { name: 'Visual Studio Code' }).getByRole('button', { name: Messages.setUp }).click()
  const modal = ide.getByRole('dialog', { name: 'Visual Studio Code' })
  await expect(modal.getByTestId('ide-base-url')).toHaveText(baseURL ?? '')
  await expect(modal.getByTestId('ide-user')).toHaveText('e2e-ide-admin')
  await modal.getByLabel(ScreenMessages.ideIntegrationPassword).fill('ide-admin-password')
  await modal.getByRole('button', { name: ScreenMessages.ideIntegrationShowKey }).click()
  const apiKey = (await modal.getByTestId('ide-api-key').textContent()) ?? ''
  expect(apiKey).toMatch(/^trove_ak_/)
  const shownBaseUrl = (await modal.getByTestId('ide-base-url').textContent()) ?? ''

  // npm, configured with the modal's base URL and key, knows who it is.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-e2e-ide-'))
  const registry = `${shownBaseUrl}/api/npm/e2e-ide-npm/`
  fs.writeFileSync(path.join(work, '.npmrc'), `registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${apiKey}\n`)
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)))
  const whoami = spawnSync('npm', ['whoami'], {
    cwd: work,
    encoding: 'utf8',
    env: {
      ...env,
      npm_config_userconfig: path.join(work, '.npmrc'),
      npm_config_cache: path.join(work, 'cache'),
      npm_config_update_notifier: 'false',
    },
  })
  expect(whoami.status, whoami.stderr).toBe(0)
  expect(whoami.stdout.trim()).toBe('e2e-ide-admin')

  // Opened again, the same key is shown.
  await ide.keyboard.press('Escape')
  await grid(ide).getByRole('button', { name: 'JetBrains IDEs' }).click()
  await ide.getByRole('dialog', { name: 'JetBrains IDEs' }).getByRole('button', { name: Messages.setUp }).click()
  const again = ide.getByRole('dialog', { name: 'JetBrains IDEs' })
  await again.getByLabel(ScreenMessages.ideIntegrationPassword).fill('ide-admin-password')
  await again.getByRole('button', { name: ScreenMessages.ideIntegrationShowKey }).click()
  await expect(again.getByTestId('ide-api-key')).toHaveText(apiKey)
  fs.rmSync(work, { recursive: true, force: true })
  await context.close()
})
