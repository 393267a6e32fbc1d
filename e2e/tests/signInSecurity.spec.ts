import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { ADMIN_PASSWORD } from '../playwright.config'
import { ADMIN_LANDING, USER_LANDING } from './signIn'

// Two-step verification, remember-me and the sign-in lock, each with users of their own on the
// main server: turning MFA on or locking a name changes no one else's sign-in.
const USER = 'e2e-mia'
const PASSWORD = 'mia-password-1'
/** Wrong codes that end a pending sign-in (the server's MFA_MAX_FAILURES). */
const MAX_WRONG_CODES = 5

const code = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  })

async function createUser(request: APIRequestContext) {
  expect(
    (await request.post('/ui/api/v1/ui/auth/login', { data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' } })).ok(),
  ).toBe(true)
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? ''
  const made = await request.post('/ui/api/v1/ui/admin/users', {
    headers: { 'x-csrf-token': csrf },
    data: { name: USER, password: PASSWORD },
  })
  expect(made.status()).toBe(201)
}

async function signInWithPassword(page: Page, user = USER, password = PASSWORD, rememberMe = false) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  if (rememberMe) await page.getByRole('checkbox', { name: 'Remember me' }).check()
  await page.getByRole('button', { name: 'Log In' }).click()
}

async function typeCode(page: Page, value: string, submit: string) {
  await page.getByRole('form', { name: 'One-time code' }).getByRole('textbox').first().click()
  for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace')
  await page.keyboard.type(value)
  await page.getByRole('button', { name: submit }).click()
}

test('a user sets up two-step verification from the profile; too many wrong codes send the sign-in back to the start', async ({
  page,
  request,
}) => {
  await createUser(request)
  await signInWithPassword(page)
  await expect(page).toHaveURL(USER_LANDING)
  await page.goto('/ui/user_profile')
  await page.getByLabel('Current password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByText('Off.')).toBeVisible()
  await page.getByRole('button', { name: 'Set up' }).click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  const secret = (await page.getByTestId('mfa-secret').textContent()) ?? ''
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await typeCode(page, code(secret), 'Confirm')
  await expect(page.getByText('On: signing in asks for a code from your authenticator app.')).toBeVisible()

  // The next sign-in asks for a code. Shell §8: a wrong one shows the server's answer; once the
  // server ends the pending sign-in (403), the console returns to the login screen.
  await page.goto('/ui/logout')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await signInWithPassword(page)
  await expect(page).toHaveURL(/\/ui\/login\/otp-login$/)
  for (let i = 1; i < MAX_WRONG_CODES; i++) {
    await typeCode(page, '000000', 'Verify')
    await expect(page.getByRole('alert')).toHaveText('The one-time code is not valid')
    await expect(page).toHaveURL(/\/ui\/login\/otp-login$/)
  }
  await typeCode(page, '000000', 'Verify')
  await expect(page).toHaveURL(/\/ui\/login$/)
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
  expect((await (await page.request.get('/ui/api/v1/ui/auth/current')).json()).anonymous).toBe(true)

  // Starting again with the right code signs in.
  await signInWithPassword(page)
  await expect(page).toHaveURL(/\/ui\/login\/otp-login$/)
  await typeCode(page, code(secret, 1), 'Verify')
  await expect(page).toHaveURL(USER_LANDING)
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText(USER)
})

test('"Remember me" keeps the session for 14 days; without it the session ends with the browser', async ({ page, browser }) => {
  await signInWithPassword(page, 'admin', ADMIN_PASSWORD, true)
  await expect(page).toHaveURL(ADMIN_LANDING)
  const session = (await page.context().cookies()).find((c) => c.name === 'trove_session')
  const days = ((session?.expires ?? 0) * 1000 - Date.now()) / (24 * 3600 * 1000)
  expect(days).toBeGreaterThan(13.9)
  expect(days).toBeLessThanOrEqual(14)

  // The remembered session survives a browser restart, which drops cookies without an expiry.
  const state = await page.context().storageState()
  const again = await browser.newContext({
    storageState: { ...state, cookies: state.cookies.filter((c) => c.expires !== -1) },
  })
  const reopened = await again.newPage()
  await reopened.goto('/ui/overview')
  await expect(reopened.getByRole('button', { name: 'User menu' })).toContainText('admin')
  await again.close()
})

test('an admin requires MFA for one user on the user screen; that user enrols at the next sign-in', async ({
  page,
  browser,
  request,
}) => {
  expect(
    (await request.post('/ui/api/v1/ui/auth/login', { data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' } })).ok(),
  ).toBe(true)
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? ''
  expect(
    (
      await request.post('/ui/api/v1/ui/admin/users', {
        headers: { 'x-csrf-token': csrf },
        data: { name: 'e2e-noor', password: 'noor-password-1' },
      })
    ).status(),
  ).toBe(201)

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signInWithPassword(admin, 'admin', ADMIN_PASSWORD)
  await expect(admin).toHaveURL(ADMIN_LANDING)
  await admin.goto('/ui/admin/management/users/e2e-noor')
  await admin.getByRole('checkbox', { name: 'Require multi-factor authentication' }).check()
  await admin.getByRole('button', { name: 'Save' }).click()
  await expect(admin).toHaveURL(/\/ui\/admin\/management\/users$/)
  await adminContext.close()

  await signInWithPassword(page, 'e2e-noor', 'noor-password-1')
  await expect(page).toHaveURL(/\/ui\/login\/mfa-enroll$/)
  const secret = (await page.getByTestId('mfa-secret').textContent()) ?? ''
  await typeCode(page, code(secret), 'Confirm')
  await expect(page).toHaveURL(USER_LANDING)
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('e2e-noor')
  // Everyone else still signs in with a password alone.
  await page.goto('/ui/logout')
  // The sign-out is a call the route makes: going on before it lands on the login page would cancel it.
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await signInWithPassword(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(ADMIN_LANDING)
})

test('wrong passwords are held back, then lock the user name with a clear message, even against the right password; an admin unlocks it', async ({
  page,
  request,
  browser,
}) => {
  expect(
    (await request.post('/ui/api/v1/ui/auth/login', { data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' } })).ok(),
  ).toBe(true)
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? ''
  const made = await request.post('/ui/api/v1/ui/admin/users', {
    headers: { 'x-csrf-token': csrf },
    data: { name: 'e2e-lena', password: 'lena-password-1' },
  })
  expect(made.status()).toBe(201)

  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('e2e-lena')
  // The server's lock policy: the fifth failure within 15 minutes locks the name for 5 minutes.
  for (let i = 1; i <= 5; i++) {
    await page.getByRole('textbox', { name: 'Password' }).fill(`wrong-${i}`)
    const answer = page.waitForResponse((r) => r.url().includes('/ui/auth/login') && r.request().method() === 'POST')
    await page.getByRole('button', { name: 'Log In' }).click()
    expect((await answer).status()).toBe(401)
    await expect(page.getByRole('alert')).toHaveText('Incorrect user name or password')
  }
  await page.getByRole('textbox', { name: 'Password' }).fill('lena-password-1')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Too many failed sign-in attempts: try again in 5 minutes')
  await expect(page).toHaveURL(/\/ui\/login$/)

  // The administrator sees the lock on the user's screen and lifts it.
  const adminPage = await (await browser.newContext()).newPage()
  await signInWithPassword(adminPage, 'admin', ADMIN_PASSWORD)
  await expect(adminPage).toHaveURL(ADMIN_LANDING)
  await adminPage.goto('/ui/admin/management/users/e2e-lena')
  await expect(adminPage.getByRole('heading', { name: 'Sign-in locked' })).toBeVisible()
  await adminPage.getByRole('button', { name: 'Unlock' }).click()
  await expect(adminPage.getByRole('heading', { name: 'Sign-in locked' })).toHaveCount(0)
  await adminPage.context().close()
  await page.getByRole('textbox', { name: 'Password' }).fill('lena-password-1')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(USER_LANDING)
})
