import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, LOGIN_DATA, loginData, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { LoginPage } from './LoginPage'

afterEach(() => vi.unstubAllGlobals())

const LOGIN = '/ui/api/v1/ui/auth/login'
const loginCalls = (mock: ReturnType<typeof stubFetch>) =>
  mock.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === LOGIN) as unknown as [
    URL,
    RequestInit,
  ][]

async function fillAndSubmit(user: string, password: string) {
  await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), user)
  await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), password)
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
}

describe('LoginPage', () => {
  it('asks for the mandatory fields before calling the server', async () => {
    const mock = stubFetch({ [LOGIN_DATA]: loginData() })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(screen.getAllByText(Messages.fieldMandatory)).toHaveLength(2)
    expect(loginCalls(mock)).toHaveLength(0)
  })

  it('posts the login payload with remember-me in the query, then signs in', async () => {
    const mock = stubFetch({
      [LOGIN_DATA]: loginData(),
      [LOGIN]: () => json(200, { name: 'alice', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }),
    })
    const onSignedIn = vi.fn()
    await renderWithProviders(<LoginPage onSignedIn={onSignedIn} onPasswordExpired={() => {}} />)
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }))
    await fillAndSubmit('alice', 's3cret')
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalled())
    const [[url, init]] = loginCalls(mock) as [[URL, RequestInit]]
    expect(url.searchParams.get('_spring_security_remember_me')).toBe('true')
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({ user: 'alice', password: 's3cret', type: 'login' })
  })

  it("shows the server's message when sign-in fails", async () => {
    stubFetch({
      [LOGIN_DATA]: loginData(),
      [LOGIN]: () => json(401, { errors: [{ status: 401, message: 'Incorrect user name or password' }] }),
    })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await fillAndSubmit('alice', 'nope')
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect user name or password')
  })

  it('sends an expired password to the change-password screen with the user name', async () => {
    stubFetch({
      [LOGIN_DATA]: loginData(),
      [LOGIN]: () => json(403, { errors: [{ status: 403, message: 'Your password has expired', code: 'CREDENTIALS_EXPIRED' }] }),
    })
    const onPasswordExpired = vi.fn()
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={onPasswordExpired} />)
    await fillAndSubmit('gina', 'old-password')
    await vi.waitFor(() => expect(onPasswordExpired).toHaveBeenCalledWith('gina'))
  })

  it('offers forgot-password and registration only when the server does', async () => {
    stubFetch({ [LOGIN_DATA]: loginData() })
    const { unmount } = await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await screen.findByRole('button', { name: 'Log In' })
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull()
    unmount()
    stubFetch({ [LOGIN_DATA]: loginData({ forgotPassword: true, registrationEnabled: true }) })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Create an account' })).toBeInTheDocument()
  })
})

describe('LoginPage single sign-on and screen settings', () => {
  const DIALOG = '/ui/api/v1/ui/auth/screen/loginDialogSettings'
  const providers = {
    ssoProviderLinksSAML: [{ name: 'SAML SSO', url: '/ui/api/v1/ui/auth/saml/login' }],
    oauthProviders: [
      { name: 'corp', type: 'oauth', url: '/ui/api/v1/ui/auth/oauth/corp/authorize', icon: null },
      { name: 'evil', type: 'oauth', url: 'javascript:alert(1)', icon: null },
    ],
  }
  afterEach(() => localStorage.clear())

  it('offers each provider as a link to its sign-in, never an unsafe one', async () => {
    stubFetch({ [LOGIN_DATA]: loginData(providers) })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    expect(await screen.findByRole('link', { name: 'Sign in with corp' })).toHaveAttribute(
      'href',
      '/ui/api/v1/ui/auth/oauth/corp/authorize',
    )
    expect(screen.getByRole('link', { name: 'Sign in with SAML SSO' })).toHaveAttribute('href', '/ui/api/v1/ui/auth/saml/login')
    expect(screen.queryByRole('link', { name: 'Sign in with evil' })).toBeNull()
    // Internal mode: the password form is there too.
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument()
  })

  it('puts single sign-on first in the external mode, the password form on demand', async () => {
    stubFetch({ [LOGIN_DATA]: loginData({ ...providers, loginIsExternal: true }) })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    expect(await screen.findByRole('link', { name: 'Sign in with corp' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Log In' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a Trove account' }))
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument()
  })

  it('follows the server on remember-me and password autocomplete', async () => {
    stubFetch({ [LOGIN_DATA]: loginData({ canRememberMe: false, passwordAutocompleteEnabled: false }) })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await vi.waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Remember me' })).toBeNull())
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAttribute('autocomplete', 'off')
  })

  it('shows why a single sign-on was refused', async () => {
    stubFetch({ [LOGIN_DATA]: loginData() })
    await renderWithProviders(
      <LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} ssoError="The account bob exists already" />,
    )
    expect(await screen.findByRole('alert')).toHaveTextContent('The account bob exists already')
  })

  it('keeps the loading flag on while the sign-in runs and turns it off on error', async () => {
    let answer: (r: Response) => void = () => {}
    stubFetch({
      [LOGIN_DATA]: loginData(),
      [LOGIN]: () => new Promise<Response>((resolve) => (answer = resolve)),
    })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await fillAndSubmit('alice', 'nope')
    const button = screen.getByRole('button', { name: 'Log In' })
    await vi.waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'))
    answer(json(401, { errors: [{ status: 401, message: 'Incorrect user name or password' }] }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect user name or password')
    expect(screen.getByRole('button', { name: 'Log In' })).not.toHaveAttribute('data-loading')
  })

  it("shows the administrator's notice until it is closed, unless it is permanent", async () => {
    const notice = { enabled: true, title: 'Maintenance', content: 'Down on Sunday', permanent: false }
    stubFetch({ [LOGIN_DATA]: loginData(), [DIALOG]: () => json(200, notice) })
    const first = await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    const dialog = await screen.findByRole('dialog', { name: 'Maintenance' })
    expect(dialog).toHaveTextContent('Down on Sunday')
    await userEvent.keyboard('{Escape}')
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    first.unmount()

    // Dismissed on this browser: not shown again.
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await screen.findByRole('button', { name: 'Log In' })
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
