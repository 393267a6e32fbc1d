import { Notifications, notifications } from '@mantine/notifications'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { format, Messages } from '@trove/contracts/messages'
import type { SecurityWatch } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { sentJson, stubRoutes } from '../../test/routeStub'
import { WatchesPage } from './WatchesPage'

const API = '/ui/api/v1/xray/ui/admin'
const POLICY = {
  name: 'no-high',
  description: '',
  minSeverity: 'high',
  allowedLicenses: null,
  deniedLicenses: [],
  actions: { notify: true, failBuild: false, blockDownload: true },
}
const NPM: SecurityWatch = { name: 'npm', repositories: ['npm-local'], builds: [], projects: [], policies: ['no-high'] }

const render = () =>
  renderWithProviders(
    <>
      <Notifications />
      <WatchesPage repositories={['maven-local', 'npm-local', 'pypi-remote']} />
    </>,
  )

describe('the watches screen', { timeout: 40_000 }, () => {
  afterEach(() => {
    notifications.clean()
    vi.unstubAllGlobals()
  })

  it('lists each watch with what it covers (repositories or all, projects, builds) and its policies', async () => {
    stubRoutes({
      [`GET ${API}/watches`]: () =>
        json(200, [
          NPM,
          { ...NPM, name: 'everything', repositories: ['*'] },
          { ...NPM, name: 'release', repositories: [], projects: ['acme'], builds: ['*'] },
        ]),
    })
    await render()
    expect(await screen.findByRole('row', { name: /^npm/ })).toHaveTextContent('npm-local')
    expect(screen.getByRole('row', { name: /everything/ })).toHaveTextContent('All repositories')
    expect(screen.getByRole('row', { name: /release/ })).toHaveTextContent('project acme')
    expect(screen.getByRole('row', { name: /release/ })).toHaveTextContent('every build')
  })

  it('needs repositories and a policy, then creates the watch on the repositories picked', async () => {
    const calls = stubRoutes({
      [`GET ${API}/watches`]: () => json(200, []),
      [`GET ${API}/policies`]: () => json(200, [POLICY]),
      [`POST ${API}/watches`]: () => json(201, { name: 'npm' }),
    })
    await render()
    const user = userEvent.setup()
    expect(await screen.findByText(ScreenMessages.scannerNoWatches)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'New watch' }))
    const dialog = await screen.findByRole('dialog', { name: 'New watch' })
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveAccessibleDescription(Messages.fieldMandatory)
    expect(within(dialog).getByText(ScreenMessages.scannerWatchNeedsRepository)).toBeInTheDocument()
    expect(within(dialog).getByText(ScreenMessages.scannerWatchNeedsPolicy)).toBeInTheDocument()

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'npm')
    await user.click(within(dialog).getByRole('combobox', { name: 'Repositories' }))
    await user.click(await screen.findByRole('option', { name: 'npm-local', hidden: true }))
    await user.click(within(dialog).getByRole('combobox', { name: /Policies/ }))
    await user.click(await screen.findByRole('option', { name: 'no-high', hidden: true }))
    await user.click(within(dialog).getByRole('button', { name: 'Create' }))
    expect(await screen.findByText(format(ScreenMessages.scannerWatchSaved, { name: 'npm' }))).toBeInTheDocument()
    expect(sentJson(calls.find((c) => c.method === 'POST'))).toEqual(NPM)
  })

  it("sends '*' for all repositories and shows a refused policy on its field", async () => {
    const calls = stubRoutes({
      [`GET ${API}/watches`]: () => json(200, [NPM]),
      [`GET ${API}/policies`]: () => json(200, []),
      [`PUT ${API}/watches/npm`]: () => json(400, { errors: [{ status: 400, message: 'policies: no policy named no-high' }] }),
    })
    await render()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Edit npm' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit watch npm' })
    expect(await within(dialog).findByText(ScreenMessages.scannerNoPoliciesToApply)).toBeInTheDocument()
    await user.click(within(dialog).getByRole('checkbox', { name: /All repositories/ }))
    expect(within(dialog).getByRole('combobox', { name: 'Repositories' })).toBeDisabled()
    await user.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: /Policies/ })).toHaveAccessibleDescription('no policy named no-high'),
    )
    expect(sentJson(calls.find((c) => c.method === 'PUT'))).toMatchObject({ repositories: ['*'], policies: ['no-high'] })
  })
})
