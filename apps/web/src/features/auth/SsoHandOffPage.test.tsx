import { screen } from '@testing-library/react'
import { format } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LOGIN_DATA, loginData, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { SsoHandOffPage } from './SsoHandOffPage'

afterEach(() => vi.unstubAllGlobals())

const saml = { ssoProviderLinksSAML: [{ name: 'SAML SSO', url: '/ui/api/v1/ui/auth/saml/login' }] }

describe('SsoHandOffPage', () => {
  it('sends the browser to the only provider of the type', async () => {
    stubFetch({ [LOGIN_DATA]: loginData(saml) })
    const leave = vi.fn()
    await renderWithProviders(<SsoHandOffPage type="saml" leave={leave} />)
    expect(await screen.findByText(format(ScreenMessages.authProviderLeaving, { name: 'SAML SSO' }))).toBeInTheDocument()
    expect(leave).toHaveBeenCalledWith('/ui/api/v1/ui/auth/saml/login')
  })

  it('offers a choice among several of the type', async () => {
    const oauthProviders = ['corp', 'lab'].map((name) => ({
      name,
      type: 'keycloak',
      url: `/ui/api/v1/ui/auth/oauth/${name}/authorize`,
      icon: null,
    }))
    stubFetch({ [LOGIN_DATA]: loginData({ oauthProviders }) })
    const leave = vi.fn()
    await renderWithProviders(<SsoHandOffPage type="keycloak" leave={leave} />)
    expect(await screen.findByRole('link', { name: 'Sign in with lab' })).toHaveAttribute(
      'href',
      '/ui/api/v1/ui/auth/oauth/lab/authorize',
    )
    expect(leave).not.toHaveBeenCalled()
  })

  it('says when no provider of the type is set up, with the way back to sign in', async () => {
    stubFetch({ [LOGIN_DATA]: loginData() })
    const leave = vi.fn()
    await renderWithProviders(<SsoHandOffPage type="gitlab" leave={leave} />)
    expect(await screen.findByText(format(ScreenMessages.authProviderNotConfigured, { type: 'gitlab' }))).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeInTheDocument()
    expect(leave).not.toHaveBeenCalled()
  })
})
