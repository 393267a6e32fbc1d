import type { LoginRelatedData } from '@trove/contracts/auth'
import { SsoMessages } from '@trove/contracts/messages'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  applyLoginDialog,
  dismissLoginDialog,
  LOGIN_DIALOG_DISMISSED_KEY,
  loginViewMode,
  providerButtons,
  ssoErrorText,
} from './loginScreenRules'

const data = (overrides: Partial<LoginRelatedData> = {}) =>
  ({
    loginIsExternal: false,
    isProvidersHidden: false,
    oauthProviders: [],
    ssoProviderLinksSAML: [],
    ...overrides,
  }) as LoginRelatedData

describe('login view mode (shell §4.4)', () => {
  it('is external when the server says loginIsExternal, else internal, and internal on failure', () => {
    expect(loginViewMode(data({ loginIsExternal: true }), false)).toBe('external')
    expect(loginViewMode(data({ loginIsExternal: false }), false)).toBe('internal')
    expect(loginViewMode(data({ loginIsExternal: true }), true)).toBe('internal')
    expect(loginViewMode(undefined, false)).toBe('internal')
  })
})

describe('provider buttons', () => {
  it('lists SAML then OAuth providers, dropping unsafe links and icons', () => {
    const buttons = providerButtons(
      data({
        ssoProviderLinksSAML: [{ name: 'SAML SSO', url: '/ui/api/v1/ui/auth/saml/login' }],
        oauthProviders: [
          { name: 'corp', type: 'oauth', url: '/ui/api/v1/ui/auth/oauth/corp/authorize', icon: 'javascript:alert(1)' },
          { name: 'evil', type: 'oauth', url: 'javascript:alert(1)', icon: null },
          { name: 'g', type: 'google', url: 'https://accounts.example.com/x', icon: 'https://cdn.example.com/g.png' },
        ],
      }),
    )
    expect(buttons.map((b) => [b.name, b.url, b.icon])).toEqual([
      ['SAML SSO', '/ui/api/v1/ui/auth/saml/login', null],
      ['corp', '/ui/api/v1/ui/auth/oauth/corp/authorize', null],
      ['g', 'https://accounts.example.com/x', 'https://cdn.example.com/g.png'],
    ])
  })

  it('shows none when the providers are hidden', () => {
    expect(providerButtons(data({ isProvidersHidden: true, ssoProviderLinksSAML: [{ name: 'SAML SSO', url: '/x' }] }))).toEqual(
      [],
    )
  })
})

describe('single sign-on refusal text', () => {
  it('names the user, and falls back for an unknown key', () => {
    expect(ssoErrorText('notAutoCreated', 'bob')).toBe(SsoMessages.notAutoCreated.replace('{user}', 'bob'))
    expect(ssoErrorText('whatever', undefined)).toBe(SsoMessages.failed)
    expect(ssoErrorText(undefined, 'bob')).toBeNull()
  })
})

describe('login dialog settings (shell §4.4)', () => {
  beforeEach(() => localStorage.clear())
  const notice = { enabled: true, title: 'Maintenance', content: 'Sunday', permanent: false }

  it('shows an enabled notice until it is dismissed, then no longer applies the settings', () => {
    expect(applyLoginDialog(notice)).toBe(true)
    dismissLoginDialog(notice)
    expect(localStorage.getItem(LOGIN_DIALOG_DISMISSED_KEY)).not.toBeNull()
    expect(applyLoginDialog(notice)).toBe(false)
  })

  it('removes a stored dismissal when the config is permanent, and keeps showing it', () => {
    localStorage.setItem(LOGIN_DIALOG_DISMISSED_KEY, '1')
    const permanent = { ...notice, permanent: true }
    expect(applyLoginDialog(permanent)).toBe(true)
    expect(localStorage.getItem(LOGIN_DIALOG_DISMISSED_KEY)).toBeNull()
    dismissLoginDialog(permanent)
    expect(localStorage.getItem(LOGIN_DIALOG_DISMISSED_KEY)).toBeNull()
    expect(applyLoginDialog(permanent)).toBe(true)
  })

  it('shows nothing when the notice is off', () => {
    expect(applyLoginDialog({ ...notice, enabled: false })).toBe(false)
    expect(applyLoginDialog(undefined)).toBe(false)
  })
})
