import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD } from '../playwright.config'
import { signInAsAdmin } from './signIn'

test('the profile: e-mail, API key and access tokens, after giving the password again', async ({ page, request }) => {
  await signInAsAdmin(page)
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click()
  await expect(page).toHaveURL(/\/ui\/user_profile$/)
  await expect(page).toHaveTitle('Edit profile - Trove')

  await page.getByLabel('Current password').fill('not-it')
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByRole('alert')).toHaveText('Incorrect user name or password')
  await page.getByLabel('Current password').fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Unlock' }).click()

  await page.getByRole('textbox', { name: 'E-mail' }).fill('admin@example.org')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()

  // The API key: created, usable as a Bearer token, then revoked.
  await page.getByRole('button', { name: 'Create key' }).click()
  const apiKey = (await page.getByTestId('api-key').textContent()) ?? ''
  expect(apiKey).toMatch(/^trove_ak_/)
  const asKey = await request.get('/ui/api/v1/ui/auth/current', { headers: { authorization: `Bearer ${apiKey}` } })
  expect((await asKey.json()).name).toBe('admin')
  await page.getByRole('button', { name: 'Revoke key' }).click()
  await expect(page.getByText('You have no API key.')).toBeVisible()
  expect(
    (await request.get('/ui/api/v1/ui/userIdentifyToken', { headers: { authorization: `Bearer ${apiKey}` } })).status(),
  ).toBe(401)

  // An access token: shown once, listed, usable, revoked.
  await page.getByLabel('Description').fill('e2e deploys')
  await page.getByRole('button', { name: 'Create token' }).click()
  const token = (await page.getByTestId('new-token').textContent()) ?? ''
  expect(token).toMatch(/^trove_at_/)
  const table = page.getByRole('table', { name: 'Access tokens' })
  await expect(table).toContainText('e2e deploys')
  expect((await request.get('/ui/api/v1/ui/userIdentifyToken', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(
    200,
  )
  await page.getByRole('button', { name: 'Revoke e2e deploys' }).click()
  await expect(table.getByText('e2e deploys')).toHaveCount(0)
  expect((await request.get('/ui/api/v1/ui/userIdentifyToken', { headers: { authorization: `Bearer ${token}` } })).status()).toBe(
    401,
  )

  // A read-only token: listed with its scope; it reads, and changes nothing even for an admin.
  await page.getByLabel('Description').fill('e2e reads')
  await page.getByLabel('Scope').selectOption({ label: 'Read only' })
  await page.getByRole('button', { name: 'Create token' }).click()
  // The box still shows the token made before until the new one arrives.
  await expect(page.getByTestId('new-token')).not.toHaveText(token)
  const readToken = (await page.getByTestId('new-token').textContent()) ?? ''
  expect(readToken).toMatch(/^trove_at_/)
  await expect(table.getByRole('row', { name: /e2e reads/ })).toContainText('Read only')
  const asReader = { authorization: `Bearer ${readToken}` }
  expect((await request.get('/ui/api/v1/ui/admin/users', { headers: asReader })).status()).toBe(200)
  const refused = await request.post('/ui/api/v1/ui/admin/users', {
    headers: asReader,
    data: { name: 'e2e-never', password: 'never-password' },
  })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).errors[0].message).toBe('This token may not change anything here: its scope is read')
  await page.getByRole('button', { name: 'Revoke e2e reads' }).click()
  await expect(table.getByText('e2e reads')).toHaveCount(0)
})
