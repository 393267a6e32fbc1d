import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { SsoMessages } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInAtProvider, TestBrowser } from '../../../test/browser.js'
import { startIdentityProvider, type TestIdentityProvider } from '../../../test/oidcProvider.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { reserveAttempt, ThrottlePolicy } from '../auth/throttle.js'

const ADMIN_API = '/ui/api/v1/ui/admin/security/oauth'
const AUTH = '/ui/api/v1/ui/auth'

describe('OpenID Connect sign-in against a real provider', () => {
  let t: TestApp
  let idp: TestIdentityProvider
  let base: string
  let admin: Session

  const addProvider = (body: Record<string, unknown>) =>
    t.fastify.inject({ method: 'POST', url: ADMIN_API, headers: sessionHeaders(admin), payload: body })

  beforeAll(async () => {
    t = await createTestApp()
    await t.fastify.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.fastify.server.address() as AddressInfo).port}`
    idp = await startIdentityProvider(`${base}${AUTH}/oauth/callback`)
    admin = await signIn(t.fastify)
    // Access-control groups a new single-sign-on account should join: the provider's default
    // group (with a permission on 'docs'), and a group every new user joins; 'others' is neither.
    for (const group of [{ name: 'readers' }, { name: 'everyone', autoJoin: true }, { name: 'others' }]) {
      const made = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/admin/groups',
        headers: sessionHeaders(admin),
        payload: group,
      })
      expect(made.statusCode).toBe(201)
    }
    const permission = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/permissions',
      headers: sessionHeaders(admin),
      payload: {
        name: 'sso-readers',
        repositories: { resources: { names: ['docs'] }, grants: [{ kind: 'group', name: 'readers', actions: ['read'] }] },
      },
    })
    expect(permission.statusCode).toBe(201)
    const created = await addProvider({
      name: 'corp',
      type: 'oauth',
      issuerUrl: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      autoCreateUsers: true,
      defaultGroups: ['readers', 'no-such-group'],
    })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({
      name: 'corp',
      hasClientSecret: true,
      redirectUri: `http://localhost:80${AUTH}/oauth/callback`,
    })
    expect(created.body).not.toContain(idp.clientSecret)
    const strict = await addProvider({
      name: 'strict',
      issuerUrl: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      autoCreateUsers: false,
    })
    expect(strict.statusCode).toBe(201)
  })
  afterAll(async () => {
    await idp?.close()
    await t?.close()
  })

  /** Clicks the provider on the login screen and signs in at the provider as `user`. */
  async function signInWith(provider: string, user: string, browser = new TestBrowser()) {
    const end = await browser.follow(
      `${base}${AUTH}/oauth/${provider}/authorize`,
      (url) => url.pathname === `${AUTH}/oauth/callback`,
      signInAtProvider(user),
    )
    return { browser, end, location: end.response.headers.get('location') ?? '' }
  }

  it('lists enabled providers on the login screen with sanitized links', async () => {
    const res = await t.fastify.inject({ url: `${AUTH}/screen/loginRelatedData` })
    expect(res.statusCode).toBe(200)
    expect(res.json().oauthProviders).toEqual([
      { name: 'corp', type: 'oauth', url: `${AUTH}/oauth/corp/authorize`, icon: null },
      { name: 'strict', type: 'oauth', url: `${AUTH}/oauth/strict/authorize`, icon: null },
    ])
    const providers = await t.fastify.inject({ url: `${AUTH}/oauth/providers` })
    expect(providers.json().providers.map((p: { name: string }) => p.name)).toEqual(['corp', 'strict'])
  })

  it('sends the browser to the provider with PKCE (S256), a state and a nonce', async () => {
    const res = await new TestBrowser().request(`${base}${AUTH}/oauth/corp/authorize`)
    expect(res.status).toBe(302)
    const url = new URL(res.headers.get('location') ?? '')
    expect(url.origin).toBe(idp.issuer)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/)
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/)
    expect(url.searchParams.get('redirect_uri')).toBe(`${base}${AUTH}/oauth/callback`)
  })

  it('signs a new user in with a server session, creating the account in the oauth realm', async () => {
    const { browser, end, location } = await signInWith('corp', 'alice')
    expect(end.response.status).toBe(302)
    expect(location).toBe('/ui/')
    const cookies = browser.cookies(base)
    expect(cookies.get('trove_session')).toBeTruthy()
    expect(cookies.get('trove_csrf')).toBeTruthy()
    const me = await browser.request(`${base}${AUTH}/current`)
    expect(await me.json()).toEqual({ name: 'alice', realm: 'oauth', admin: false, anonymous: false, mfaStatus: 'none' })
    const row = await t.app.db.kysely.selectFrom('users').selectAll().where('name', '=', 'alice').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ realm: 'oauth', email: 'alice@example.test', password_hash: null })

    // The new account is in the provider's default group and the auto-join group (a default group
    // that does not exist is skipped), and the group's permission counts at once.
    const groupsOf = async (name: string) =>
      (await t.fastify.inject({ url: `/ui/api/v1/ui/admin/groups/${name}`, headers: sessionHeaders(admin) })).json().members
    expect(await groupsOf('readers')).toEqual(['alice'])
    expect(await groupsOf('everyone')).toEqual(['alice'])
    expect(await groupsOf('others')).toEqual([])
    const actions = await browser.request(`${base}/ui/api/v1/ui/access/repositories/docs/actions`)
    expect(await actions.json()).toEqual({ repoKey: 'docs', actions: ['read'] })
    const elsewhere = await browser.request(`${base}/ui/api/v1/ui/access/repositories/other/actions`)
    expect(((await elsewhere.json()) as { actions: string[] }).actions).toEqual([])
    // The audit log tells who made the account.
    const audit = await t.fastify.inject({ url: '/ui/api/v1/ui/admin/audit?targetType=user', headers: sessionHeaders(admin) })
    expect(audit.json().items).toContainEqual(
      expect.objectContaining({
        actor: 'oauth:corp',
        action: 'user.create',
        targetName: 'alice',
        details: { realm: 'oauth', groups: ['everyone', 'readers'] },
      }),
    )

    // The session is a real one: a mutating call with its CSRF token works, logout ends it.
    const out = await fetch(`${base}${AUTH}/logout`, {
      method: 'POST',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': cookies.get('trove_csrf') ?? '',
      },
    })
    expect(out.status).toBe(204)
    const after = await fetch(`${base}${AUTH}/current`, { headers: { cookie: `trove_session=${cookies.get('trove_session')}` } })
    expect(((await after.json()) as { anonymous: boolean }).anonymous).toBe(true)
  })

  it('signs the same user in again without making a second account, rotating the session cookie', async () => {
    const { browser, location } = await signInWith('corp', 'alice')
    expect(location).toBe('/ui/')
    const before = browser.cookies(base).get('trove_session')
    const again = await signInWith('corp', 'alice', browser)
    expect(again.location).toBe('/ui/')
    const after = browser.cookies(base).get('trove_session')
    expect(after).toBeTruthy()
    expect(after).not.toBe(before)
    // The previous session ended: its cookie no longer signs anyone in.
    const old = await fetch(`${base}${AUTH}/current`, { headers: { cookie: `trove_session=${before}` } })
    expect(((await old.json()) as { anonymous: boolean }).anonymous).toBe(true)
    const rows = await t.app.db.kysely.selectFrom('users').select('id').where('name', '=', 'alice').execute()
    expect(rows).toHaveLength(1)
  })

  it('signs a user in whose name is locked for password sign-in (guessed from everywhere): SSO guesses no password', async () => {
    for (let i = 0; i < ThrottlePolicy.userLockAfter + 1; i++)
      await reserveAttempt(t.app.db.kysely, 'alice', `10.60.${i >> 8}.${i & 255}`)
    const password = await t.fastify.inject({
      method: 'POST',
      url: `${AUTH}/login`,
      remoteAddress: '10.61.0.1',
      payload: { user: 'alice', password: 'anything', type: 'login' },
    })
    expect(password.statusCode).toBe(403)
    const { browser, location } = await signInWith('corp', 'alice')
    expect(location).toBe('/ui/')
    const current = await fetch(`${base}${AUTH}/current`, {
      headers: { cookie: `trove_session=${browser.cookies(base).get('trove_session')}` },
    })
    expect(((await current.json()) as { name: string }).name).toBe('alice')
    await t.app.db.kysely.deleteFrom('signin_failures').execute()
  })

  it('refuses an unknown user when the provider does not create accounts, with a clear message', async () => {
    const { browser, location } = await signInWith('strict', 'bob')
    const url = new URL(location, base)
    expect(url.pathname).toBe('/ui/login')
    expect(url.searchParams.get('ssoError')).toBe('notAutoCreated')
    expect(url.searchParams.get('ssoUser')).toBe('bob')
    expect(SsoMessages.notAutoCreated).toContain('does not create accounts')
    expect(browser.cookies(base).get('trove_session')).toBeUndefined()
    const row = await t.app.db.kysely.selectFrom('users').select('id').where('name', '=', 'bob').executeTakeFirst()
    expect(row).toBeUndefined()
  })

  it('never lets a provider take over an internal account of the same name', async () => {
    const { browser, location } = await signInWith('corp', 'admin')
    expect(new URL(location, base).searchParams.get('ssoError')).toBe('otherRealm')
    expect(browser.cookies(base).get('trove_session')).toBeUndefined()
  })

  it('refuses a callback whose state is unknown, and a replayed callback', async () => {
    const browser = new TestBrowser()
    const { end } = await signInWith('corp', 'carol', browser)
    const callback = end.url
    // The first use signed in; the same code and state again are refused.
    const replay = await new TestBrowser().request(callback.href)
    expect(new URL(replay.headers.get('location') ?? '', base).searchParams.get('ssoError')).toBe('expired')

    const forged = new URL(callback)
    forged.searchParams.set('state', 'forged-state-value-0000000000')
    const res = await new TestBrowser().request(forged.href)
    expect(new URL(res.headers.get('location') ?? '', base).searchParams.get('ssoError')).toBe('expired')
  })

  it('refuses a callback opened in another browser than the one that started the sign-in (login CSRF)', async () => {
    // Someone signs in at the provider as themselves but stops before the callback...
    const attacker = new TestBrowser()
    const end = await attacker.follow(
      `${base}${AUTH}/oauth/corp/authorize`,
      (url) => url.pathname === `${AUTH}/oauth/callback`,
      signInAtProvider('mallory'),
    )
    expect(end.url.searchParams.get('code')).toBeTruthy()
    // ...and has a victim open the callback link: refused, nobody signed in.
    const victim = new TestBrowser()
    const res = await victim.request(end.url.href)
    expect(new URL(res.headers.get('location') ?? '', base).searchParams.get('ssoError')).toBe('expired')
    expect(victim.cookies(base).get('trove_session')).toBeUndefined()
  })

  it('refuses a disabled or unknown provider', async () => {
    const res = await new TestBrowser().request(`${base}${AUTH}/oauth/nope/authorize`)
    expect(new URL(res.headers.get('location') ?? '', base).searchParams.get('ssoError')).toBe('unknownProvider')
  })

  it('keeps the client secret sealed at rest and out of every answer and log', async () => {
    const row = await t.app.db.kysely
      .selectFrom('oauth_providers')
      .selectAll()
      .where('name', '=', 'corp')
      .executeTakeFirstOrThrow()
    expect(row.client_secret_sealed).not.toContain(idp.clientSecret)
    expect(row.client_secret_sealed).toMatch(/^v1\./)
    const list = await t.fastify.inject({ url: ADMIN_API, headers: sessionHeaders(admin) })
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(idp.clientSecret)
    // Log lines are written synchronously: the file holds every sign-in above, without secrets.
    const log = fs.readFileSync(path.join(t.dataDir, 'logs', 'trove.log'), 'utf8')
    expect(log).toContain('single sign-on refused')
    expect(log).toContain('/oauth/callback?code=[redacted]&state=[redacted]')
    expect(log).not.toContain(idp.clientSecret)
    expect(log).not.toMatch(/trove_session=[\w-]{10}/)
  })
})

