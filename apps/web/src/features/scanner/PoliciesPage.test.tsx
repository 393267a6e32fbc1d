import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format, Messages } from '@trove/contracts/messages'
import type { SecurityPolicy } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { sentJson, stubRoutes } from '../../test/routeStub'
import { PoliciesPage } from './PoliciesPage'

const API = '/ui/api/v1/xray/ui/admin'
const NO_HIGH: SecurityPolicy = {
  name: 'no-high',
  description: 'High and critical findings block',
  minSeverity: 'high',
  allowedLicenses: null,
  deniedLicenses: ['AGPL-3.0-only'],
  actions: { notify: true, failBuild: false, blockDownload: true },
}

const render = () =>
  renderWithProviders(
    <>
      <Notifications />
      <PoliciesPage />
    </>,
  )

describe('the policies screen', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('lists the policies with their rules and actions', async () => {
    stubRoutes({ [`GET ${API}/policies`]: () => json(200, [NO_HIGH]) })
    await render()
    const row = await screen.findByRole('row', { name: /no-high/ })
    expect(row).toHaveTextContent('High and critical findings block')
    expect(row).toHaveTextContent('high')
    expect(row).toHaveTextContent('Any allowed; never AGPL-3.0-only')
    expect(within(row).getByText('Block download')).toBeInTheDocument()
    expect(within(row).queryByText('Fail build')).not.toBeInTheDocument()
  })

  it('says what a policy is when there is none', async () => {
    stubRoutes({ [`GET ${API}/policies`]: () => json(200, []) })
    await render()
    expect(await screen.findByText(ScreenMessages.scannerNoPolicies)).toBeInTheDocument()
  })

  it("checks the form, then shows the server's refusal of a licence id on its field", async () => {
    const calls = stubRoutes({
      [`GET ${API}/policies`]: () => json(200, []),
      [`POST ${API}/policies`]: () =>
        json(400, {
          errors: [{ status: 400, message: 'Invalid request: body.deniedLicenses.0: unknown SPDX licence id NOT-A-LICENCE' }],
        }),
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'New policy' }))
    const dialog = await screen.findByRole('dialog', { name: 'New policy' })
    expect(within(dialog).getByRole('checkbox', { name: /Notify/ })).toBeChecked()
    expect(within(dialog).getByRole('checkbox', { name: /Block download/ })).not.toBeChecked()
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    const name = within(dialog).getByRole('textbox', { name: /Name/ })
    expect(name).toHaveAccessibleDescription(Messages.fieldMandatory)
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)

    await user.type(name, 'licences')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Minimum severity/ }), '')
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByRole('combobox', { name: /Minimum severity/ })).toHaveAccessibleDescription(
      new RegExp(ScreenMessages.scannerPolicyNeedsRule),
    )

    const denied = within(dialog).getByRole('combobox', { name: /Denied licences/ })
    await user.type(denied, 'NOT-A-LICENCE{Enter}')
    await user.click(within(dialog).getByRole('checkbox', { name: /Block download/ }))
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(denied).toHaveAccessibleDescription(/unknown SPDX licence id NOT-A-LICENCE/))
    expect(sentJson(calls.find((c) => c.method === 'POST'))).toEqual({
      name: 'licences',
      description: '',
      minSeverity: null,
      allowedLicenses: null,
      deniedLicenses: ['NOT-A-LICENCE'],
      actions: { notify: true, failBuild: false, blockDownload: true },
    })
  })

  it('saves a changed policy under its old name, and refreshes the list', async () => {
    let saved = NO_HIGH
    const calls = stubRoutes({
      [`GET ${API}/policies`]: () => json(200, [saved]),
      [`PUT ${API}/policies/no-high`]: (call) => {
        saved = sentJson(call) as SecurityPolicy
        return json(200, { name: saved.name })
      },
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Edit no-high' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit policy no-high' })
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAttribute('readonly')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Minimum severity/ }), 'critical')
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(format(ScreenMessages.scannerPolicySaved, { name: 'no-high' }))).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'PUT'))).toMatchObject({
      minSeverity: 'critical',
      deniedLicenses: ['AGPL-3.0-only'],
    })
    await waitFor(() => expect(screen.getByRole('row', { name: /no-high/ })).toHaveTextContent('critical'))
  })

  it('asks before deleting, and shows why the server refuses', async () => {
    stubRoutes({
      [`GET ${API}/policies`]: () => json(200, [NO_HIGH]),
      [`DELETE ${API}/policies/no-high`]: () =>
        json(409, { errors: [{ status: 409, message: 'The policy no-high is applied by the watches npm' }] }),
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Delete no-high' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete policy' })
    expect(dialog).toHaveTextContent(format(ScreenMessages.scannerPolicyDeleteConfirm, { name: 'no-high' }))
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('applied by the watches npm')
  })
})
