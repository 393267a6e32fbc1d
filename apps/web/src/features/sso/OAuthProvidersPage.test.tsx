import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { OAuthProvidersPage } from './OAuthProvidersPage'

afterEach(() => vi.unstubAllGlobals())

/** Types a value at once (a paste): key-by-key typing is slow on a loaded machine and tests nothing more here. */
async function fill(element: HTMLElement, value: string) {
  await userEvent.click(element)
  await userEvent.paste(value)
}

const LIST = '/ui/api/v1/ui/admin/security/oauth'
const SCREEN = '/ui/api/v1/ui/admin/security/loginScreen'
const screenSettings = {
  autoRedirect: false,
  loginIsExternal: false,
  isProvidersHidden: false,
  dialog: { enabled: false, title: '', content: '', permanent: false },
}
const corp = {
  name: 'corp',
  type: 'keycloak',
  issuerUrl: 'https://idp.example.com/realms/main',
  clientId: 'trove',
  hasClientSecret: true,
  icon: null,
  enabled: true,
  autoCreateUsers: true,
  defaultGroups: ['readers'],
  redirectUri: 'https://trove.example.com/ui/api/v1/ui/auth/oauth/callback',
}

describe('OAuthProvidersPage', () => {
  it('lists the providers with the redirect URI to register', async () => {
    stubFetch({ [LIST]: () => json(200, { providers: [corp] }), [SCREEN]: () => json(200, screenSettings) })
    await renderWithProviders(<OAuthProvidersPage />)
    const table = await screen.findByRole('table', { name: 'OAuth providers' })
    expect(within(table).getByText('corp')).toBeInTheDocument()
    expect(within(table).getByText('https://idp.example.com/realms/main')).toBeInTheDocument()
    expect(within(table).getByText('groups: readers')).toBeInTheDocument()
    expect(screen.getByText(corp.redirectUri)).toBeInTheDocument()
    expect(await screen.findByRole('switch', { name: /Auto-redirect to single sign-on/ })).not.toBeChecked()
  })

  it('checks the form, then posts a new provider', async () => {
    const mock = stubFetch({
      [LIST]: () => json(200, { providers: [] }),
      [SCREEN]: () => json(200, screenSettings),
    })
    await renderWithProviders(<OAuthProvidersPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Add provider' }))
    const form = await screen.findByRole('form', { name: 'New OAuth provider' })
    await fill(within(form).getByRole('textbox', { name: 'Issuer URL' }), 'javascript:alert(1)')
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }))
    expect(within(form).getAllByText(Messages.fieldMandatory).length).toBeGreaterThanOrEqual(3)
    expect(within(form).getByText(Messages.invalidUrl)).toBeInTheDocument()

    mock.mockImplementation(async (url: URL | string, init?: RequestInit) => {
      const path = new URL(String(url), 'http://localhost').pathname
      if (path === LIST) return init?.method === 'POST' ? json(201, corp) : json(200, { providers: [corp] })
      return json(200, screenSettings)
    })
    await fill(within(form).getByRole('textbox', { name: 'Name' }), 'corp')
    const issuer = within(form).getByRole('textbox', { name: 'Issuer URL' })
    await userEvent.clear(issuer)
    await fill(issuer, 'https://idp.example.com/realms/main')
    await fill(within(form).getByRole('textbox', { name: 'Client ID' }), 'trove')
    await fill(within(form).getByLabelText(/Client secret/, { selector: 'input' }), 's3cret')
    await userEvent.click(within(form).getByRole('switch', { name: 'Create users on first sign-in' }))
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }))
    await vi.waitFor(() => {
      const calls = mock.mock.calls as unknown as [string, RequestInit | undefined][]
      const post = calls.find(([, init]) => init?.method === 'POST')
      expect(post).toBeTruthy()
      expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
        name: 'corp',
        type: 'oauth',
        issuerUrl: 'https://idp.example.com/realms/main',
        clientId: 'trove',
        clientSecret: 's3cret',
        autoCreateUsers: true,
        enabled: true,
      })
    })
  }, 60_000)
})
