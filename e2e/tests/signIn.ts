import { expect, type Page } from '@playwright/test'
import { ADMIN_PASSWORD } from '../playwright.config'

/** Shell §4.1: an admin lands on topology, a user on packages. */
export const ADMIN_LANDING = /\/ui\/admin\/mission_control\/topology$/
export const USER_LANDING = /\/ui\/packages$/

export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(ADMIN_LANDING)
}

/** The session's CSRF token, for calls a test makes with the page's cookies. */
export const csrfOf = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'trove_csrf')?.value ?? ''
