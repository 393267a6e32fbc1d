import { expect, test } from '@playwright/test'
import { mailText, startSmtp } from '../../apps/server/test/smtp'
import { ACCOUNTS_URL, ADMIN_PASSWORD } from '../playwright.config'
import { ADMIN_LANDING } from './signIn'

// This journey changes the admin's password, so it runs on its own server.
test.use({ baseURL: ACCOUNTS_URL })

test('forgot password: the mailed link sets a new password and signs in', async ({ page, request }) => {
  const smtp = await startSmtp()
  try {
    // The admin gives the account an address and configures the mail server.
    expect(
      (await request.post('/ui/api/v1/ui/auth/login', { data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' } })).ok(),
    ).toBe(true)
    const csrf = (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? ''
    const headers = { 'x-csrf-token': csrf }
    expect(
      (
        await request.put('/ui/api/v1/ui/userProfile', {
          headers,
          data: { email: 'admin@example.com', password: ADMIN_PASSWORD },
        })
      ).ok(),
    ).toBe(true)
    const mail = await request.put('/ui/api/v1/ui/admin/configuration/mail', {
      headers,
      data: {
        enabled: true,
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        from: 'trove@example.com',
        baseUrl: ACCOUNTS_URL,
      },
    })
    expect(mail.ok()).toBe(true)

    await page.goto('/ui/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await expect(page).toHaveURL(/\/ui\/login\/forgot-password$/)
    await expect(page).toHaveTitle('Forgot password - Trove')
    await page.getByRole('textbox', { name: 'Username' }).fill('admin')
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('status')).toContainText('a link to reset the password is on its way')

    const received = await smtp.next()
    expect(received.to).toEqual(['admin@example.com'])
    const link = /(http:\/\/\S+\/ui\/login\/reset-password\?key=[\w-]+)/.exec(mailText(received.raw))?.[1] ?? ''
    expect(link).not.toBe('')

    await page.goto(link)
    await expect(page.getByText('Choose a new password for admin.')).toBeVisible()
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-password')
    await page.getByLabel('Confirm new password').fill('a-brand-new-password')
    await page.getByRole('button', { name: 'Set password and sign in' }).click()
    await expect(page).toHaveURL(ADMIN_LANDING)
    await expect(page.getByRole('button', { name: 'User menu' })).toContainText('admin')
    const session = (await page.context().cookies()).find((c) => c.name === 'trove_session')
    expect(session?.expires).toBe(-1) // signed in with remember-me off

    // The link works once (checked signed out: a signed-in user opening a sign-in route is sent on).
    await page.context().clearCookies()
    await page.goto(link)
    await expect(page.getByRole('alert')).toHaveText('This link is not valid: it was used, has expired, or never existed')
  } finally {
    await smtp.close()
  }
})
