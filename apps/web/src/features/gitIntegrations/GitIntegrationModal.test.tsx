import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Messages } from '@trove/contracts/messages'
import { useReducer } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { GitIntegrationModal } from './GitIntegrationModal'
import { initialModalState, modalReducer } from './modalState'

const onSelectService = vi.fn()

function Harness() {
  const [state, dispatch] = useReducer(modalReducer, initialModalState, (s) =>
    modalReducer(s, { type: 'open', vendorName: 'gitlab' }),
  )
  return (
    <>
      <Notifications />
      <GitIntegrationModal state={state} dispatch={dispatch} onSelectService={onSelectService} />
    </>
  )
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: /Integration name/ }), 'main')
  await user.type(screen.getByRole('textbox', { name: /User name/ }), 'ada')
  await user.type(screen.getByLabelText(/Token/), 'glpat-secret')
}

describe('the git integration modal', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
    onSelectService.mockReset()
  })

  it('tests the connection, shows the vendor user in the popover, then creates and offers the services', async () => {
    const fetch = stubFetch({
      '/ui/api/v1/integration/test': () => json(200, { connected: true, vendorUser: 'ada' }),
      '/ui/api/v1/integration': () => json(201, { data: 'gitlab-0123456789ab' }),
      '/ui/api/v1/integration/getIntegrations': () => json(200, []),
    })
    await renderWithProviders(<Harness />)
    const user = userEvent.setup()
    const create = await screen.findByRole('button', { name: 'Create' })
    expect(create).toBeDisabled()
    await fill(user)
    expect(create).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Test connection' }))
    expect(await screen.findByText(/Connection successful/)).toHaveTextContent('signed in as ada')
    expect(create).toBeEnabled()
    const sent = JSON.parse(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body))
    expect(sent).toMatchObject({
      integrationName: 'main',
      userName: 'ada',
      token: 'glpat-secret',
      vendorName: 'gitlab',
      url: 'https://gitlab.com',
    })

    await user.click(create)
    expect(await screen.findByText(`${Messages.integrationCreated} gitlab-0123456789ab`)).toBeInTheDocument()
    expect(await screen.findByRole('dialog', { name: 'Select service' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Pipelines' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Security scanner' }))
    expect(onSelectService).toHaveBeenCalledWith('gitlab', 'gitlab-0123456789ab')
  })

  it("tells a failed test with §8's message and keeps Create disabled", async () => {
    stubFetch({
      '/ui/api/v1/integration/test': () =>
        json(400, { errors: [{ status: 400, message: Messages.connectionTestFailed, code: 'CONNECTION_TEST_FAILED' }] }),
    })
    await renderWithProviders(<Harness />)
    const user = userEvent.setup()
    await fill(user)
    await user.click(await screen.findByRole('button', { name: 'Test connection' }))
    expect(await screen.findByText(Messages.connectionTestFailed)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Create' })).toBeDisabled()
  })

  it('puts a server field refusal (a refused address) on its field', async () => {
    stubFetch({
      '/ui/api/v1/integration/test': () =>
        json(400, {
          errors: [
            { status: 400, message: 'url: 169.254.169.254 resolves to 169.254.169.254, a link-local or metadata address' },
          ],
        }),
    })
    await renderWithProviders(<Harness />)
    const user = userEvent.setup()
    await fill(user)
    const url = screen.getByRole('textbox', { name: /URL/ })
    await user.clear(url)
    await user.type(url, 'http://169.254.169.254')
    await user.click(screen.getByRole('button', { name: 'Test connection' }))
    await waitFor(() => expect(url).toHaveAccessibleDescription(/link-local or metadata address/))
  })
})
