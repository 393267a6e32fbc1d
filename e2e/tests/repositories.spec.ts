import { expect, test } from '@playwright/test'
import { signInAsAdmin } from './signIn'

test('an admin quick-creates the npm samples, makes, edits and deletes repositories', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/repositories')
  await expect(page.getByRole('heading', { name: 'Repositories', level: 1 })).toBeVisible()

  await page.getByRole('main').getByLabel('Package type').selectOption('npm')
  await page.getByRole('button', { name: /^Create npm-local, npm-virtual$/ }).click()
  await expect(page.getByRole('status')).toContainText('Created npm-local, npm-virtual.')
  const table = page.getByRole('table', { name: 'Repositories' })
  await expect(table.getByRole('button', { name: 'Edit npm-local' })).toBeVisible()
  await expect(table.getByRole('button', { name: 'Edit npm-virtual' })).toBeVisible()

  await page.getByRole('button', { name: 'New Local Repository' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/repositories\/local\/new$/)
  await page.getByRole('main').getByLabel('Package type').selectOption('generic')
  await page.getByRole('textbox', { name: 'Repository key' }).fill('bad key!')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('Name can only contain alphanumeric characters, dashes and periods')).toBeVisible()
  await page.getByRole('textbox', { name: 'Repository key' }).fill('builds-local')
  await page.getByRole('textbox', { name: 'Description' }).fill('CI outputs')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/ui\/admin\/repositories$/)
  await expect(table.getByRole('row', { name: /builds-local/ })).toContainText('CI outputs')
  await expect(table.getByRole('row', { name: /builds-local/ }).getByRole('cell', { name: 'Generic', exact: true })).toBeVisible()
  await expect(table.getByRole('row', { name: /npm-local/ }).getByRole('cell', { name: 'npm', exact: true })).toBeVisible()
  // Each row shows what its client is configured with, as set-me-up writes it.
  const origin = new URL(page.url()).origin
  await expect(table.getByRole('row', { name: /npm-local/ })).toContainText(`${origin}/api/npm/npm-local/`)
  await expect(table.getByRole('row', { name: /builds-local/ })).toContainText(`${origin}/artifactory/builds-local`)
  await expect(table.getByRole('button', { name: 'Copy the URL of npm-local' })).toBeVisible()

  await table.getByRole('button', { name: 'Edit builds-local' }).click()
  await expect(page.getByRole('heading', { name: 'Edit Local Repository builds-local' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Description' }).fill('CI build outputs')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(table.getByRole('row', { name: /builds-local/ })).toContainText('CI build outputs')
  await page.screenshot({ path: test.info().outputPath('repositories.png'), fullPage: true })

  await table.getByRole('button', { name: 'Delete builds-local' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(table.getByRole('button', { name: 'Edit builds-local' })).toHaveCount(0)

  // A virtual repository lists its members in order and deploys to a local one.
  await page.getByRole('button', { name: 'New Virtual Repository' }).click()
  await page.getByRole('textbox', { name: 'Repository key' }).fill('npm-all')
  await page.getByRole('combobox', { name: 'Repositories (resolved in this order)' }).click()
  await page.getByRole('option', { name: 'npm-local' }).click()
  await page.keyboard.press('Escape')
  await page.getByRole('combobox', { name: 'Default deployment repository' }).click()
  await page.getByRole('option', { name: 'npm-local' }).click()
  await page.screenshot({ path: test.info().outputPath('virtual.png'), fullPage: true })
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(table.getByRole('button', { name: 'Edit npm-all' })).toBeVisible()
})
