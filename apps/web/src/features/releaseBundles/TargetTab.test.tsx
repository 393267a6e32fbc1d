import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { sentJson, stubRoutes } from '../../test/routeStub'
import { TargetTab } from './TargetTab'
import { summary, UI } from './testData'

const received = summary({ origin: 'target', verified: true, sourceUrl: 'http://source.example.com', createdBy: null })
const render = (admin: boolean, onOpen = vi.fn()) =>
  renderWithProviders(
    <>
      <Notifications />
      <TargetTab admin={admin} initialQuery="" onOpen={onOpen} />
    </>,
  )

describe('the target tab', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('lists the bundles received here with their source and whether they verified, and opens one', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: () => json(200, { bundles: [received, { ...received, version: '0.9', verified: false }] }),
    })
    const onOpen = vi.fn()
    await render(false, onOpen)
    const table = await screen.findByRole('table', { name: 'Release bundles received here' })
    const shop = within(table).getByRole('row', { name: /^shop The shop 1\.0/ })
    expect(shop).toHaveTextContent('verified')
    expect(within(shop).getByRole('link', { name: 'http://source.example.com' })).toBeInTheDocument()
    expect(within(table).getByRole('row', { name: /^shop The shop 0\.9/ })).toHaveTextContent('not verified')
    expect(calls[0]?.search.get('origin')).toBe('target')
    // Retention is for administrators: not asked for.
    expect(screen.queryByRole('region', { name: 'Retention' })).not.toBeInTheDocument()
    expect(calls.some((c) => c.path === `${UI}/retention`)).toBe(false)
    await userEvent.setup().click(within(shop).getByRole('button', { name: 'Open shop 1.0' }))
    expect(onOpen).toHaveBeenCalledWith('target', expect.objectContaining({ name: 'shop', version: '1.0' }))
  })

  it('saves the retention policy, and runs it saying what it removed', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: () => json(200, { bundles: [] }),
      [`GET ${UI}/retention`]: () => json(200, { enable: false, keepLast: 0, maxAgeDays: 0 }),
      [`PUT ${UI}/retention`]: (call) => json(200, JSON.parse(String(call.body))),
      [`POST ${UI}/retention/run`]: () => json(200, { removed: ['shop 1.0', 'shop 1.1'] }),
    })
    await render(true)
    const user = userEvent.setup()
    expect(await screen.findByText(ReleaseBundleMessages.noTargetBundles)).toBeInTheDocument()
    const panel = await screen.findByRole('region', { name: 'Retention' })
    const keep = await within(panel).findByRole('textbox', { name: /Keep the last versions/ })
    expect(keep).toBeDisabled()
    expect(within(panel).getByRole('button', { name: 'Run now' })).toBeDisabled()
    await user.click(within(panel).getByRole('switch', { name: 'Remove old received bundles' }))
    await user.clear(keep)
    await user.type(keep, '3')
    await user.clear(within(panel).getByRole('textbox', { name: /Maximum age in days/ }))
    await user.type(within(panel).getByRole('textbox', { name: /Maximum age in days/ }), '30')
    await user.click(within(panel).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(ReleaseBundleMessages.bundleRetentionSaved)).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'PUT'))).toEqual({ enable: true, keepLast: 3, maxAgeDays: 30 })

    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Run now' })).toBeEnabled())
    await user.click(within(panel).getByRole('button', { name: 'Run now' }))
    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleRetentionRemoved, { bundles: 'shop 1.0, shop 1.1' })),
    ).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${UI}/retention/run`])
  })
})
