import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { ContactUs } from './ContactUs'
import { ContactUsDialog } from './ContactUsDialog'

const send = () => screen.getByRole('button', { name: 'Send' })

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Ada')
  await user.type(screen.getByRole('textbox', { name: /Last name/ }), 'Lovelace')
  await user.type(screen.getByRole('textbox', { name: /Country/ }), 'United Kingdom')
  await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ada@example.com')
}

describe('the contact-us dialog', { timeout: 40_000 }, () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('keeps Send disabled until every mandatory field is valid, and shows each field its error', async () => {
    await renderWithProviders(<ContactUsDialog context="contact us" onClose={() => {}} />)
    const user = userEvent.setup()
    expect(await screen.findByRole('dialog', { name: 'Contact Us' })).toBeInTheDocument()
    expect(send()).toBeDisabled()

    const first = screen.getByRole('textbox', { name: /First name/ })
    await user.click(first)
    await user.tab()
    expect(screen.getByText(Messages.fieldMandatory)).toBeInTheDocument()

    await fillIn(user)
    await user.clear(screen.getByRole('textbox', { name: /E-mail/ }))
    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ada@example')
    await user.tab()
    expect(screen.getByText(Messages.invalidEmail)).toBeInTheDocument()
    expect(screen.queryByText(Messages.fieldMandatory)).not.toBeInTheDocument()
    expect(send()).toBeDisabled()

    await user.type(screen.getByRole('textbox', { name: /E-mail/ }), '.com')
    expect(screen.queryByText(Messages.invalidEmail)).not.toBeInTheDocument()
    expect(send()).toBeDisabled() // no help option chosen yet: "contact us" asks for none
    await user.click(screen.getByRole('radio', { name: 'Technical support' }))
    expect(send()).toBeEnabled()

    await user.click(screen.getByRole('textbox', { name: /Comment/ }))
    await user.paste('x'.repeat(2001))
    expect(screen.getByText('A comment can have at most 2000 characters')).toBeInTheDocument()
    expect(send()).toBeDisabled()
    await user.keyboard('{Backspace}')
    expect(screen.queryByText('A comment can have at most 2000 characters')).not.toBeInTheDocument()
    expect(send()).toBeEnabled()
  })

  it('starts with the help option its context asks for', async () => {
    await renderWithProviders(<ContactUsDialog context="trial extension" onClose={() => {}} />)
    expect(await screen.findByRole('radio', { name: 'Request a trial extension' })).toBeChecked()
  })

  it('sends the form with the marketing key, toasts the thanks for 5000 ms and closes', async () => {
    const bodies: unknown[] = []
    const urls: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: URL | string, init?: RequestInit) => {
        urls.push(new URL(String(url), 'http://localhost').pathname)
        bodies.push(JSON.parse(String(init?.body)))
        return json(201, { id: 1, delivery: 'sent' })
      }),
    )
    const show = vi.spyOn(notifications, 'show')
    const onClose = vi.fn()
    await renderWithProviders(
      <>
        <Notifications />
        <ContactUsDialog context="request demo toolbar" marketoDataKey="spring-campaign" onClose={onClose} />
      </>,
    )
    const user = userEvent.setup()
    await fillIn(user)
    await user.type(screen.getByRole('textbox', { name: /Comment/ }), '  Replication, please.  ')
    await user.click(send())
    expect(await screen.findByText(Messages.contactSuccessTitle)).toBeInTheDocument()
    expect(screen.getByText(Messages.contactSuccessBody)).toBeInTheDocument()
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({ title: Messages.contactSuccessTitle, autoClose: Limits.toastContactMs }),
    )
    expect(Limits.toastContactMs).toBe(5000)
    expect(urls).toEqual(['/ui/api/v1/marketing/contact'])
    expect(bodies).toEqual([
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        country: 'United Kingdom',
        email: 'ada@example.com',
        helpOption: 'request demo',
        optionalComment: 'Replication, please.',
        marketoDataKey: 'spring-campaign',
        context: 'request demo toolbar',
      },
    ])
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('toasts the failure, resets the form and stays open', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(500, { errors: [{ status: 500, message: 'Internal server error' }] })),
    )
    const onClose = vi.fn()
    await renderWithProviders(
      <>
        <Notifications />
        <ContactUsDialog context="demo tour" onClose={onClose} />
      </>,
    )
    const user = userEvent.setup()
    await fillIn(user)
    await user.click(send())
    expect(await screen.findByText(Messages.contactFailureTitle)).toBeInTheDocument()
    expect(screen.getByText(Messages.contactFailureBody)).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('textbox', { name: /First name/ })).toHaveValue(''))
    expect(send()).toBeDisabled()
    expect(onClose).not.toHaveBeenCalled()
  })
})

describe('the dialog opened by the query string', { timeout: 20_000 }, () => {
  it('clears contactUsContext (and the marketing key) on close, and keeps the rest of the query', async () => {
    const { router } = await renderWithProviders(<ContactUs context="contact us" />, {
      path: '/?contactUsContext=contact%20us&marketoDataKey=k1&tab=readme',
    })
    const user = userEvent.setup()
    await screen.findByRole('dialog', { name: 'Contact Us' })
    await user.type(screen.getByRole('textbox', { name: /First name/ }), 'Ada')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'readme' }))
  })

  it('clears it when the dialog is closed by its close button too', async () => {
    const { router } = await renderWithProviders(<ContactUs context="contact us" />, {
      path: '/?contactUsContext=contact%20us',
    })
    const user = userEvent.setup()
    await screen.findByRole('dialog', { name: 'Contact Us' })
    await user.click(screen.getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(router.state.location.search).toEqual({}))
  })
})
