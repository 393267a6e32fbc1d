import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { resolveRedirect } from './routes.js'

const AUTH = '/ui/api/v1/ui/auth'
const SCREEN = '/ui/api/v1/ui/admin/security/loginScreen'

describe('login screen settings, auto-redirect and the redirect call', () => {
  let t: TestApp
  let admin: Session
  beforeAll(async () => {
    t = await createTestApp({ TROVE_BASE_URL: 'https://trove.example.com' })
    admin = await signIn(t.fastify)
  })
  afterAll(async () => t?.close())

  const get = (url: string) => t.fastify.inject({ url })
  const put = (payload: unknown) =>
    t.fastify.inject({ method: 'PUT', url: SCREEN, headers: sessionHeaders(admin), payload: payload as object })

  it('answers the defaults before an administrator changes anything', async () => {
    expect((await get(`${AUTH}/autoRedirectLogin`)).json()).toEqual({ isAutoRedirectLogin: false })
    expect((await get(`${AUTH}/screen/loginVisualMode`)).json()).toEqual({ loginIsExternal: false, isProvidersHidden: false })
    expect((await get(`${AUTH}/screen/loginDialogSettings`)).json()).toEqual({
      enabled: false,
      title: '',
      content: '',
      permanent: false,
    })
    const data = (await get(`${AUTH}/screen/loginRelatedData`)).json()
    expect(data).toMatchObject({
      loginIsExternal: false,
      isProvidersHidden: false,
      isUserPluginEnabled: false,
      ssoProviderLink: null,
    })
  })

  it('turns auto-redirect on only when there is a provider to go to', async () => {
    expect((await put({ autoRedirect: true })).statusCode).toBe(200)
    expect((await get(`${AUTH}/autoRedirectLogin`)).json()).toEqual({ isAutoRedirectLogin: false })
    const added = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/security/oauth',
      headers: sessionHeaders(admin),
      payload: { name: 'corp', issuerUrl: 'https://idp.example.com', clientId: 'trove', clientSecret: 'secret' },
    })
    expect(added.statusCode).toBe(201)
    expect((await get(`${AUTH}/autoRedirectLogin`)).json()).toEqual({ isAutoRedirectLogin: true })
    expect((await get(`${AUTH}/screen/loginRelatedData`)).json().ssoProviderLink).toBe(`${AUTH}/oauth/corp/authorize`)
  })

  it('stores the view mode and the login notice with its permanent flag', async () => {
    const settings = {
      autoRedirect: false,
      loginIsExternal: true,
      isProvidersHidden: false,
      dialog: { enabled: true, title: 'Maintenance', content: 'Down on Sunday', permanent: true },
    }
    const res = await put(settings)
    expect(res.json()).toEqual(settings)
    expect((await get(`${AUTH}/screen/loginVisualMode`)).json()).toEqual({ loginIsExternal: true, isProvidersHidden: false })
    expect((await get(`${AUTH}/screen/loginDialogSettings`)).json()).toEqual(settings.dialog)
    expect((await get(`${AUTH}/screen/loginRelatedData`)).json().loginIsExternal).toBe(true)
    expect((await t.fastify.inject({ url: SCREEN, headers: sessionHeaders(admin) })).json()).toEqual(settings)
  })

  it('is changed by administrators only, naming a bad field', async () => {
    expect((await t.fastify.inject({ method: 'PUT', url: SCREEN, payload: {} })).statusCode).toBe(401)
    const bad = await put({ autoRedirect: 'yes' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toContain('body.autoRedirect')
  })

  it('answers the realm statuses, the user-plugin flag and the POST form of the login data', async () => {
    expect((await get(`${AUTH}/screen/realms`)).json()).toEqual({
      realms: [
        { realm: 'internal', enabled: true },
        { realm: 'saml', enabled: false },
        { realm: 'oauth', enabled: true },
      ],
    })
    expect((await get(`${AUTH}/screen/userPlugins`)).json()).toEqual({ authUserPlugin: false })
    const posted = await t.fastify.inject({ method: 'POST', url: `${AUTH}/screen/loginRelatedData`, payload: {} })
    expect(posted.statusCode).toBe(200)
    expect(posted.json()).toEqual((await get(`${AUTH}/screen/loginRelatedData`)).json())
  })

  it('resolves redirectTo to a path on this server only', async () => {
    const call = async (to: string) => (await get(`${AUTH}/redirect?redirectTo=${encodeURIComponent(to)}`)).json().url as string
    expect(await call('/ui/packages?q=1')).toBe('/ui/packages?q=1')
    expect(await call('https://trove.example.com/ui/user_profile#x')).toBe('/ui/user_profile#x')
    expect(await call('https://evil.example.com/ui/')).toBe('/')
    expect(await call('//evil.example.com/ui/')).toBe('/')
    expect(await call('javascript:alert(1)')).toBe('/')
    expect((await get(`${AUTH}/redirect`)).json()).toEqual({ url: '/' })
    expect(resolveRedirect('/\\evil.example.com', 'https://trove.example.com')).toBe('/')
    // Spellings a browser turns into another site: a tab or newline inside //, a backslash, a scheme.
    for (const to of [
      '/\t/evil.example.com',
      '/\n/evil.example.com',
      '\\\\evil.example.com',
      ' //evil.example.com',
      'HTTPS://evil.example.com',
      'data:text/html,x',
    ]) {
      expect(resolveRedirect(to, 'https://trove.example.com'), JSON.stringify(to)).toBe('/')
      expect(await call(to), JSON.stringify(to)).toBe('/')
    }
  })
})
