import type { LoginRelatedData } from '@trove/contracts/auth'
import { describe, expect, it } from 'vitest'
import { handOff, providersOfType } from './ssoHandOff'

const data = (over: Partial<LoginRelatedData> = {}): LoginRelatedData => ({
  forgotPassword: false,
  canRememberMe: true,
  passwordAutocompleteEnabled: true,
  registrationEnabled: false,
  oauthProviders: [
    { name: 'corp', type: 'keycloak', url: '/ui/api/v1/ui/auth/oauth/corp/authorize', icon: null },
    { name: 'gl', type: 'gitlab', url: '/ui/api/v1/ui/auth/oauth/gl/authorize', icon: null },
    { name: 'lab', type: 'keycloak', url: '/ui/api/v1/ui/auth/oauth/lab/authorize', icon: null },
    { name: 'bad', type: 'okta', url: 'javascript:alert(1)', icon: null },
  ],
  ssoProviderLinksSAML: [{ name: 'SAML SSO', url: '/ui/api/v1/ui/auth/saml/login' }],
  ssoProviderLink: '/ui/api/v1/ui/auth/saml/login',
  loginIsExternal: false,
  isProvidersHidden: false,
  isUserPluginEnabled: false,
  logoutUrl: null,
  samlRegistrationId: 'trove-1',
  ...over,
})

describe('the provider hand-off', () => {
  it('finds the SAML provider, the providers of one OpenID Connect kind, or all of them for oauth', () => {
    expect(providersOfType('saml', data())).toEqual([{ name: 'SAML SSO', url: '/ui/api/v1/ui/auth/saml/login' }])
    expect(providersOfType('GitLab', data()).map((p) => p.name)).toEqual(['gl'])
    expect(providersOfType('keycloak', data()).map((p) => p.name)).toEqual(['corp', 'lab'])
    expect(providersOfType('oauth', data()).map((p) => p.name)).toEqual(['corp', 'gl', 'lab'])
    expect(providersOfType('oidc', data()).map((p) => p.name)).toEqual(['corp', 'gl', 'lab'])
  })

  it('never hands off to a link the sanitizer refuses', () => {
    expect(providersOfType('okta', data())).toEqual([])
    expect(handOff('okta', undefined, data())).toEqual({ kind: 'none' })
  })

  it('leaves for the only provider of the type, or the one the name picks', () => {
    expect(handOff('saml', undefined, data())).toEqual({
      kind: 'leave',
      provider: { name: 'SAML SSO', url: '/ui/api/v1/ui/auth/saml/login' },
    })
    expect(handOff('keycloak', 'lab', data())).toEqual({
      kind: 'leave',
      provider: { name: 'lab', url: '/ui/api/v1/ui/auth/oauth/lab/authorize' },
    })
  })

  it('lets the user choose among several, and says when there is none', () => {
    expect(handOff('keycloak', undefined, data())).toMatchObject({
      kind: 'choose',
      providers: [{ name: 'corp' }, { name: 'lab' }],
    })
    expect(handOff('keycloak', 'nope', data())).toEqual({ kind: 'none' })
    expect(handOff('azure', undefined, data())).toEqual({ kind: 'none' })
    expect(handOff('saml', undefined, data({ ssoProviderLinksSAML: [] }))).toEqual({ kind: 'none' })
    expect(handOff('saml', undefined, undefined)).toEqual({ kind: 'none' })
  })
})
