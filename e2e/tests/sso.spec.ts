import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { startIdentityProvider, type TestIdentityProvider } from '../../apps/server/test/oidcProvider'
import { makeKeyPair, startSamlIdp } from '../../apps/server/test/samlIdp'
import { format, SsoMessages } from '../../packages/contracts/src/messages'
import { ScreenMessages } from '../../packages/contracts/src/screenMessages'
import { ADMIN_PASSWORD, SSO_URL } from '../playwright.config'
import { ADMIN_LANDING, USER_LANDING } from './signIn'

// Single sign-on against a real OpenID Connect provider started here. The journeys change what
// the login screen offers (and turn auto-redirect on), so they run on their own server, in order.
test.describe.configure({ mode: 'serial' })
test.use({ baseURL: SSO_URL })

const CALLBACK = `${SSO_URL}/ui/api/v1/ui/auth/oauth/callback`
let idp: TestIdentityProvider

test.beforeAll(async () => {
  idp = await startIdentityProvider(CALLBACK)
})
test.afterAll(async () => idp?.close())

async function signInAsAdmin(page: Page) {
  await page.goto('/ui/login')
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(ADMIN_LANDING)
}

/** oidc-provider's own sign-in form (any user name and password are accepted). */
async function signInAtProvider(page: Page, user: string) {
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`))
  await page.getByPlaceholder('Enter any login').fill(user)
  await page.getByPlaceholder('and password').fill('any-password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
}

/** An API session as the admin: the headers its changes need. */
async function adminApi(request: APIRequestContext) {
  const login = await request.post('/ui/api/v1/ui/auth/login', {
    data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' },
  })
  expect(login.ok()).toBe(true)
  return { 'x-csrf-token': (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? '' }
}

test('an admin adds an OpenID Connect provider on the OAuth SSO screen', async ({ page, request }) => {
  // The group the provider's new users are to join.
  const group = await request.post('/ui/api/v1/ui/admin/groups', {
    headers: await adminApi(request),
    data: { name: 'sso-readers' },
  })
  expect(group.status()).toBe(201)
  await signInAsAdmin(page)
  await page.goto('/ui/admin/configuration/security/oauth')
  await expect(page.getByRole('heading', { name: 'OAuth SSO', level: 1 })).toBeVisible()
  await expect(page.getByText(CALLBACK)).toBeVisible()
  await page.getByRole('button', { name: 'Add provider' }).click()
  const form = page.getByRole('form', { name: 'New OAuth provider' })
  await form.getByRole('textbox', { name: 'Name' }).fill('corp')
  await form.getByRole('textbox', { name: 'Issuer URL' }).fill(idp.issuer)
  await form.getByRole('textbox', { name: 'Client ID' }).fill(idp.clientId)
  await form.getByLabel('Client secret').fill(idp.clientSecret)
  await form.getByLabel('Default groups').fill('sso-readers')
  await form.getByLabel('Default groups').press('Enter')
  await form.getByRole('switch', { name: 'Create users on first sign-in' }).check({ force: true })
  await form.getByRole('button', { name: 'Save' }).click()
  const table = page.getByRole('table', { name: 'OAuth providers' })
  await expect(table.getByRole('row', { name: /corp/ })).toContainText('created on first sign-in')
  await expect(table.getByRole('row', { name: /corp/ })).toContainText('groups: sso-readers')
  await expect(page).toHaveTitle('OAuth SSO - Trove')

  // A second provider that does not create accounts.
  await page.getByRole('button', { name: 'Add provider' }).click()
  const second = page.getByRole('form', { name: 'New OAuth provider' })
  await second.getByRole('textbox', { name: 'Name' }).fill('strict')
  await second.getByRole('textbox', { name: 'Issuer URL' }).fill(idp.issuer)
  await second.getByRole('textbox', { name: 'Client ID' }).fill(idp.clientId)
  await second.getByLabel('Client secret').fill(idp.clientSecret)
  await second.getByRole('button', { name: 'Save' }).click()
  await expect(table.getByRole('row', { name: /strict/ })).toContainText('existing only')
})

test('a user clicks the provider on the login screen, signs in there and lands signed in', async ({ page, request }) => {
  await page.goto('/ui/login')
  await page.getByRole('link', { name: 'Sign in with corp' }).click()
  await signInAtProvider(page, 'olivia')
  await expect(page).toHaveURL(USER_LANDING)
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('olivia')
  // A real server session: reloading keeps it; the profile knows the realm.
  await page.reload()
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('olivia')
  const me = await page.request.get('/ui/api/v1/ui/auth/current')
  expect(await me.json()).toMatchObject({ name: 'olivia', realm: 'oauth', anonymous: false })
  // No Trove password to enter again: the fresh sign-in at the provider opens the profile.
  await page.goto('/ui/user_profile')
  await page.getByRole('button', { name: 'Open profile' }).click()
  await expect(page.getByRole('heading', { name: 'olivia', level: 2 })).toBeVisible()
  await expect(page.getByText('oauth', { exact: true })).toBeVisible()
  // The account made at this first sign-in is in the provider's default group.
  const readers = await request.get('/ui/api/v1/ui/admin/groups/sso-readers', { headers: await adminApi(request) })
  expect((await readers.json()).members).toEqual(['olivia'])
})

test('a provider that does not create accounts sends an unknown user back with the reason', async ({ page }) => {
  await page.goto('/ui/login')
  await page.getByRole('link', { name: 'Sign in with strict' }).click()
  await signInAtProvider(page, 'peter')
  await expect(page).toHaveURL(/\/ui\/login\?/)
  await expect(page.getByRole('alert')).toContainText(SsoMessages.notAutoCreated.replace('{user}', 'peter'))
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
})

test('a link to a provider type hands off to it: a choice among several, one by name, a plain page for none', async ({
  page,
}) => {
  // Both providers are of the generic kind: the page offers them.
  await page.goto('/ui/auth-provider/oauth')
  await expect(page.getByText(ScreenMessages.authProviderChoose)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign in with strict' })).toBeVisible()
  // One picked by name: straight to it, and back signed in.
  await page.goto('/ui/auth-provider/oauth?name=corp')
  await signInAtProvider(page, 'olivia')
  await expect(page).toHaveURL(USER_LANDING)
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('olivia')
  // No provider of a kind: said plainly, with the way back.
  await page.goto('/ui/logout')
  await expect(page).toHaveURL(/\/ui\/login/)
  await page.goto('/ui/login/sso/gitlab')
  await expect(page.getByText(format(ScreenMessages.authProviderNotConfigured, { type: 'gitlab' }))).toBeVisible()
  await page.getByRole('link', { name: 'Back to sign in' }).click()
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
})

test('a login redirectTo is resolved by the server: a page here opens after sign-in, another site does not', async ({ page }) => {
  await page.goto(`/ui/login?redirectTo=${encodeURIComponent('/ui/user_profile')}`)
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(/\/ui\/user_profile$/)

  await page.goto('/ui/logout')
  await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)
  await page.goto(`/ui/login?redirectTo=${encodeURIComponent('https://evil.example.com/ui/')}`)
  await page.getByRole('textbox', { name: 'Username' }).fill('admin')
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD)
  await page.getByRole('button', { name: 'Log In' }).click()
  await expect(page).toHaveURL(ADMIN_LANDING)
})

test('with auto-redirect on, the login route goes straight to the provider', async ({ page, request }) => {
  expect(
    (await request.post('/ui/api/v1/ui/auth/login', { data: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' } })).ok(),
  ).toBe(true)
  const csrf = (await request.storageState()).cookies.find((c) => c.name === 'trove_csrf')?.value ?? ''
  const set = await request.put('/ui/api/v1/ui/admin/security/loginScreen', {
    headers: { 'x-csrf-token': csrf },
    data: { autoRedirect: true },
  })
  expect(set.ok()).toBe(true)

  await page.goto('/ui/overview')
  await signInAtProvider(page, 'quinn')
  await expect(page).toHaveURL(/\/ui\/overview$/)
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('quinn')

  // The way in for a local account while auto-redirect is on.
  await page.context().clearCookies()
  await page.goto('/ui/login?noAutoRedirect=true')
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible()
  // Off again for the journeys after this one.
  const off = await request.put('/ui/api/v1/ui/admin/security/loginScreen', {
    headers: { 'x-csrf-token': csrf },
    data: { autoRedirect: false },
  })
  expect(off.ok()).toBe(true)
})

test('SAML: an admin sets up the identity provider; a user signs in with a signed assertion and logs out there', async ({
  page,
}) => {
  const keys = await makeKeyPair()
  const samlIdp = await startSamlIdp({
    acs: `${SSO_URL}/ui/api/v1/ui/auth/saml/acs`,
    audience: `${SSO_URL}/ui/api/v1/ui/auth/saml/metadata`,
    keys,
  })
  try {
    await signInAsAdmin(page)
    await page.goto('/ui/admin/configuration/security/saml_integration')
    const form = page.getByRole('form', { name: 'SAML settings' })
    await expect(form.getByRole('textbox', { name: 'Provider name' })).toHaveValue('SAML SSO')
    await form.getByRole('textbox', { name: 'SAML login URL' }).fill(`${samlIdp.url}/sso?user=rachel`)
    await form.getByRole('textbox', { name: 'SAML logout URL' }).fill(`${samlIdp.url}/logged-out`)
    await form.getByRole('textbox', { name: 'Identity provider certificate' }).fill(keys.cert)
    await form.getByRole('switch', { name: 'Create users on first sign-in' }).check({ force: true })
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(form.getByRole('status')).toHaveText('Saved')
    await page.goto('/ui/logout')
    await expect(page).toHaveURL(/\/ui\/login\?logout=true$/)

    await page.goto('/ui/login')
    await page.getByRole('link', { name: 'Sign in with SAML SSO' }).click()
    await expect(page).toHaveURL(new RegExp(`^${samlIdp.url}/sso\\?user=rachel&SAMLRequest=`))
    await page.getByRole('button', { name: 'Continue to Trove' }).click()
    await expect(page).toHaveURL(USER_LANDING)
    await expect(page.getByRole('button', { name: 'User menu' })).toContainText('rachel')

    // Logging out of Trove sends a SAML user on to the identity provider's logout URL.
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await expect(page).toHaveURL(`${samlIdp.url}/logged-out`)
    const me = await page.request.get(`${SSO_URL}/ui/api/v1/ui/auth/current`)
    expect((await me.json()).anonymous).toBe(true)
  } finally {
    await samlIdp.close()
  }
})

test('the login screen as the admin sets it: single sign-on first, and a notice closed once unless permanent', async ({
  page,
  browser,
}) => {
  await signInAsAdmin(page)
  await page.goto('/ui/admin/configuration/security/oauth')
  const form = page.getByRole('region', { name: 'Login screen' })
  await form.getByRole('switch', { name: 'Single sign-on first' }).check({ force: true })
  await form.getByRole('switch', { name: 'Show a notice on the login screen' }).check({ force: true })
  await form.getByRole('textbox', { name: 'Notice title' }).fill('E2E maintenance')
  await form.getByRole('textbox', { name: 'Notice text' }).fill('Down on Sunday')
  await form.getByRole('button', { name: 'Save login screen' }).click()
  await expect(form.getByRole('status')).toHaveText('Saved')

  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  try {
    await visitor.goto('/ui/login')
    // Shell §4.4: the notice is shown; once closed, this browser does not see it again.
    const notice = visitor.getByRole('dialog', { name: 'E2E maintenance' })
    await expect(notice).toContainText('Down on Sunday')
    await visitor.keyboard.press('Escape')
    await expect(notice).toHaveCount(0)
    // The external view mode: providers first, the password form on demand.
    await expect(visitor.getByRole('link', { name: 'Sign in with corp' })).toBeVisible()
    await expect(visitor.getByRole('button', { name: 'Log In' })).toHaveCount(0)
    await visitor.reload()
    await expect(visitor.getByRole('link', { name: 'Sign in with corp' })).toBeVisible()
    await expect(visitor.getByRole('dialog')).toHaveCount(0)
    await visitor.getByRole('button', { name: 'Sign in with a Trove account' }).click()
    await expect(visitor.getByRole('button', { name: 'Log In' })).toBeVisible()

    // A permanent notice is shown at every visit, even where it was closed before.
    await form.getByRole('switch', { name: 'Permanent (shown at every visit, even after it was closed)' }).check({ force: true })
    await form.getByRole('button', { name: 'Save login screen' }).click()
    await expect(form.getByRole('status')).toHaveText('Saved')
    await visitor.reload()
    await expect(notice).toContainText('Down on Sunday')
  } finally {
    await visitorContext.close()
    // Back to the password form first, without a notice.
    await form.getByRole('switch', { name: 'Single sign-on first' }).uncheck({ force: true })
    await form.getByRole('switch', { name: 'Show a notice on the login screen' }).uncheck({ force: true })
    await form.getByRole('button', { name: 'Save login screen' }).click()
    await expect(form.getByRole('status')).toHaveText('Saved')
  }
})
