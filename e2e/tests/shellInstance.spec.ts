import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { ADMIN_PASSWORD, INSTANCE_URL } from '../playwright.config'
import { expectAccessible } from './axe'
import { ADMIN_LANDING, USER_LANDING } from './signIn'

// These journeys change the instance model (licence, read-only mode, quota, flags), so they run on
// their own server, one after another.
test.describe.configure({ mode: 'serial' })
test.use({ baseURL: INSTANCE_URL })

const NOT_AUTHORIZED = 'You are not authorized to view this page'

async function asAdmin(request: APIRequestContext) {
  expect(
    (await request.post('/ui/api/v1/ui/auth/login', { data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' } })).ok(),
  ).toBe(true)
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? ''
  return { 'x-csrf-token': csrf }
}

async function signIn(page: Page, user: string, password: string) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill(user)
  await page.getByRole('textbox', { name: 'Password' }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
}

test('a regular user lands on packages, sees no administration, and is refused admin pages', async ({ page, request }) => {
  const headers = await asAdmin(request)
  expect((await request.put('/ui/api/v1/ui/admin/security/registration', { headers, data: { enabled: true } })).ok()).toBe(true)
  const made = await page.request.post('/ui/api/v1/ui/auth/register', {
    data: { name: 'uma', email: 'uma@example.com', password: 'uma-password' },
  })
  expect(made.ok()).toBe(true)
  await page.context().clearCookies()
  await signIn(page, 'uma', 'uma-password')
  await expect(page).toHaveURL(USER_LANDING)
  await expect(page.getByRole('radio', { name: 'Administration' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Quick actions' }).click()
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Set Me Up'])
  await page.keyboard.press('Escape')

  await page.goto('/ui/admin/configuration/general')
  await expect(page).toHaveURL(USER_LANDING)
  await expect(page.getByText(NOT_AUTHORIZED)).toBeVisible()
  await expectAccessible(page)
})

test('no licence: an admin goes to the licences page, anyone else to login with logout', async ({ page, browser, request }) => {
  const headers = await asAdmin(request)
  expect((await request.delete('/ui/api/v1/ui/admin/license', { headers })).ok()).toBe(true)

  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(/\/ui\/admin\/license_management\/licenses$/)
  await expect(page.getByTestId('license-type')).toHaveText('N/A')
  await page.goto('/ui/packages')
  await expect(page).toHaveURL(/\/ui\/admin\/license_management\/licenses$/)

  const other = await browser.newPage({ baseURL: INSTANCE_URL })
  await signIn(other, 'uma', 'uma-password')
  await expect(other).toHaveURL(/\/ui\/login\?logout=true$/)
  await other.close()

  // The admin installs one from the screen; the console opens up again.
  await page.getByRole('textbox', { name: 'Licensed to' }).fill('Acme Corp')
  await page.getByRole('button', { name: 'Install' }).click()
  await expect(page.getByTestId('license-type')).toHaveText('ENTERPRISE_PLUS')
  await page.goto('/ui/')
  await expect(page).toHaveURL(ADMIN_LANDING)
  // The admin menu is back, with the licences entry among its links.
  await page.goto('/ui/admin/artifactory/list')
  await expect(page.getByRole('main').getByRole('link', { name: 'Licenses' })).toBeVisible()
})

test('general settings: the server name names every page; read-only mode refuses changes with its message', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/admin/configuration/general')
  const form = page.getByRole('form', { name: 'General settings' })
  await form.getByRole('textbox', { name: 'Server name' }).fill('Acme Artifacts')
  await form.getByRole('textbox', { name: 'Base URL' }).fill('not a url')
  await expect(form.getByText('Enter a valid URL')).toBeVisible()
  await form.getByRole('textbox', { name: 'Base URL' }).fill('')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveTitle('General Settings - Acme Artifacts')
  await expect(page.getByRole('banner')).toContainText('Acme Artifacts')

  await form.getByRole('switch', { name: 'Read-only mode' }).check()
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('Read-only mode is on')).toBeVisible()
  await page.goto('/ui/admin/configuration/security/general')
  await page.getByRole('switch', { name: 'Block the console to anonymous users' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'You cannot use this option in read-only mode' }).first()).toBeVisible()
  await expect(page.getByText(NOT_AUTHORIZED)).toHaveCount(0)
  await expect(page.getByRole('switch', { name: 'Block the console to anonymous users' })).not.toBeChecked()

  await page.goto('/ui/admin/configuration/general')
  await form.getByRole('switch', { name: 'Read-only mode' }).uncheck()
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByText('Read-only mode is on')).toHaveCount(0)
})

test('a logo uploaded in general settings shows in the top bar', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/admin/configuration/general')
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#1f7a3a"/></svg>'
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Upload logo' }).click()
  await (await chooser).setFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) })
  await expect(page.getByRole('img', { name: 'Current logo' })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('banner').locator('img')).toBeVisible()
  await page.getByRole('button', { name: 'Remove logo' }).click()
  await expect(page.getByRole('img', { name: 'Current logo' })).toHaveCount(0)
})

