import { expect, type Page } from '@playwright/test'
import { ADMIN_PASSWORD } from '../playwright.config'

export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/overview$/)
}
