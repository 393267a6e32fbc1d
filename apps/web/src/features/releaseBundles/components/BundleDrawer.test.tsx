import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { BundleDetails, DistributionView } from '@trove/contracts/distribution'
import { format } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { sentJson, stubRoutes } from '../../../test/routeStub'
import { details, UI } from '../testData'
import { BundleDrawer } from './BundleDrawer'

const Markdown = ({ text }: { text: string }) => <div>{text}</div>
const REPOSITORIES = [{ key: 'files', packageType: 'generic' }]
const render = (origin: 'source' | 'target' = 'source') =>
  renderWithProviders(
    <>
      <Notifications />
      <BundleDrawer
        origin={origin}
        bundle={{ name: 'shop', version: '1.0' }}
        onClose={vi.fn()}
        Markdown={Markdown}
        repositories={REPOSITORIES}
      />
    </>,
  )
const sending = (over: Partial<DistributionView>): DistributionView => ({
  target: 'edge',
  state: 'running',
  filesDone: 3,
  filesTotal: 4,
  bytesDone: 1024 * 1024,
  bytesTotal: 2 * 1024 * 1024,
  attempts: 1,
  lastError: null,
  startedAt: 1,
  finishedAt: null,
  nextAttemptAt: null,
  ...over,
})

describe('a bundle’s details', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('signs an open bundle with POST …/sign and shows it signed', async () => {
    let bundle: BundleDetails = details({ state: 'open', signedAt: null, keyId: null, signature: null })
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, bundle),
      [`POST ${UI}/release_bundles/shop/1.0/sign`]: () => {
        bundle = details()
        return json(200, bundle)
      },
    })
    await render()
    const user = userEvent.setup()
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    expect(await within(drawer).findByText(ReleaseBundleMessages.bundleNotSigned)).toBeInTheDocument()
    expect(within(drawer).queryByRole('button', { name: 'Distribute' })).not.toBeInTheDocument()
    expect(within(drawer).getByRole('button', { name: 'Edit' })).toBeInTheDocument()
    await user.click(within(drawer).getByRole('button', { name: 'Sign' }))
    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleSigned, { name: 'shop', version: '1.0' })),
    ).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${UI}/release_bundles/shop/1.0/sign`])
    expect(await within(drawer).findByRole('button', { name: 'Distribute' })).toBeInTheDocument()
    expect(within(drawer).queryByRole('button', { name: 'Sign' })).not.toBeInTheDocument()
    // A signed bundle is frozen: nothing to edit.
    expect(within(drawer).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
  })

  it('notifies the server’s refusal to sign', async () => {
    stubRoutes({
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, details({ state: 'open', contents: [] })),
      [`POST ${UI}/release_bundles/shop/1.0/sign`]: () =>
        json(400, { errors: [{ status: 400, message: 'Release bundle shop 1.0 names no file: add some before signing' }] }),
    })
    await render()
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign' }))
    expect(await screen.findByText('Release bundle shop 1.0 names no file: add some before signing')).toBeInTheDocument()
  })

  it('distributes to the targets picked, then shows the progress, polled while it runs', async () => {
    let bundle = details()
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, bundle),
      [`GET ${UI}/targets`]: () =>
        json(200, {
          targets: [
            { name: 'edge', url: 'http://edge.example.com', createdAt: 1, createdBy: 'admin' },
            { name: 'eu', url: 'http://eu.example.com', createdAt: 1, createdBy: 'admin' },
          ],
        }),
      [`POST ${UI}/release_bundles/shop/1.0/distribute`]: () => {
        bundle = details({ distributions: [sending({ state: 'waiting', filesDone: 0, bytesDone: 0, attempts: 0 })] })
        return json(202, bundle)
      },
    })
    await render()
    const user = userEvent.setup()
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    expect(await within(drawer).findByText(ReleaseBundleMessages.bundleNotDistributed)).toBeInTheDocument()
    await user.click(within(drawer).getByRole('button', { name: 'Distribute' }))
    const dialog = await screen.findByRole('dialog', { name: 'Distribute shop 1.0' })
    await user.click(await within(dialog).findByRole('checkbox', { name: /edge/ }))
    await user.click(within(dialog).getByRole('button', { name: 'Distribute' }))
    expect(
      await screen.findByText(
        format(ReleaseBundleMessages.bundleDistributing, { name: 'shop', version: '1.0', targets: 'edge' }),
      ),
    ).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'POST'))).toEqual({ targets: ['edge'] })

    const table = await within(drawer).findByRole('table', { name: 'Distributions' })
    expect(within(table).getByRole('row', { name: /edge/ })).toHaveTextContent('waiting')
    // The distributor moves on; the details are read again (every 2 s) while it is in flight.
    bundle = details({ distributions: [sending({ lastError: 'connect ECONNREFUSED', attempts: 2 })] })
    await waitFor(() => expect(within(table).getByRole('row', { name: /edge/ })).toHaveTextContent('running'), { timeout: 5000 })
    const row = within(table).getByRole('row', { name: /edge/ })
    expect(row).toHaveTextContent('3/4 files (75%), 1.0 MB of 2.0 MB')
    expect(row).toHaveTextContent('connect ECONNREFUSED')
    expect(within(row).getByRole('progressbar', { name: 'Progress to edge' })).toHaveAttribute('aria-valuenow', '50')
  })

  it('lets a user who may not list the targets type their names', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles/shop/1.0`]: () => json(200, details()),
      [`GET ${UI}/targets`]: () => json(403, { errors: [{ status: 403, message: 'Only administrators may do this' }] }),
      [`POST ${UI}/release_bundles/shop/1.0/distribute`]: () =>
        json(403, { errors: [{ status: 403, message: 'You may not distribute release bundle shop' }] }),
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Distribute' }))
    const dialog = await screen.findByRole('dialog', { name: 'Distribute shop 1.0' })
    expect(await within(dialog).findByText(ReleaseBundleMessages.bundleTargetsAdminOnly)).toBeInTheDocument()
    await user.type(within(dialog).getByRole('textbox', { name: 'Targets' }), 'edge, eu')
    await user.click(within(dialog).getByRole('button', { name: 'Distribute' }))
    expect(await within(dialog).findByText('You may not distribute release bundle shop')).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'POST'))).toEqual({ targets: ['edge', 'eu'] })
  })

  it('removes from one target, recalls everywhere, and deletes after asking', async () => {
    const onClose = vi.fn()
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles/shop/1.0`]: () =>
        json(200, details({ distributions: [sending({ state: 'completed', filesDone: 4, bytesDone: 2 * 1024 * 1024 })] })),
      [`DELETE ${UI}/release_bundles/shop/1.0/targets/edge`]: () => new Response(null, { status: 202 }),
      [`POST ${UI}/release_bundles/shop/1.0/recall`]: () => new Response(null, { status: 202 }),
      [`DELETE ${UI}/release_bundles/shop/1.0`]: () => new Response(null, { status: 204 }),
    })
    await renderWithProviders(
      <>
        <Notifications />
        <BundleDrawer
          origin="source"
          bundle={{ name: 'shop', version: '1.0' }}
          onClose={onClose}
          Markdown={Markdown}
          repositories={REPOSITORIES}
        />
      </>,
    )
    const user = userEvent.setup()
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    await user.click(await within(drawer).findByRole('button', { name: 'Remove from edge' }))
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove release bundle' })).getByRole('button', { name: 'Remove' }),
    )
    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleRemoving, { name: 'shop', version: '1.0', target: 'edge' })),
    ).toBeInTheDocument()

    await user.click(within(drawer).getByRole('button', { name: 'Recall everywhere' }))
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove release bundle' })).getByRole('button', { name: 'Remove' }),
    )
    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleRecalling, { name: 'shop', version: '1.0' })),
    ).toBeInTheDocument()

    await user.click(within(drawer).getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete release bundle' })
    expect(confirm).toHaveTextContent(format(ReleaseBundleMessages.bundleDeleteConfirm, { name: 'shop', version: '1.0' }))
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    expect(
      await screen.findByText(format(ReleaseBundleMessages.bundleDeleted, { name: 'shop', version: '1.0' })),
    ).toBeInTheDocument()
    expect(onClose).toHaveBeenCalled()
    expect(
      calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}${c.search.size ? `?${c.search}` : ''}`),
    ).toEqual([
      `DELETE ${UI}/release_bundles/shop/1.0/targets/edge`,
      `POST ${UI}/release_bundles/shop/1.0/recall`,
      `DELETE ${UI}/release_bundles/shop/1.0?origin=source`,
    ])
  })

  it('shows a received bundle’s source and signature, and deletes it with its files', async () => {
    const calls = stubRoutes({
      [`GET ${UI}/release_bundles/shop/1.0`]: () =>
        json(200, details({ origin: 'target', verified: true, sourceUrl: 'http://source.example.com' })),
      [`DELETE ${UI}/release_bundles/shop/1.0`]: () => new Response(null, { status: 204 }),
    })
    await render('target')
    const user = userEvent.setup()
    const drawer = await screen.findByRole('dialog', { name: /shop/ })
    expect(await within(drawer).findByText('verified')).toBeInTheDocument()
    expect(within(drawer).getByRole('link', { name: 'http://source.example.com' })).toBeInTheDocument()
    expect(within(drawer).getByText('ed25519:4f2a9c')).toBeInTheDocument()
    expect(within(drawer).queryByRole('table', { name: 'Distributions' })).not.toBeInTheDocument()
    expect(within(drawer).queryByRole('button', { name: 'Distribute' })).not.toBeInTheDocument()
    expect(within(drawer).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument()
    await user.click(within(drawer).getByRole('button', { name: 'Delete' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete release bundle' })
    expect(confirm).toHaveTextContent(format(ReleaseBundleMessages.bundleDeleteReceivedConfirm, { name: 'shop', version: '1.0' }))
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.search.get('origin')).toBe('target'))
  })
})