test('the data-transfer quota banner, from the subscription call', async ({ page, request }) => {
  const headers = await asAdmin(request)
  expect(
    (await request.put('/ui/api/v1/ui/admin/subscription/blockedUsages', { headers, data: { dataTransfer: true } })).ok(),
  ).toBe(true)
  await signIn(page, 'admin', ADMIN_PASSWORD)
  const banner = page.getByRole('status', { name: 'Data transfer quota' })
  await expect(banner).toContainText(
    'You have reached your monthly quota for Data Transfer. To continue and start enjoying unlimited transfer,',
  )
  await expect(banner.getByRole('link', { name: 'UPGRADE' })).toHaveAttribute('href', /pricing/)
  await expectAccessible(page)
  await request.put('/ui/api/v1/ui/admin/subscription/blockedUsages', { headers, data: { dataTransfer: false } })
})

test('feature flags: the tested feature opens /template; help links off hide documentation', async ({ page, request }) => {
  const headers = await asAdmin(request)
  const flags = await request.put('/ui/api/v1/ui/admin/instance', {
    headers,
    data: { features: { tested: true, helpLinks: false } },
  })
  expect(flags.ok()).toBe(true)
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/template')
  await expect(page).toHaveURL(/\/ui\/template$/)
  await expect(page.getByRole('heading', { name: 'Template', level: 1 })).toBeVisible()
  // The demo area mounts ES-module micro-frontends served under /ui/.
  await page.goto('/ui/demo')
  await page.getByRole('link', { name: 'TypeScript greeting' }).click()
  await expect(page.getByRole('region', { name: 'Greeting' })).toContainText('Hello, Trove!')
  await page.goto('/ui/demo/multi-microfrontend')
  await expect(page.getByRole('region', { name: 'Greeting' })).toContainText('Hello, first mount!')
  await expect(page.getByRole('region', { name: 'Counter' }).getByRole('status')).toHaveText('250')
  await expect(page.getByRole('region', { name: 'Missing' }).getByRole('alert')).toHaveText(
    'Error: failed resolving microfrontend demo/missing.js',
  )
  await page.goto('/ui/demo/admin/projects/list')
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Help menu' }).click()
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Navigation Tour', 'Keyboard Shortcuts'])
  await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { features: { tested: false, helpLinks: true } } })
})

test('a lightweight instance lands everyone on the repository tree', async ({ page, request }) => {
  const headers = await asAdmin(request)
  expect((await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { deployment: 'lightweight' } })).ok()).toBe(true)
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(/\/ui\/artifacts\/browse\/tree\/General$/)
  await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { deployment: 'onprem' } })
})

test('a cloud trial admin lands on getting started; in the tour a user lands on the tour and sees admin pages as teasers', async ({
  page,
  browser,
  request,
}) => {
  const headers = await asAdmin(request)
  const license = { type: 'TRIAL', licensedTo: 'Trial Corp', validThrough: null }
  expect((await request.put('/ui/api/v1/ui/admin/license', { headers, data: license })).ok()).toBe(true)
  expect((await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { deployment: 'cloud' } })).ok()).toBe(true)
  try {
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await expect(page).toHaveURL(/\/ui\/get_started$/)
    await expect(page).toHaveTitle(/^Getting started - /)

    expect((await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { flavour: 'tour' } })).ok()).toBe(true)
    const tour = await browser.newPage({ baseURL: INSTANCE_URL })
    await signIn(tour, 'uma', 'uma-password')
    await expect(tour).toHaveURL(/\/ui\/tour_get_started$/)
    // §4.2: in the tour a non-admin sees an admin page as its demo teaser.
    await tour.goto('/ui/admin/management/users')
    await expect(tour).toHaveURL(/\/ui\/demo\/admin\/management\/users$/)
    await expect(tour.getByRole('heading', { name: 'Users Management' })).toBeVisible()
    // The tour is a trial of the product: its teasers keep the invitation.
    await expect(tour.getByRole('link', { name: 'Start a free trial' })).toBeVisible()
    await tour.close()
  } finally {
    await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { flavour: 'platform', deployment: 'onprem' } })
    await request.put('/ui/api/v1/ui/admin/license', {
      headers,
      data: { type: 'ENTERPRISE_PLUS', licensedTo: 'Acme Corp', validThrough: null },
    })
  }
})

