import { DEFAULT_SAML_PROVIDER_NAME } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type KeyPair, makeKeyPair, samlResponse as signedResponse } from '../../../test/samlIdp.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { SSO_REAUTH_REQUIRED, SSO_REAUTH_WINDOW_MS } from '../auth/reauth.js'

const BASE = 'http://trove.test'
const AUTH = '/ui/api/v1/ui/auth'
const ACS = `${BASE}${AUTH}/saml/acs`
const ENTITY_ID = `${BASE}${AUTH}/saml/metadata`
const IDP = 'https://idp.test'
const samlResponse = (user: string, signer: KeyPair | null, options: { notOnOrAfterMs?: number; audience?: string } = {}) =>
  signedResponse({
    user,
    signer,
    issuer: IDP,
    acs: ACS,
    audience: options.audience ?? ENTITY_ID,
    notOnOrAfterMs: options.notOnOrAfterMs,
  })

const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64')

describe('SAML 2.0 sign-in', () => {
  let t: TestApp
  let admin: Session
  let idpKeys: KeyPair
  let otherKeys: KeyPair

  const post = (xml: string) =>
    t.fastify.inject({
      method: 'POST',
      url: `${AUTH}/saml/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: b64(xml) }).toString(),
    })
  const ssoError = (res: { headers: Record<string, unknown> }) =>
    new URL(String(res.headers.location), BASE).searchParams.get('ssoError')
  const setSaml = (settings: Record<string, unknown>) =>
    t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/saml',
      headers: sessionHeaders(admin),
      payload: settings,
    })

  beforeAll(async () => {
    t = await createTestApp({ TROVE_BASE_URL: BASE })
    admin = await signIn(t.fastify)
    for (const group of [{ name: 'readers' }, { name: 'everyone', autoJoin: true }, { name: 'others' }]) {
      const made = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/admin/groups',
        headers: sessionHeaders(admin),
        payload: group,
      })
      expect(made.statusCode).toBe(201)
    }
    idpKeys = await makeKeyPair()
    otherKeys = await makeKeyPair()
  }, 60_000)
  afterAll(async () => t?.close())

  it('is off until an administrator sets it up', async () => {
    const data = (await t.fastify.inject({ url: `${AUTH}/screen/loginRelatedData` })).json()
    expect(data.ssoProviderLinksSAML).toEqual([])
    expect(data.logoutUrl).toBeNull()
    expect(ssoError(await post(samlResponse('dora', idpKeys)))).toBe('samlOff')
  })

  it('refuses settings with a URL that is not http(s), naming the field', async () => {
    const res = await setSaml({ enabled: true, loginUrl: 'javascript:alert(1)', certificate: idpKeys.cert })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toContain('body.loginUrl')
    const bad = await setSaml({ enabled: true, loginUrl: `${IDP}/sso`, certificate: 'not a certificate' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toContain('body.certificate')
  })

  it('appears on the login screen under the default name, with its logout URL and registration id', async () => {
    const res = await setSaml({
      enabled: true,
      loginUrl: `${IDP}/sso`,
      logoutUrl: `${IDP}/logout`,
      certificate: idpKeys.cert,
      idpIssuer: IDP,
      autoCreateUsers: true,
      defaultGroups: ['readers'],
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      settings: { providerName: DEFAULT_SAML_PROVIDER_NAME },
      acsUrl: ACS,
      metadataUrl: ENTITY_ID,
    })
    const data = (await t.fastify.inject({ url: `${AUTH}/screen/loginRelatedData` })).json()
    expect(data.ssoProviderLinksSAML).toEqual([{ name: 'SAML SSO', url: `${AUTH}/saml/login` }])
    expect(data.ssoProviderLink).toBe(`${AUTH}/saml/login`)
    expect(data.logoutUrl).toBe(`${IDP}/logout`)
    const logout = await t.fastify.inject({ url: `${AUTH}/saml/logoutUrl` })
    expect(logout.json()).toEqual({ logoutUrl: `${IDP}/logout` })
    const registration = (await t.fastify.inject({ url: `${AUTH}/saml/registrationId` })).json()
    expect(registration.samlRegistrationId).toMatch(/^trove-[0-9a-f]{16}$/)
    expect(data.samlRegistrationId).toBe(registration.samlRegistrationId)
  })

  it('publishes service-provider metadata and sends the browser to the identity provider', async () => {
    const metadata = await t.fastify.inject({ url: `${AUTH}/saml/metadata` })
    expect(metadata.statusCode).toBe(200)
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml')
    expect(metadata.body).toContain(`entityID="${ENTITY_ID}"`)
    expect(metadata.body).toContain(`Location="${ACS}"`)
    const login = await t.fastify.inject({ url: `${AUTH}/saml/login` })
    expect(login.statusCode).toBe(302)
    const to = new URL(String(login.headers.location))
    expect(`${to.origin}${to.pathname}`).toBe(`${IDP}/sso`)
    expect(to.searchParams.get('SAMLRequest')).toBeTruthy()
  })

  it('signs in with a signed assertion: a server session, the account made in the saml realm', async () => {
    const res = await post(samlResponse('dora', idpKeys))
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/ui/')
    const cookies = [res.headers['set-cookie'] ?? []].flat().map((c) => c.split(';')[0])
    expect(cookies.some((c) => c?.startsWith('trove_session='))).toBe(true)
    const me = await t.fastify.inject({ url: `${AUTH}/current`, headers: { cookie: cookies.join('; ') } })
    expect(me.json()).toEqual({ name: 'dora', realm: 'saml', admin: false, anonymous: false, mfaStatus: 'none' })
    const row = await t.app.db.kysely.selectFrom('users').selectAll().where('name', '=', 'dora').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ realm: 'saml', email: 'dora@example.test', password_hash: null })
    // In the SAML settings' default group and the auto-join group, audited as made by SAML.
    const membersOf = async (name: string) =>
      (await t.fastify.inject({ url: `/ui/api/v1/ui/admin/groups/${name}`, headers: sessionHeaders(admin) })).json().members
    expect(await membersOf('readers')).toEqual(['dora'])
    expect(await membersOf('everyone')).toEqual(['dora'])
    expect(await membersOf('others')).toEqual([])
    const audit = await t.fastify.inject({ url: '/ui/api/v1/ui/admin/audit?targetType=user', headers: sessionHeaders(admin) })
    expect(audit.json().items).toContainEqual(
      expect.objectContaining({
        actor: 'saml',
        action: 'user.create',
        targetName: 'dora',
        details: { realm: 'saml', groups: ['everyone', 'readers'] },
      }),
    )
  })

  it('lets a fresh single sign-on stand in for the password a profile or API key change asks again', async () => {
    const res = await post(samlResponse('dora', idpKeys))
    const pairs = [res.headers['set-cookie'] ?? []].flat().map((c) => c.split(';')[0] ?? '')
    const cookie = pairs.join('; ')
    const csrf = pairs.find((p) => p.startsWith('trove_csrf='))?.slice('trove_csrf='.length) ?? ''
    const headers = { cookie, 'x-csrf-token': csrf }
    const profile = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userProfile',
      headers,
      payload: { password: '' },
    })
    expect(profile.statusCode).toBe(200)
    expect(profile.json()).toMatchObject({ name: 'dora', realm: 'saml' })
    const key = await t.fastify.inject({ method: 'POST', url: '/ui/api/v1/ui/userApiKey', headers })
    expect(key.statusCode).toBe(200)
    expect(key.json().apiKey).toMatch(/^trove_ak_/)

    // Fifteen minutes later the sign-in no longer counts as fresh.
    await t.app.db.kysely
      .updateTable('sessions')
      .set({ created_at: Date.now() - SSO_REAUTH_WINDOW_MS - 1000 })
      .execute()
    const stale = await t.fastify.inject({ method: 'POST', url: '/ui/api/v1/ui/userProfile', headers, payload: { password: '' } })
    expect(stale.statusCode).toBe(401)
    expect(stale.json().errors[0].message).toBe(SSO_REAUTH_REQUIRED)
    // The session itself still works.
    const me = await t.fastify.inject({ url: `${AUTH}/current`, headers: { cookie } })
    expect(me.json().name).toBe('dora')
  })

  it('refuses an unsigned assertion', async () => {
    const res = await post(samlResponse('eve', null))
    expect(ssoError(res)).toBe('failed')
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('refuses a signed assertion that was altered afterwards', async () => {
    const tampered = samlResponse('eve', idpKeys).replace('>eve</saml:NameID>', '>dora</saml:NameID>')
    expect(tampered).toContain('>dora</saml:NameID>')
    const res = await post(tampered)
    expect(ssoError(res)).toBe('failed')
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('refuses an assertion signed by another key, addressed to another audience, or expired', async () => {
    for (const xml of [
      samlResponse('eve', otherKeys),
      samlResponse('eve', idpKeys, { audience: 'https://other-sp.test' }),
      samlResponse('eve', idpKeys, { notOnOrAfterMs: -10 * 60_000 }),
    ]) {
      const res = await post(xml)
      expect(ssoError(res)).toBe('failed')
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    const row = await t.app.db.kysely.selectFrom('users').select('id').where('name', '=', 'eve').executeTakeFirst()
    expect(row).toBeUndefined()
  })

  it('refuses an unknown user when accounts are not made, and never takes over an internal account', async () => {
    expect(ssoError(await post(samlResponse('admin', idpKeys)))).toBe('otherRealm')
    const current = (await t.fastify.inject({ url: '/ui/api/v1/ui/admin/security/saml', headers: sessionHeaders(admin) })).json()
    expect((await setSaml({ ...current.settings, autoCreateUsers: false })).statusCode).toBe(200)
    const res = await post(samlResponse('frank', idpKeys))
    expect(ssoError(res)).toBe('notAutoCreated')
    expect(new URL(String(res.headers.location), BASE).searchParams.get('ssoUser')).toBe('frank')
    // An account the provider made earlier still signs in.
    expect((await post(samlResponse('dora', idpKeys))).headers.location).toBe('/ui/')
  })
})
