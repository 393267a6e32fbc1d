import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { LoginPage } from './LoginPage'

afterEach(() => vi.unstubAllGlobals())

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('LoginPage', () => {
  it('asks for the mandatory fields before calling the server', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(screen.getAllByText(Messages.fieldMandatory)).toHaveLength(2)
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('posts the login payload with remember-me in the query, then signs in', async () => {
    const fetchMock = vi.fn(async () =>
      json(200, { name: 'alice', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const onSignedIn = vi.fn()
    await renderWithProviders(<LoginPage onSignedIn={onSignedIn} onPasswordExpired={() => {}} />)
    await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), 'alice')
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 's3cret')
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }))
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalled())
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit]
    expect(url.pathname).toBe('/ui/api/v1/ui/auth/login')
    expect(url.searchParams.get('_spring_security_remember_me')).toBe('true')
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({ user: 'alice', password: 's3cret', type: 'login' })
  })

  it("shows the server's message when sign-in fails", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(401, { errors: [{ status: 401, message: 'Incorrect user name or password' }] })),
    )
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), 'alice')
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'nope')
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect user name or password')
  })

  it('sends an expired password to the change-password screen with the user name', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(403, { errors: [{ status: 403, message: 'Your password has expired', code: 'CREDENTIALS_EXPIRED' }] }),
      ),
    )
    const onPasswordExpired = vi.fn()
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={onPasswordExpired} />)
    await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), 'gina')
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'old-password')
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }))
    await vi.waitFor(() => expect(onPasswordExpired).toHaveBeenCalledWith('gina'))
  })
})
