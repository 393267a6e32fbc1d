import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { stubRoutes } from '../../test/routeStub'
import { Readme } from '../packages/components/Readme'
import { ReleaseBundlesPage } from './ReleaseBundlesPage'
import type { BundleTab } from './tabs'
import { details, summary, UI } from './testData'

function Page({
  initial = 'source',
  admin = false,
  query = '',
  running = true,
}: {
  initial?: BundleTab
  admin?: boolean
  query?: string
  running?: boolean
}) {
  const [tab, setTab] = useState<BundleTab>(initial)
  return (
    <>
      <Notifications />
      <ReleaseBundlesPage
        tab={tab}
        onTab={setTab}
        admin={admin}
        distributionRunning={running}
        query={query}
        repositories={[]}
        Markdown={Readme}
      />
    </>
  )
}

describe('the release bundles screen', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('lists the bundles made here with their state, size, creator and where they went, and filters them on the server', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: (call) =>
        json(200, {
          bundles:
            call.search.get('q') === 'web'
              ? [summary({ name: 'web', version: '2.0', state: 'open', signedAt: null })]
              : [
                  summary({
                    state: 'distributed',
                    distributedTo: [
                      { target: 'edge', state: 'completed' },
                      { target: 'eu', state: 'failed' },
                      { target: 'old', state: 'deleted' },
                    ],
                  }),
                  summary({ name: 'web', version: '2.0', state: 'open', signedAt: null, files: 1, size: 512 }),
                ],
        }),
    })
    await renderWithProviders(<Page />)
    const table = await screen.findByRole('table', { name: 'Release bundles made here' })
    const shop = within(table).getByRole('row', { name: /^shop / })
    expect(shop).toHaveTextContent('distributed')
    expect(shop).toHaveTextContent('3.0 MB')
    expect(shop).toHaveTextContent('by admin')
    expect(within(shop).getByText('edge: completed')).toBeInTheDocument()
    expect(within(shop).getByText('eu: failed')).toBeInTheDocument()
    // A target it was removed from is not listed.
    expect(within(shop).queryByText(/^old/)).not.toBeInTheDocument()
    const web = within(table).getByRole('row', { name: /^web / })
    expect(web).toHaveTextContent('open')
    expect(web).toHaveTextContent('512 B')
    expect(web).toHaveTextContent('—')
    // The list says where each bundle went: no bundle's details are read for it.
    expect(calls.map((c) => c.path)).toEqual([`${UI}/release_bundles`])
    expect(calls[0]?.search.get('origin')).toBe('source')

    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Filter bundles' }), 'web')
    await waitFor(() => expect(within(table).queryByRole('row', { name: /^shop / })).not.toBeInTheDocument())
    expect(
      calls
        .filter((c) => c.path === `${UI}/release_bundles`)
        .at(-1)
        ?.search.get('q'),
    ).toBe('web')
  })

  it('reads the list again while a distribution is under way, until it is done', async () => {
    let state: 'running' | 'completed' = 'running'
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: () =>
        json(200, {
          bundles: [
            summary({ state: state === 'completed' ? 'distributed' : 'signed', distributedTo: [{ target: 'edge', state }] }),
          ],
        }),
    })
    await renderWithProviders(<Page />)
    const table = await screen.findByRole('table', { name: 'Release bundles made here' })
    expect(await within(table).findByText('edge: running')).toBeInTheDocument()
    state = 'completed'
    expect(await within(table).findByText('edge: completed', {}, { timeout: 5000 })).toBeInTheDocument()
    expect(within(table).getByRole('row', { name: /^shop / })).toHaveTextContent('distributed')
    const reads = calls.length
    await new Promise((r) => setTimeout(r, 2500))
    expect(calls).toHaveLength(reads)
  })

  it('shows administrators the targets and the signing keys, and nobody else', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: () => json(200, { bundles: [] }),
      [`GET ${UI}/targets`]: () => json(200, { targets: [] }),
      [`GET ${UI}/keys`]: () =>
        json(200, { keys: [{ id: 'ed25519:4f2a9c', algorithm: 'ed25519', publicKey: 'pem', createdAt: 1, active: true }] }),
    })
    const { unmount } = await renderWithProviders(<Page admin />)
    const keys = await screen.findByRole('region', { name: 'Signing keys' })
    expect(await within(keys).findByRole('row', { name: /ed25519:4f2a9c/ })).toHaveTextContent('active')
    expect(screen.getByRole('region', { name: 'Targets' })).toBeInTheDocument()
    unmount()

    calls.length = 0
    await renderWithProviders(<Page />)
    await screen.findByText(ReleaseBundleMessages.noSourceBundles)
    expect(screen.queryByRole('region', { name: 'Signing keys' })).not.toBeInTheDocument()
    expect(calls.map((c) => c.path)).toEqual([`${UI}/release_bundles`])
  })

  it('takes its filter from the top bar’s search, and opens a bundle with its notes rendered', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: () => json(200, { bundles: [summary()] }),
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, details()),
    })
    await renderWithProviders(<Page query={'a'.repeat(64)} />)
    await screen.findByRole('table', { name: 'Release bundles made here' })
    expect(screen.getByRole('textbox', { name: 'Filter bundles' })).toHaveValue('a'.repeat(64))
    expect(calls[0]?.search.get('q')).toBe('a'.repeat(64))

    await userEvent.setup().click(screen.getByRole('button', { name: 'Open shop 1.0' }))
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    expect(await within(drawer).findByRole('heading', { name: 'Shop 1.0' })).toBeInTheDocument()
    expect(within(drawer).getByText('release').tagName).toBe('STRONG')
    const contents = within(drawer).getByRole('table', { name: 'Contents' })
    expect(within(contents).getByRole('row', { name: /hello-1\.0\.0\.tgz/ })).toHaveTextContent('hello 1.0.0')
    expect(within(contents).getByLabelText(`sha256 ${'a'.repeat(64)}`)).toHaveTextContent('aaaaaaaaaaaa…')
    expect(within(contents).getByRole('button', { name: `Copy sha256 ${'a'.repeat(64)}` })).toBeInTheDocument()
    expect(within(drawer).getByText('ed25519:4f2a9c')).toBeInTheDocument()
  })

  it('opens the bundle its address names, and tells the address what opens and closes', async () => {
    stubRoutes({
      [`GET ${UI}/release_bundles`]: () => json(200, { bundles: [summary()] }),
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, details({ origin: 'target', verified: true })),
    })
    const onOpened = vi.fn()
    await renderWithProviders(
      <ReleaseBundlesPage
        tab="target"
        onTab={() => {}}
        admin={false}
        distributionRunning
        query=""
        repositories={[]}
        Markdown={Readme}
        opened={{ name: 'shop', version: '1.0' }}
        onOpened={onOpened}
      />,
    )
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    expect(await within(drawer).findByText('verified')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(within(drawer).getByRole('button', { name: 'Close' }))
    expect(onOpened).toHaveBeenLastCalledWith(null, 'target')
    await user.click(await screen.findByRole('button', { name: 'Open shop 1.0' }))
    expect(onOpened).toHaveBeenLastCalledWith({ name: 'shop', version: '1.0' }, 'target')
  })

  it('says so when the node does not run the distribution module (every call answers 404)', async () => {
    stubRoutes({})
    await renderWithProviders(<Page />)
    expect(await screen.findByText(ReleaseBundleMessages.distributionOff)).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Target history' }))
    expect(await screen.findByText(ReleaseBundleMessages.distributionOff)).toBeInTheDocument()
  })

  it('calls nothing when no node of the instance runs distribution', async () => {
    const calls = stubRoutes({})
    await renderWithProviders(<Page admin running={false} />)
    expect(await screen.findByText(ReleaseBundleMessages.distributionOff)).toBeInTheDocument()
    const user = userEvent.setup()
    for (const tab of ['Target', 'Target history']) {
      await user.click(screen.getByRole('tab', { name: tab }))
      expect(await screen.findByText(ReleaseBundleMessages.distributionOff)).toBeInTheDocument()
    }
    expect(calls).toEqual([])
  })

  it('shows the target history, paged', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/history`]: (call) =>
        json(200, {
          total: 60,
          entries: [
            {
              id: Number(call.search.get('offset')) + 1,
              bundle: 'shop',
              version: '1.0',
              action: 'distribute',
              peer: 'edge',
              actor: 'admin',
              at: Date.UTC(2026, 10, 20),
              result: 'success',
              detail: '2 files, 3 MB',
            },
            {
              id: Number(call.search.get('offset')) + 2,
              bundle: 'shoq',
              version: '1.0',
              action: 'receive',
              peer: '10.0.0.7',
              actor: null,
              at: Date.UTC(2026, 10, 21),
              result: 'failure',
              detail: 'Refused bundle shoq 1.0: its signature does not verify',
            },
          ],
        }),
    })
    await renderWithProviders(<Page initial="target-history" />)
    const table = await screen.findByRole('table', { name: 'Target history' })
    expect(within(table).getByRole('row', { name: /shop/ })).toHaveTextContent(/Distributed.*edge.*admin.*success/)
    expect(within(table).getByRole('row', { name: /shoq/ })).toHaveTextContent(/Received.*10\.0\.0\.7.*failure.*does not verify/)
    expect(screen.getByText('60 entries')).toBeInTheDocument()
    expect(calls[0]?.search.get('limit')).toBe('50')
    expect(calls[0]?.search.get('offset')).toBe('0')
    await userEvent.setup().click(screen.getByRole('button', { name: '2' }))
    await waitFor(() => expect(calls.at(-1)?.search.get('offset')).toBe('50'))
  })

  it('finds bundles by checksum and opens one found', async () => {
    const sum = 'd'.repeat(40)
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles`]: () => json(200, { bundles: [] }),
      [`GET ${UI}/release_bundle/checksum/${sum}`]: () =>
        json(200, {
          data: [
            {
              name: 'shop',
              version: '1.0',
              origin: 'target',
              state: 'signed',
              created: 1,
              repoKey: 'npm-local',
              path: 'hello/-/hello-1.0.0.tgz',
              sha256: 'a'.repeat(64),
            },
          ],
        }),
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, details({ origin: 'target', verified: true })),
    })
    await renderWithProviders(<Page />)
    const user = userEvent.setup()
    const box = await screen.findByRole('region', { name: 'Find bundles by checksum' })
    await user.type(within(box).getByRole('textbox', { name: 'Checksum' }), 'not-a-sum{Enter}')
    expect(within(box).getByRole('textbox', { name: 'Checksum' })).toHaveAccessibleDescription(
      ReleaseBundleMessages.bundleChecksumInvalid,
    )
    await user.clear(within(box).getByRole('textbox', { name: 'Checksum' }))
    await user.type(within(box).getByRole('textbox', { name: 'Checksum' }), `${sum.toUpperCase()}{Enter}`)
    const matches = await within(box).findByRole('table', { name: 'Bundles with this checksum' })
    expect(within(matches).getByRole('row', { name: /shop/ })).toHaveTextContent(
      /target.*npm-local\/hello\/-\/hello-1\.0\.0\.tgz/,
    )
    expect(calls.find((c) => c.path.includes('/checksum/'))?.search.get('num_of_rows')).toBe('50')
    await user.click(within(matches).getByRole('button', { name: 'Open shop 1.0' }))
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    expect(await within(drawer).findByText('verified')).toBeInTheDocument()
    expect(calls.find((c) => c.path === `${UI}/release_bundles/shop/1.0`)?.search.get('origin')).toBe('target')
  })
})
