import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { ChangePasswordPage } from './ChangePasswordPage'

afterEach(() => vi.unstubAllGlobals())

async function fill(current: string, next: string, confirm: string) {
  await userEvent.type(screen.getByLabelText('Current password', { selector: 'input' }), current)
  await userEvent.type(screen.getByLabelText('New password', { selector: 'input' }), next)
  await userEvent.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), confirm)
  await userEvent.click(screen.getByRole('button', { name: 'Change password and sign in' }))
}

describe('ChangePasswordPage', () => {
  it('checks the new password before calling the server', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    await renderWithProviders(<ChangePasswordPage userName="gina" onSignedIn={() => {}} />)
    expect(screen.getByText('The password of gina has expired: choose a new one.')).toBeInTheDocument()
    await fill('old-password', 'short', 'short')
    expect(screen.getByText('A password has at least 8 characters')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('New password', { selector: 'input' }))
    await userEvent.type(screen.getByLabelText('New password', { selector: 'input' }), 'long-enough-1')
    await userEvent.click(screen.getByRole('button', { name: 'Change password and sign in' }))
    expect(screen.getByText('The new passwords do not match')).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("falls back to 'Failed to change password' when the server gives no message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500, statusText: '' })),
    )
    await renderWithProviders(<ChangePasswordPage userName="gina" onSignedIn={() => {}} />)
    await fill('old-password', 'long-enough-1', 'long-enough-1')
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.changePasswordFailed)
  })

  it('changes the password, then signs in with remember-me off', async () => {
    const fetchMock = vi.fn(async (url: URL) =>
      url.pathname.endsWith('/login')
        ? new Response(JSON.stringify({ name: 'gina', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          })
        : new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const onSignedIn = vi.fn()
    await renderWithProviders(<ChangePasswordPage userName="gina" onSignedIn={onSignedIn} />)
    await fill('old-password', 'long-enough-1', 'long-enough-1')
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalled())
    const [changeUrl, changeInit] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit]
    expect(changeUrl.pathname).toBe('/ui/api/v1/ui/auth/changePassword')
    expect(changeUrl.searchParams.get('prefix')).toBe('changePassword')
    expect(JSON.parse(String(changeInit.body))).toEqual({
      userName: 'gina',
      oldPassword: 'old-password',
      newPassword1: 'long-enough-1',
      newPassword2: 'long-enough-1',
    })
    const [loginUrl] = fetchMock.mock.calls[1] as unknown as [URL]
    expect(loginUrl.searchParams.get('_spring_security_remember_me')).toBe('false')
  })
})
