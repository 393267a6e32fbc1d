import type { LoginRelatedData, UserData } from '@trove/contracts/auth'
import { describe, expect, it } from 'vitest'
import { autoRedirectTarget, consolePathOf, parseLoginSearch, samlLogoutTarget, shouldAskAutoRedirect } from './autoRedirectLogin'

const data = (link: string | null) => ({ ssoProviderLink: link }) as LoginRelatedData
const user = (realm: string, anonymous = false): UserData => ({ name: 'u', realm, admin: false, anonymous, mfaStatus: 'none' })

describe('auto-redirect login (shell §4.2)', () => {
  it('asks the server unless the user arrives from a login path, a failed single sign-on or asks not to', () => {
    expect(shouldAskAutoRedirect(undefined, {})).toBe(true)
    expect(shouldAskAutoRedirect('/overview', {})).toBe(true)
    expect(shouldAskAutoRedirect('/login/forgot-password', {})).toBe(false)
    expect(shouldAskAutoRedirect('/ui/login', {})).toBe(false)
    expect(shouldAskAutoRedirect('/auth', {})).toBe(false)
    expect(shouldAskAutoRedirect(undefined, { ssoError: 'notAutoCreated' })).toBe(false)
    expect(shouldAskAutoRedirect(undefined, { noAutoRedirect: true })).toBe(false)
  })

  it('goes to the sanitized provider link only when the server says so', () => {
    expect(autoRedirectTarget(true, data('/ui/api/v1/ui/auth/saml/login'))).toBe('/ui/api/v1/ui/auth/saml/login')
    expect(autoRedirectTarget(true, data('https://idp.example.com/sso'))).toBe('https://idp.example.com/sso')
    expect(autoRedirectTarget(false, data('https://idp.example.com/sso'))).toBeNull()
    expect(autoRedirectTarget(true, data('javascript:alert(1)'))).toBeNull()
    expect(autoRedirectTarget(true, data(null))).toBeNull()
    expect(autoRedirectTarget(true, undefined)).toBeNull()
  })
})

describe('SAML logout navigation (shell §4.2)', () => {
  it('sends only SAML users to the sanitized SAML logout URL', () => {
    expect(samlLogoutTarget(user('saml'), 'https://idp.example.com/logout')).toBe('https://idp.example.com/logout')
    expect(samlLogoutTarget(user('internal'), 'https://idp.example.com/logout')).toBeNull()
    expect(samlLogoutTarget(user('saml'), 'javascript:alert(1)')).toBeNull()
    expect(samlLogoutTarget(user('saml'), null)).toBeNull()
    expect(samlLogoutTarget(user('anonymous', true), 'https://idp.example.com/logout')).toBeNull()
  })
})

describe('login search and redirectTo (shell §4.4)', () => {
  it('keeps a resolved console page as the post-login path and drops anything else', () => {
    expect(consolePathOf('/ui/packages?q=1')).toBe('/packages?q=1')
    expect(consolePathOf('/ui/api/v1/ui/auth/current')).toBeNull()
    expect(consolePathOf('/')).toBeNull()
  })

  it('reads only text values from the login URL', () => {
    expect(parseLoginSearch({ ssoError: 'expired', ssoUser: 42, redirectTo: '', noAutoRedirect: 'true' })).toEqual({
      ssoError: 'expired',
      ssoUser: undefined,
      redirectTo: undefined,
      noAutoRedirect: true,
      logout: undefined,
    })
  })
})
