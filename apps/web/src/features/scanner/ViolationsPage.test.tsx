import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format } from '@trove/contracts/messages'
import type { IgnoreRule, Violation } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { sentJson, stubRoutes } from '../../test/routeStub'
import { ViolationsPage } from './ViolationsPage'

const API = '/ui/api/v1/xray/ui/admin'
const LODASH: Violation = {
  watch: 'npm',
  policy: 'no-high',
  type: 'security',
  issue: 'GHSA-35jh-r3h4-6jhm',
  severity: 'high',
  component: 'lodash',
  componentVersion: '4.17.20',
  packageId: 'npm://lodash',
  version: '4.17.20',
  repo: 'npm-local',
  blocksDownload: true,
  failsBuild: false,
}
const GPL: Violation = {
  ...LODASH,
  type: 'license',
  issue: 'GPL-3.0-only',
  severity: null,
  component: 'copyleft-lib',
  componentVersion: '2.0.0',
  packageId: 'npm://copyleft-lib',
  version: '2.0.0',
  blocksDownload: false,
}
const RULE: IgnoreRule = {
  id: 7,
  advisoryId: 'GHSA-35jh-r3h4-6jhm',
  license: null,
  packageId: 'npm://lodash',
  version: '4.17.20',
  reason: 'not reachable in our use',
  expiresAt: '2099-01-01T00:00:00.000Z',
  createdBy: 'admin',
  createdAt: '2026-11-25T10:00:00.000Z',
}

const render = () =>
  renderWithProviders(
    <>
      <Notifications />
      <ViolationsPage repositories={['npm-local', 'pypi-local']} />
    </>,
  )

describe('the violations screen', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('lists violations and asks the server with its filters; the package filter narrows what it answered', async () => {
    const calls = stubRoutes({
      [`GET ${API}/violations`]: (call) =>
        json(
          200,
          [LODASH, GPL].filter((v) => !call.search.get('type') || v.type === call.search.get('type')),
        ),
    })
    await render()
    const user = userEvent.setup()
    const table = await screen.findByRole('table', { name: ScreenMessages.scannerViolationsTitle })
    const lodash = within(table).getByRole('row', { name: /GHSA-35jh-r3h4-6jhm/ })
    expect(lodash).toHaveTextContent('npm://lodash@4.17.20')
    expect(lodash).toHaveTextContent('Blocks download')
    expect(within(table).getByRole('row', { name: /GPL-3.0-only/ })).toHaveTextContent('licence')
    expect(screen.getByText('2 violations')).toBeInTheDocument()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'security')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Severity' }), 'high')
    await waitFor(() => expect(screen.getByText('1 violation')).toBeInTheDocument())
    const last = calls.at(-1)
    expect(last?.search.get('type')).toBe('security')
    expect(last?.search.get('severity')).toBe('high')
    expect(last?.search.has('repo')).toBe(false)

    await user.type(screen.getByRole('textbox', { name: 'Package' }), 'no-such')
    expect(await screen.findByText(ScreenMessages.scannerNoViolations)).toBeInTheDocument()
  })

  it('ignores a violation with a reason and an expiry, for its version by default', async () => {
    let rules: IgnoreRule[] = []
    const calls = stubRoutes({
      [`GET ${API}/violations`]: () => json(200, rules.length ? [] : [LODASH]),
      [`POST ${API}/ignore_rules`]: (call) => {
        rules = [{ ...RULE, ...(sentJson(call) as object) }]
        return json(201, { id: 7 })
      },
      [`GET ${API}/ignore_rules`]: () => json(200, rules),
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Ignore GHSA-35jh-r3h4-6jhm in npm://lodash@4.17.20' }))
    const dialog = await screen.findByRole('dialog', { name: 'Ignore violation' })
    await user.click(within(dialog).getByRole('button', { name: 'Ignore' }))
    expect(within(dialog).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(
      ScreenMessages.scannerIgnoreNeedsReason,
    )
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'not reachable in our use')
    await user.type(within(dialog).getByLabelText(/Expires/), '2099-01-01')
    await user.click(within(dialog).getByRole('button', { name: 'Ignore' }))
    expect(
      await screen.findByText(format(ScreenMessages.scannerIgnoreCreated, { issue: 'GHSA-35jh-r3h4-6jhm' })),
    ).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'POST'))).toEqual({
      advisoryId: 'GHSA-35jh-r3h4-6jhm',
      license: null,
      packageId: 'npm://lodash',
      version: '4.17.20',
      reason: 'not reachable in our use',
      expiresAt: new Date(2099, 0, 1, 23, 59, 59).toISOString(),
    })
    expect(await screen.findByText(ScreenMessages.scannerNoViolations)).toBeInTheDocument()

    await user.click(screen.getByRole('tab', { name: ScreenMessages.scannerIgnoreRulesTitle }))
    const row = await screen.findByRole('row', { name: /GHSA-35jh-r3h4-6jhm/ })
    expect(row).toHaveTextContent('npm://lodash@4.17.20')
    expect(row).toHaveTextContent('not reachable in our use')
  })

  it('removes an ignore rule after asking', async () => {
    let rules = [
      RULE,
      { ...RULE, id: 8, advisoryId: null, license: 'GPL-3.0-only', packageId: null, version: null, expiresAt: null },
    ]
    const calls = stubRoutes({
      [`GET ${API}/violations`]: () => json(200, []),
      [`GET ${API}/ignore_rules`]: () => json(200, rules),
      [`DELETE ${API}/ignore_rules/8`]: () => {
        rules = [RULE]
        return new Response(null, { status: 204 })
      },
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('tab', { name: ScreenMessages.scannerIgnoreRulesTitle }))
    const licence = await screen.findByRole('row', { name: /licence GPL-3.0-only/ })
    expect(licence).toHaveTextContent('Everywhere')
    expect(licence).toHaveTextContent('Never')
    await user.click(within(licence).getByRole('button', { name: 'Remove the ignore rule of licence GPL-3.0-only' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove ignore rule' })
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByRole('row', { name: /licence GPL-3.0-only/ })).not.toBeInTheDocument())
    expect(calls.some((c) => c.method === 'DELETE' && c.path.endsWith('/ignore_rules/8'))).toBe(true)
  })
})
