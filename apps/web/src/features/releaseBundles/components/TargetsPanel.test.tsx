import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { sentJson, stubRoutes } from '../../../test/routeStub'
import { UI } from '../testData'
import { TargetsPanel } from './TargetsPanel'

describe('the targets panel', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('shows the target’s own answer to a wrong token, then registers it and removes another', async () => {
    let token = 'wrong'
    const calls = stubRoutes({
      [`GET ${UI}/targets`]: () =>
        json(200, { targets: [{ name: 'old', url: 'http://old.example.com', createdAt: 1, createdBy: 'admin' }] }),
      [`PUT ${UI}/targets/edge`]: (call) =>
        (JSON.parse(String(call.body)) as { token: string }).token === token
          ? json(400, { errors: [{ status: 400, message: 'The target answered 401: the token is not valid' }] })
          : json(200, { name: 'edge', url: 'http://edge.example.com', createdAt: 2, createdBy: 'admin' }),
      [`DELETE ${UI}/targets/old`]: () => new Response(null, { status: 204 }),
    })
    await renderWithProviders(
      <>
        <Notifications />
        <TargetsPanel />
      </>,
    )
    const user = userEvent.setup()
    const panel = await screen.findByRole('region', { name: 'Targets' })
    expect(await within(panel).findByRole('row', { name: /old/ })).toHaveTextContent('http://old.example.com')
    const form = within(panel).getByRole('form', { name: 'Add a target' })
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'edge')
    await user.type(within(form).getByRole('textbox', { name: 'URL' }), 'http://edge.example.com')
    await user.type(within(form).getByLabelText('Administrator token of the target'), 'wrong')
    await user.click(within(form).getByRole('button', { name: 'Add target' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent('The target answered 401: the token is not valid')
    expect(sentJson(calls.find((c) => c.method === 'PUT'))).toEqual({ url: 'http://edge.example.com', token: 'wrong' })

    token = 'never'
    await user.clear(within(form).getByLabelText('Administrator token of the target'))
    await user.type(within(form).getByLabelText('Administrator token of the target'), 'trove_at_right')
    await user.click(within(form).getByRole('button', { name: 'Add target' }))
    expect(await screen.findByText(format(ReleaseBundleMessages.bundleTargetSaved, { name: 'edge' }))).toBeInTheDocument()
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue(''))

    await user.click(within(panel).getByRole('button', { name: 'Remove target old' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove target' })).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText(format(ReleaseBundleMessages.bundleTargetDeleted, { name: 'old' }))).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `${UI}/targets/old`)).toBe(true)
  })
})