describe('OAuth provider administration', () => {
  let t: TestApp
  let admin: Session
  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
  })
  afterAll(async () => t?.close())

  const valid = { name: 'corp', issuerUrl: 'https://idp.example.com', clientId: 'trove', clientSecret: 's3cret-value' }
  const call = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, payload?: unknown, session: Session | null = admin) =>
    t.fastify.inject({ method, url, payload: payload as object, headers: session ? sessionHeaders(session) : {} })

  it('refuses bad input with a 400 naming the field', async () => {
    for (const [field, body] of [
      ['body.issuerUrl', { ...valid, issuerUrl: 'javascript:alert(1)' }],
      ['body.icon', { ...valid, icon: 'data:image/svg+xml,<svg onload=alert(1)>' }],
      ['body.name', { ...valid, name: 'has space' }],
      ['body.clientSecret', { ...valid, clientSecret: undefined }],
      ['body.type', { ...valid, type: 'ldap' }],
    ] as const) {
      const res = await call('POST', ADMIN_API, body)
      expect(res.statusCode, field).toBe(400)
      expect(res.json().errors[0].message, field).toContain(field)
    }
  })

  it('creates, lists, edits (keeping the secret), and deletes', async () => {
    expect((await call('POST', ADMIN_API, { ...valid, icon: 'https://idp.example.com/logo.png' })).statusCode).toBe(201)
    expect((await call('POST', ADMIN_API, valid)).statusCode).toBe(409)
    const before = await t.app.db.kysely.selectFrom('oauth_providers').selectAll().executeTakeFirstOrThrow()
    const edited = await call('PUT', `${ADMIN_API}/corp`, {
      ...valid,
      clientSecret: undefined,
      type: 'keycloak',
      enabled: false,
      autoCreateUsers: true,
      defaultGroups: ['dev', 'ops'],
    })
    expect(edited.statusCode).toBe(200)
    expect(edited.json()).toMatchObject({
      type: 'keycloak',
      enabled: false,
      autoCreateUsers: true,
      defaultGroups: ['dev', 'ops'],
    })
    const after = await t.app.db.kysely.selectFrom('oauth_providers').selectAll().executeTakeFirstOrThrow()
    expect(after.client_secret_sealed).toBe(before.client_secret_sealed)
    // Disabled providers are not offered on the login screen.
    const data = await call('GET', `${AUTH}/screen/loginRelatedData`, undefined, null)
    expect(data.json().oauthProviders).toEqual([])
    expect((await call('GET', ADMIN_API)).json().providers).toHaveLength(1)
    expect((await call('DELETE', `${ADMIN_API}/corp`)).statusCode).toBe(204)
    expect((await call('DELETE', `${ADMIN_API}/corp`)).statusCode).toBe(404)
    expect((await call('GET', ADMIN_API)).json().providers).toEqual([])
  })

  it('is for administrators only, and a cross-site post without the CSRF token is refused', async () => {
    expect((await call('GET', ADMIN_API, undefined, null)).statusCode).toBe(401)
    const noCsrf = await t.fastify.inject({ method: 'POST', url: ADMIN_API, payload: valid, headers: { cookie: admin.cookie } })
    expect(noCsrf.statusCode).toBe(403)
    expect((await call('GET', ADMIN_API)).json().providers).toEqual([])
  })
})
