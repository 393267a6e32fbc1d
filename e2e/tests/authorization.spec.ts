import { expect, test } from '@playwright/test'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { csrfOf, signInAsAdmin } from './signIn'

const USER = 'e2e-aurora'
const PASSWORD = 'aurora-password-1'

test('the authorization screen shows a user what the permission model lets them do, and an admin that they hold everything', async ({
  browser,
  page,
}) => {
  await signInAsAdmin(page)
  const headers = { 'x-csrf-token': await csrfOf(page) }
  for (const key of ['auth-libs-local', 'auth-other-local']) {
    const made = await page.request.put(`/api/repositories/${key}`, {
      headers,
      data: { rclass: 'local', packageType: 'generic' },
    })
    expect(made.status(), key).toBe(201)
  }
  expect((await page.request.post('/ui/api/v1/ui/admin/users', { headers, data: { name: USER, password: PASSWORD } })).ok()).toBe(
    true,
  )
  const granted = await page.request.post('/ui/api/v1/ui/admin/permissions', {
    headers,
    data: {
      name: 'e2e-auth-libs',
      repositories: {
        resources: { names: ['auth-libs-local'], include: [], exclude: [] },
        grants: [{ kind: 'user', name: USER, actions: ['read', 'deploy'] }],
      },
    },
  })
  expect(granted.status()).toBe(201)

  // The admin is told they hold everything.
  await page.goto('/ui/authorization')
  await expect(page.getByRole('status').filter({ hasText: ScreenMessages.adminHoldsEverything })).toBeVisible()
  await page.getByRole('textbox', { name: 'Filter repositories' }).fill('auth-')
  const adminRow = page.getByRole('table', { name: 'Repository permissions' }).getByRole('row', { name: /auth-other-local/ })
  await expect(adminRow.getByRole('cell', { name: 'Manage: yes' })).toBeVisible()

  // The user sees the one repository the permission names, with exactly its actions.
  const context = await browser.newContext()
  const user = await context.newPage()
  await user.goto('/ui/login')
  await user.getByRole('textbox', { name: 'Username' }).fill(USER)
  await user.getByRole('textbox', { name: 'Password' }).fill(PASSWORD)
  await user.getByRole('button', { name: 'Log In' }).click()
  await expect(user).toHaveURL(/\/ui\/packages/)
  await user.goto('/ui/authorization')
  await expect(user).toHaveTitle(/^Authorization - /)
  const table = user.getByRole('table', { name: 'Repository permissions' })
  const row = table.getByRole('row', { name: /auth-libs-local/ })
  await expect(row.getByRole('cell', { name: 'Read: yes' })).toBeVisible()
  await expect(row.getByRole('cell', { name: 'Deploy/Cache: yes' })).toBeVisible()
  await expect(row.getByRole('cell', { name: 'Delete/Overwrite: no' })).toBeVisible()
  await expect(table.getByRole('row', { name: /auth-other-local/ })).toHaveCount(0)
  await expect(user.getByText(ScreenMessages.adminHoldsEverything)).toHaveCount(0)
  await expect(user.getByText(ScreenMessages.noProjectMemberships)).toBeVisible()
  await user.getByRole('textbox', { name: 'Filter repositories' }).fill('other')
  await expect(user.getByText(ScreenMessages.noRepositoryMatches)).toBeVisible()
  await context.close()
})
