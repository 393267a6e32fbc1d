import { expect, test } from '@playwright/test'
import { signInAsAdmin } from './signIn'

test('hovering Logout in the user menu does not sign out; clicking it does', async ({ page }) => {
  await signInAsAdmin(page)
  await page.getByRole('button', { name: 'User menu' }).click()
  const item = page.getByRole('menuitem', { name: 'Logout' })
  await item.hover()
  await page.waitForTimeout(800)
  const me = await page.request.get('/ui/api/v1/ui/auth/current')
  expect((await me.json()).anonymous).toBe(false)
  await item.click()
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  expect((await (await page.request.get('/ui/api/v1/ui/auth/current')).json()).anonymous).toBe(true)
})
