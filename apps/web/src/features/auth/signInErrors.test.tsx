import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, LOGIN_DATA, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { ForgotPasswordPage } from './ForgotPasswordPage'
import { LoginPage } from './LoginPage'
import { OtpLoginPage } from './OtpLoginPage'
import { ResetPasswordPage } from './ResetPasswordPage'

// The sign-in rows of shell §8, each with the server's own message and with the fallback text.
afterEach(() => vi.unstubAllGlobals())

const VERIFY = '/ui/api/v1/ui/auth/mfa/verify'
const FORGOT = '/ui/api/v1/ui/auth/forgotPassword'
const VALIDATE = '/ui/api/v1/ui/auth/validateToken'
const noBody = (status: number) => () => new Response('', { status })

async function typeCode(code: string) {
  await userEvent.click(screen.getAllByRole('textbox')[0] as HTMLElement)
  await userEvent.keyboard(code)
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }))
}

describe('§8 OTP failure', () => {
  it("shows the server's answer", async () => {
    stubFetch({ [VERIFY]: () => json(401, { errors: [{ status: 401, message: 'The one-time code is not valid' }] }) })
    await renderWithProviders(<OtpLoginPage onSignedIn={() => {}} onRestart={() => {}} />)
    await typeCode('123456')
    expect(await screen.findByRole('alert')).toHaveTextContent('The one-time code is not valid')
  })

  it("shows 'something went wrong' without one", async () => {
    stubFetch({ [VERIFY]: noBody(500) })
    await renderWithProviders(<OtpLoginPage onSignedIn={() => {}} onRestart={() => {}} />)
    await typeCode('123456')
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.somethingWentWrong)
  })

  it('returns to login on a forbidden answer', async () => {
    stubFetch({ [VERIFY]: () => json(403, { errors: [{ status: 403, message: 'The sign-in has ended' }] }) })
    const onRestart = vi.fn()
    await renderWithProviders(<OtpLoginPage onSignedIn={() => {}} onRestart={onRestart} />)
    await typeCode('123456')
    await vi.waitFor(() => expect(onRestart).toHaveBeenCalled())
  })
})

describe('§8 forgot password failure', () => {
  it('shows the server\'s answer, or "Email wasn\'t sent"', async () => {
    stubFetch({ [FORGOT]: () => json(503, { errors: [{ status: 503, message: 'no mail server is configured' }] }) })
    const first = await renderWithProviders(<ForgotPasswordPage />)
    await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), 'alice')
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('no mail server is configured')
    first.unmount()

    stubFetch({ [FORGOT]: noBody(502) })
    await renderWithProviders(<ForgotPasswordPage />)
    await userEvent.type(screen.getByRole('textbox', { name: 'Username' }), 'alice')
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.emailNotSent)
  })
})

describe('§8 reset password failure', () => {
  it("shows 'Failed to reset the password' when the server gives no message", async () => {
    stubFetch({ [VALIDATE]: noBody(500) })
    await renderWithProviders(<ResetPasswordPage resetKey="k" onSignedIn={() => {}} />)
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.resetPasswordFailed)
  })
})

describe('§8 login data load failure', () => {
  it('is not shown: the password form works, in the internal mode, without providers', async () => {
    stubFetch({ [LOGIN_DATA]: noBody(500) })
    await renderWithProviders(<LoginPage onSignedIn={() => {}} onPasswordExpired={() => {}} />)
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull()
  })
})
