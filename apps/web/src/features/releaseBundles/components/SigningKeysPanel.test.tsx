import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { SigningKey } from '@trove/contracts/distribution'
import { format } from '@trove/contracts/messages'
import { ReleaseBundleMessages } from '@trove/contracts/releaseBundleMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { renderWithProviders } from '../../../test/render'
import { stubRoutes } from '../../../test/routeStub'
import { UI } from '../testData'
import { SigningKeysPanel } from './SigningKeysPanel'

const key = (id: string, active: boolean, createdAt: number): SigningKey => ({
  id,
  algorithm: 'ed25519',
  publicKey: '-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----\n',
  createdAt,
  active,
})

describe('the signing keys panel', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('lists the keys with the active one marked, links the published keys, and rotates after asking', async () => {
    let keys = [key('ed25519:old', true, 1)]
    const calls = stubRoutes({
      [`GET ${UI}/keys`]: () => json(200, { keys }),
      [`POST ${UI}/keys/rotate`]: () => {
        keys = [key('ed25519:new', true, 2), key('ed25519:old', false, 1)]
        return json(200, keys[0])
      },
    })
    await renderWithProviders(
      <>
        <Notifications />
        <SigningKeysPanel />
      </>,
    )
    const user = userEvent.setup()
    const panel = await screen.findByRole('region', { name: 'Signing keys' })
    const table = await within(panel).findByRole('table', { name: 'Signing keys' })
    expect(within(table).getByRole('row', { name: /ed25519:old/ })).toHaveTextContent('active')
    expect(within(panel).getByRole('link', { name: '/.well-known/trove/release-bundle-keys' })).toHaveAttribute(
      'href',
      '/.well-known/trove/release-bundle-keys',
    )

    await user.click(within(panel).getByRole('button', { name: 'Rotate' }))
    const confirm = await screen.findByRole('dialog', { name: 'Rotate signing key' })
    expect(confirm).toHaveTextContent(ReleaseBundleMessages.bundleKeyRotateConfirm)
    // Asking first: nothing is rotated until confirmed.
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await user.click(within(confirm).getByRole('button', { name: 'Rotate' }))
    expect(await screen.findByText(format(ReleaseBundleMessages.bundleKeyRotated, { id: 'ed25519:new' }))).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${UI}/keys/rotate`])

    await waitFor(() => expect(within(table).getByRole('row', { name: /ed25519:new/ })).toHaveTextContent('active'))
    expect(within(table).getByRole('row', { name: /ed25519:old/ })).not.toHaveTextContent('active')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rotate signing key' })).not.toBeInTheDocument())
  })
})
