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
