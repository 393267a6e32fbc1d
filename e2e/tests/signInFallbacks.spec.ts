import { expect, test } from '@playwright/test'
import { Messages } from '@trove/contracts/messages'
import { ADMIN_PASSWORD } from '../playwright.config'

// Shell §8's fallback texts: when a sign-in call gets no answer at all (the network drops it), the
// screen shows its own text, not the browser's. The browser really loses the request here.
test('no answer at all: each sign-in screen shows its own fallback text', async ({ page }) => {
  await page.route('**/ui/api/v1/ui/auth/forgotPassword', (route) => route.abort('connectionreset'))
  await page.goto('/ui/login/forgot-password')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByRole('alert')).toHaveText(Messages.emailNotSent)

  await page.route('**/ui/api/v1/ui/auth/validateToken?**', (route) => route.abort('connectionreset'))
  await page.goto('/ui/login/reset-password?key=some-key')
  await expect(page.getByRole('alert')).toHaveText(Messages.resetPasswordFailed)

  await page.route('**/ui/api/v1/ui/auth/changePassword?**', (route) => route.abort('connectionreset'))
  await page.goto('/ui/login/change-password/admin')
  await page.getByLabel('Current password').fill(ADMIN_PASSWORD)
  await page.getByLabel('New password', { exact: true }).fill('never-set-password')
  await page.getByLabel('Confirm new password').fill('never-set-password')
  await page.getByRole('button', { name: 'Change password and sign in' }).click()
  await expect(page.getByRole('alert')).toHaveText(Messages.changePasswordFailed)

  await page.route('**/ui/api/v1/ui/auth/login?**', (route) => route.abort('connectionreset'))
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('alert')).toHaveText(Messages.somethingWentWrong)
  await expect(page.getByRole('button', { name: 'Log In' })).not.toHaveAttribute('data-loading')
})
