import path from 'node:path'
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import SQLite from 'better-sqlite3'
import { mailText, startSmtp } from '../../apps/server/test/smtp'
import { ACCOUNTS_URL, ADMIN_PASSWORD } from '../playwright.config'
import { ADMIN_LANDING, USER_LANDING } from './signIn'

// These journeys change passwords (the last one the admin's), so they run on their own server, in order.
test.use({ baseURL: ACCOUNTS_URL })
test.describe.configure({ mode: 'serial' })

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/ui/api/v1/ui/auth/login', {
    data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' },
  })
  expect(login.ok()).toBe(true)
  return { 'x-csrf-token': (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? '' }
}

async function signInWith(page: Page, user: string, password: string) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
}

test('the profile changes the password with the current one; the new one signs in, the old one no longer', async ({
  page,
  request,
}) => {
  const headers = await adminApi(request)
  expect(
    (
      await request.post('/ui/api/v1/ui/admin/users', { headers, data: { name: 'e2e-pat', password: 'pat-password-1' } })
    ).status(),
  ).toBe(201)
  await signInWith(page, 'e2e-pat', 'pat-password-1')
  await expect(page).toHaveURL(USER_LANDING)
  await page.goto('/ui/user_profile')
  await page.getByLabel('Current password').fill('pat-password-1')
  await page.getByRole('button', { name: 'Unlock' }).click()
  const form = page.getByRole('form', { name: 'Change password' })
  await form.getByLabel('New password', { exact: true }).fill('pat-password-2')
  await form.getByLabel('Confirm new password').fill('pat-password-3')
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(form.getByText('The new passwords do not match')).toBeVisible()
  await form.getByLabel('Confirm new password').fill('pat-password-2')
  await form.getByRole('button', { name: 'Change password' }).click()
  await expect(form.getByRole('status')).toHaveText('Password changed')
  // This session stays signed in.
  await page.reload()
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('e2e-pat')

  await page.goto('/ui/logout')
  // The sign-out is a call the route makes: going on before it lands on the login page would cancel it.
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await signInWith(page, 'e2e-pat', 'pat-password-1')
  await expect(page.getByRole('alert')).toContainText('Incorrect user name or password')
  await signInWith(page, 'e2e-pat', 'pat-password-2')
  await expect(page).toHaveURL(USER_LANDING)
})

test('an expired password: sign-in opens the change-password screen with the user name, then signs in', async ({
  page,
  request,
}) => {
  const headers = await adminApi(request)
  expect(
    (
      await request.post('/ui/api/v1/ui/admin/users', { headers, data: { name: 'e2e-old', password: 'old-password-1' } })
    ).status(),
  ).toBe(201)
  // The admin sets the expiry on the Security Configuration screen.
  await signInWith(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/admin/configuration/security/general')
  const policy = page.getByRole('region', { name: 'Password policy' })
  await policy.getByRole('textbox', { name: 'Passwords expire after (days)' }).fill('30')
  await policy.getByRole('button', { name: 'Save' }).click()
  await expect
    .poll(async () => (await (await request.get('/ui/api/v1/ui/admin/security/passwordPolicy', { headers })).json()).expiryDays)
    .toBe(30)
  await page.goto('/ui/logout')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  // The password was last set 31 days ago: moved back in the server's own database.
  const db = new SQLite(path.join(process.env.TROVE_E2E_DATA_DIR ?? '', 'server-2', 'trove.db'))
  try {
    db.pragma('busy_timeout = 5000')
    db.prepare('update users set password_changed_at = ? where name = ?').run(Date.now() - 31 * 24 * 3600 * 1000, 'e2e-old')
  } finally {
    db.close()
  }
  try {
    await signInWith(page, 'e2e-old', 'old-password-1')
    await expect(page).toHaveURL(/\/ui\/login\/change-password\/e2e-old$/)
    await expect(page.getByText('The password of e2e-old has expired: choose a new one.')).toBeVisible()
    // Shell §8, change password failure: the server's answer is shown and the screen stays.
    await page.getByLabel('Current password').fill('not-the-old-password')
    await page.getByLabel('New password', { exact: true }).fill('old-password-2')
    await page.getByLabel('Confirm new password').fill('old-password-2')
    await page.getByRole('button', { name: 'Change password and sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText('Incorrect user name or password')
    await expect(page).toHaveURL(/\/ui\/login\/change-password\/e2e-old$/)
    await page.getByLabel('Current password').fill('old-password-1')
    await page.getByLabel('New password', { exact: true }).fill('old-password-2')
    await page.getByLabel('Confirm new password').fill('old-password-2')
    await page.getByRole('button', { name: 'Change password and sign in' }).click()
    await expect(page).toHaveURL(USER_LANDING)
    await expect(page.getByRole('button', { name: 'User menu' })).toContainText('e2e-old')
    const session = (await page.context().cookies()).find((c) => c.name === 'trove_session')
    expect(session?.expires).toBe(-1) // signed in with remember-me off
  } finally {
    await request.put('/ui/api/v1/ui/admin/security/passwordPolicy', { headers, data: { expiryDays: 0 } })
  }
})

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
    // Shell §8, forgot password failure: with no mail server yet, the server's answer is shown.
    await page.goto('/ui/login/forgot-password')
    await page.getByRole('textbox', { name: 'Username' }).fill('admin')
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('alert')).toHaveText("Email wasn't sent: no mail server is configured")

    // The admin sets the mail server on the General Settings screen.
    await signInWith(page, 'admin', ADMIN_PASSWORD)
    await expect(page).toHaveURL(ADMIN_LANDING)
    await page.goto('/ui/admin/configuration/general')
    const mail = page.getByRole('form', { name: 'Mail server' })
    await mail.getByRole('switch', { name: 'Send mail' }).check({ force: true })
    await mail.getByRole('textbox', { name: 'Host' }).fill('127.0.0.1')
    await mail.getByRole('textbox', { name: 'Port' }).fill(String(smtp.port))
    await mail.getByRole('textbox', { name: 'From' }).fill('trove@example.com')
    await mail.getByRole('textbox', { name: 'Base URL for links in mails' }).fill(ACCOUNTS_URL)
    await mail.getByRole('button', { name: 'Save mail server' }).click()
    await expect(page.getByText('Mail server saved')).toBeVisible()
    await page.goto('/ui/logout')
    await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)

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
