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

/** Chooses a type in the top bar's search and runs a search for `text`, as a person would. */
export async function searchFor(page: Page, type: 'Packages' | 'Artifacts', text: string) {
  await page.getByRole('combobox', { name: 'Search type' }).click()
  await page.getByRole('option', { name: type }).click()
  const box = page.getByRole('combobox', { name: `Search ${type.toLowerCase()}` })
  await box.fill(text)
  await box.press('Enter')
}

/**
 * What goes wrong while the page is open: errors it logs or throws, and with `serverErrors` the
 * calls the server fails (5xx). A test expects the list to stay empty.
 */
export function collectProblems(page: Page, { serverErrors = false } = {}): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} (${page.url()})`)
  })
  page.on('pageerror', (e) => problems.push(`thrown: ${e.message} (${page.url()})`))
  if (serverErrors) {
    page.on('response', (r) => {
      if (r.status() >= 500) problems.push(`${r.status()} from ${r.request().method()} ${r.url()}`)
    })
  }
  return problems
}
