import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { PasswordSection } from './PasswordSection'

afterEach(() => vi.unstubAllGlobals())

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' })

describe('PasswordSection', () => {
  it('checks the new password before calling the server', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    await renderWithProviders(<PasswordSection userName="gina" currentPassword="old-password" onChanged={() => {}} />)
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(screen.getByText(Messages.fieldMandatory)).toBeInTheDocument()
    await userEvent.type(input('New password'), 'long-enough-1')
    await userEvent.type(input('Confirm new password'), 'long-enough-2')
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(screen.getByText('The new passwords do not match')).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('sends the current and the new password with prefix=changePassword, then reports the change', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetchMock)
    const onChanged = vi.fn()
    await renderWithProviders(<PasswordSection userName="gina" currentPassword="old-password" onChanged={onChanged} />)
    await userEvent.type(input('New password'), 'long-enough-1')
    await userEvent.type(input('Confirm new password'), 'long-enough-1')
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Password changed')
    expect(onChanged).toHaveBeenCalledWith('long-enough-1')
    const [url, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit]
    expect(url.pathname).toBe('/ui/api/v1/ui/auth/changePassword')
    expect(url.searchParams.get('prefix')).toBe('changePassword')
    expect(JSON.parse(String(init.body))).toEqual({
      userName: 'gina',
      oldPassword: 'old-password',
      newPassword1: 'long-enough-1',
      newPassword2: 'long-enough-1',
    })
  })

  it('shows the server refusal', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ errors: [{ status: 401, message: 'Incorrect user name or password' }] }), {
            status: 401,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    )
    await renderWithProviders(<PasswordSection userName="gina" currentPassword="wrong" onChanged={() => {}} />)
    await userEvent.type(input('New password'), 'long-enough-1')
    await userEvent.type(input('Confirm new password'), 'long-enough-1')
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect user name or password')
  })
})
