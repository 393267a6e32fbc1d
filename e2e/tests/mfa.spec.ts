import { expect, type Page, test } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { ADMIN_PASSWORD, SECURITY_URL } from '../playwright.config'
import { ADMIN_LANDING } from './signIn'

// This journey turns MFA on for everyone, so it runs on its own server, one step after another.
test.describe.configure({ mode: 'serial' })
test.use({ baseURL: SECURITY_URL })

const code = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  })

async function signInWithPassword(page: Page) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
}

async function typeCode(page: Page, value: string, submit: string) {
  await page.getByRole('textbox').first().click()
  await page.keyboard.type(value)
  await page.getByRole('button', { name: submit }).click()
}

let secret = ''

test('an admin requires MFA for everyone; signing in then enrols with a QR code', async ({ page }) => {
  // The admin turns it on on the Security Configuration screen.
  await signInWithPassword(page)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/admin/configuration/security/general')
  const required = page.getByRole('switch', { name: 'Require MFA for everyone' })
  await expect(required).not.toBeChecked()
  await required.click({ force: true })
  await expect(required).toBeChecked()
  await page.reload()
  await expect(page.getByRole('switch', { name: 'Require MFA for everyone' })).toBeChecked()
  await page.goto('/ui/logout')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)

  await signInWithPassword(page)
  await expect(page).toHaveURL(/\/ui\/login\/mfa-enroll$/)
  await expect(page).toHaveTitle('Multi-factor authentication - Trove')
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  secret = (await page.getByTestId('mfa-secret').textContent()) ?? ''
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)

  await typeCode(page, '000000', 'Confirm')
  await expect(page.getByRole('alert')).toHaveText('The one-time code is not valid')
  await page.getByRole('textbox').first().fill('')
  for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace')
  await typeCode(page, code(secret), 'Confirm')
  await expect(page).toHaveURL(ADMIN_LANDING)
  await expect(page.getByRole('heading', { name: 'Topology', level: 1 })).toBeVisible()
})

test('the next sign-in asks for a one-time code', async ({ page }) => {
  await signInWithPassword(page)
  await expect(page).toHaveURL(/\/ui\/login\/otp-login$/)
  // Until the code is given, the console treats the user as signed out.
  await page.goto('/ui/overview')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)

  await signInWithPassword(page)
  await expect(page).toHaveURL(/\/ui\/login\/otp-login$/)
  await typeCode(page, code(secret, 1), 'Verify')
  // The page asked for before sign-in opens after it.
  await expect(page).toHaveURL(/\/ui\/overview$/)
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('admin')
})
