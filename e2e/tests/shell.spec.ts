import { expect, test } from '@playwright/test'
import { ADMIN_PASSWORD } from '../playwright.config'
import { ADMIN_LANDING, signInAsAdmin } from './signIn'

test('sign in, land on topology, hit a 404, sign out', async ({ page, context }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/ui\/login$/)
  await expect(page).toHaveTitle('Login - Trove')

  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password')
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page.getByRole('alert')).toHaveText('Incorrect user name or password')

  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(ADMIN_LANDING)
  await expect(page.getByRole('heading', { name: 'Topology', level: 1 })).toBeVisible()
  await expect(page).toHaveTitle('Topology - Trove')
  const session = (await context.cookies()).find((c) => c.name === 'trove_session')
  expect(session?.httpOnly).toBe(true)
  expect(session?.sameSite).toBe('Lax')
  expect(session?.expires).toBe(-1) // no remember-me: ends with the browser

  await page.goto('/ui/no/such/screen')
  await expect(page).toHaveURL(/\/ui\/404$/)
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
  await expect(page).toHaveTitle('Page not found - Trove')

  await page.goto('/ui/overview')
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  expect((await context.cookies()).find((c) => c.name === 'trove_session')).toBeUndefined()

  await page.goto('/ui/overview')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await expect(page.getByText('You are not authorized to view this page')).toBeVisible()
})

test('a signed-in user who opens the login page is sent on', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/login')
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/auth')
  await expect(page).toHaveURL(ADMIN_LANDING)
})

test('the 406 page shows the request id', async ({ page }) => {
  await page.goto('/ui/406/req-7f3a')
  await expect(page.getByTestId('request-id')).toHaveText('req-7f3a')
  await expect(page).toHaveTitle('Not acceptable - Trove')
})

test('the 500 page opened directly redirects to /', async ({ page }) => {
  await page.goto('/ui/500')
  await expect(page).toHaveURL(/\/ui\/login$/)
})

test('a screen whose chunk is missing shows the error screen with the chunk error', async ({ page }) => {
  await signInAsAdmin(page)
  await page.goto('/ui/404')
  await page.route(/\/ui\/assets\/OverviewPage-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: '' }))
  await page.evaluate(() => {
    window.history.pushState({}, '', '/ui/overview')
    window.dispatchEvent(new PopStateEvent('popstate'))
  })
  await expect(page.getByRole('heading', { name: 'Oops!' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
  await page.getByRole('button', { name: 'See more details' }).click()
  await expect(page.getByText('Loading chunk overview failed (missing)')).toBeVisible()
})

test('the API reference is served', async ({ page }) => {
  await page.goto('/api/docs')
  // Swagger UI reads the whole document (about 200 KB, 150 operations) before it draws the title:
  // 2.2–2.5 s on an idle 2-core machine, twice that beside the other journeys.
  await expect(page.getByRole('heading', { name: /Trove API/, level: 1 })).toBeVisible({ timeout: 15_000 })
  await expect(page.getByRole('heading', { name: /artifacts/, level: 3 })).toBeVisible()
})

test('a page asked for before sign-in opens after it', async ({ page }) => {
  // Sent to sign in, a visitor without a session has nothing to log out: no call, no error in the console.
  const logouts: string[] = []
  const errors: string[] = []
  page.on('request', (r) => r.url().includes('/auth/logout') && logouts.push(r.url()))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  await page.goto('/ui/integrations')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
  expect(logouts).toEqual([])
  expect(errors).toEqual([])
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/integrations$/)
  await expect(page).toHaveTitle('Integrations - Trove')
})

test('back from 60 s of idleness, an ended session sends the user to sign in', async ({ page, context }) => {
  await page.clock.install()
  await signInAsAdmin(page)
  // The landing's own start-up calls are done first: one of them answered 401 would send the user
  // to sign in at once, which is not what this journey is about.
  await expect(page.getByRole('heading', { name: 'Topology', level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
  // The session ends elsewhere (signed out in another tab, expired, revoked).
  const csrf = (await context.cookies()).find((c) => c.name === 'trove_csrf')?.value ?? ''
  expect((await page.request.post('/ui/api/v1/ui/auth/logout', { headers: { 'x-csrf-token': csrf } })).status()).toBe(204)
  await page.mouse.move(10, 10)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.clock.fastForward(61_000)
  await page.mouse.move(200, 200)
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
})

test('shell §8: a call the console makes after the session ended elsewhere sends the user to sign in', async ({
  page,
  context,
}) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/management/users')
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible()
  const csrf = (await context.cookies()).find((c) => c.name === 'trove_csrf')?.value ?? ''
  expect((await page.request.post('/ui/api/v1/ui/auth/logout', { headers: { 'x-csrf-token': csrf } })).status()).toBe(204)
  // The next call answers 401: the console drops what it held and opens the login screen.
  await page.getByRole('textbox', { name: 'Search users' }).fill('nobody-by-this-name')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
})