test('a cloud trial admin sends the contact-us form from the help menu; the request is listed for admins', async ({
  page,
  request,
}) => {
  const headers = await asAdmin(request)
  const license = { type: 'TRIAL', licensedTo: 'Trial Corp', validThrough: null }
  expect((await request.put('/ui/api/v1/ui/admin/license', { headers, data: license })).ok()).toBe(true)
  expect((await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { deployment: 'cloud' } })).ok()).toBe(true)
  try {
    await signIn(page, 'admin', ADMIN_PASSWORD)
    await expect(page).toHaveURL(/\/ui\/get_started$/)
    await page.getByRole('button', { name: 'Help menu' }).click()
    await page.getByRole('menuitem', { name: 'Contact Us' }).click()
    await expect(page).toHaveURL(/contactUsContext=contact(\+|%20)us/)
    const dialog = page.getByRole('dialog', { name: 'Contact Us' })
    await expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled()
    await dialog.getByRole('textbox', { name: /First name/ }).fill('Ada')
    await dialog.getByRole('textbox', { name: /Last name/ }).fill('Lovelace')
    await dialog.getByRole('textbox', { name: /Country/ }).fill('United Kingdom')
    await dialog.getByRole('textbox', { name: /E-mail/ }).fill('ada@example')
    await dialog.getByRole('textbox', { name: /E-mail/ }).press('Tab')
    await expect(dialog.getByText('Enter a valid e-mail address')).toBeVisible()
    await dialog.getByRole('radio', { name: 'Contact sales' }).check()
    await expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled()
    await dialog.getByRole('textbox', { name: /E-mail/ }).fill('ada@example.com')
    await dialog.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByText('Thank you for your request')).toBeVisible()
    await expect(page.getByText('We will be in touch via email soon')).toBeVisible()
    await expect(dialog).toHaveCount(0)
    await expect(page).toHaveURL(/\/ui\/get_started$/)

    // No mail server on this instance: the request is kept, and the admin sees why it was not mailed.
    await page.goto('/ui/admin/configuration/contact_requests')
    const newest = page.getByRole('table', { name: 'Contact requests' }).getByRole('row').nth(1)
    await expect(newest).toContainText('Ada Lovelace, United Kingdom')
    await expect(newest).toContainText('Contact sales')
    await expect(newest).toContainText('Not sent')
    await expectAccessible(page)
  } finally {
    await request.put('/ui/api/v1/ui/admin/instance', { headers, data: { deployment: 'onprem' } })
    await request.put('/ui/api/v1/ui/admin/license', {
      headers,
      data: { type: 'ENTERPRISE_PLUS', licensedTo: 'Acme Corp', validThrough: null },
    })
  }
})

test('the account portal an admin sets on General Settings is where my-account leads; without one the page says so', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD)
  await expect(page).toHaveURL(ADMIN_LANDING)
  await page.goto('/ui/user/my-jfrog-redirect')
  await expect(page.getByText(ScreenMessages.accountPortalNotSet)).toBeVisible()

  // The portal is any absolute http(s) URL: here a page of this same server, so the journey can follow it.
  const portal = `${INSTANCE_URL}/ui/overview`
  await page.goto('/ui/admin/configuration/general')
  const card = page.getByRole('form', { name: 'Account portal' })
  await card.getByRole('textbox', { name: 'Account portal URL' }).fill('not a url')
  await expect(card.getByText(Messages.invalidUrl)).toBeVisible()
  await card.getByRole('textbox', { name: 'Account portal URL' }).fill(portal)
  await card.getByRole('button', { name: 'Save account portal' }).click()
  await expect(page.getByText('Account portal saved')).toBeVisible()

  await page.goto('/ui/user/my-jfrog-redirect')
  await expect(page).toHaveURL(portal)

  // Cleared again, for the journeys after this one.
  await page.goto('/ui/admin/configuration/general')
  await card.getByRole('textbox', { name: 'Account portal URL' }).fill('')
  await card.getByRole('button', { name: 'Save account portal' }).click()
  await expect(page.getByText('Account portal saved')).toBeVisible()
  await page.goto('/ui/user/my-jfrog-redirect')
  await expect(page.getByText(ScreenMessages.accountPortalNotSet)).toBeVisible()
})
