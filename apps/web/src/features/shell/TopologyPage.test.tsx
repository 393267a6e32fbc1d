import { screen, within } from '@testing-library/react'
import { TopologyMessages } from '@trove/contracts/topologyMessages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { stubRoutes } from '../../test/routeStub'
import { TopologyPage } from './TopologyPage'

afterEach(() => vi.unstubAllGlobals())

const NODES = 'GET /ui/api/v1/system/status/nodes'

describe('the topology page', () => {
  it('shows each node with its address, modules and health, and the setting that turns on a module that is off', async () => {
    stubRoutes({
      [NODES]: () =>
        json(200, [
          { node_id: 'a', url: 'http://10.0.0.11:8080', status: 'Online', services: ['repository'], last_heartbeat: 1 },
          { node_id: 'b', url: '', status: 'Offline', services: ['repository', 'scanner'], last_heartbeat: 1 },
        ]),
    })
    await renderWithProviders(<TopologyPage />)

    const a = await screen.findByRole('row', { name: 'Node a' })
    expect(within(a).getByText('http://10.0.0.11:8080')).toBeInTheDocument()
    expect(within(a).getByText('repository')).toBeInTheDocument()
    expect(within(a).getByText('Online')).toBeInTheDocument()
    const b = screen.getByRole('row', { name: 'Node b' })
    expect(within(b).getByText(TopologyMessages.noAddress)).toBeInTheDocument()
    expect(within(b).getByText('Offline')).toBeInTheDocument()

    const repository = screen.getByRole('region', { name: 'Artifact Repository' })
    expect(within(repository).getByText('Running')).toBeInTheDocument()
    expect(within(repository).getByText('Runs on a')).toBeInTheDocument()

    const scanner = screen.getByRole('region', { name: 'Security Scanner' })
    expect(within(scanner).getByText('Not running')).toBeInTheDocument()
    expect(within(scanner).getByText('To turn it on, restart node a with')).toBeInTheDocument()
    expect(within(scanner).getByText('TROVE_MODULES=repository,scanner')).toBeInTheDocument()
    expect(within(scanner).getByText('Set up on b, offline now.')).toBeInTheDocument()

    const distribution = screen.getByRole('region', { name: 'Distribution' })
    expect(within(distribution).getByText('TROVE_MODULES=repository,distribution')).toBeInTheDocument()

    // A service Trove has no module for offers no setting.
    const pipelines = screen.getByRole('region', { name: 'Pipelines' })
    expect(within(pipelines).getByText(TopologyMessages.notPartOfTrove)).toBeInTheDocument()
    expect(within(pipelines).queryByText(/TROVE_MODULES/)).not.toBeInTheDocument()
  })

  it('says to unset TROVE_MODULES when that runs the last module left', async () => {
    stubRoutes({
      [NODES]: () =>
        json(200, [
          { node_id: 'a', url: 'http://a:8080', status: 'Online', services: ['repository', 'scanner'], last_heartbeat: 1 },
        ]),
    })
    await renderWithProviders(<TopologyPage />)
    const distribution = await screen.findByRole('region', { name: 'Distribution' })
    expect(await within(distribution).findByText('unset TROVE_MODULES')).toBeInTheDocument()
  })

  it("shows the server's refusal", async () => {
    stubRoutes({ [NODES]: () => json(403, { errors: [{ status: 403, message: 'Forbidden' }] }) })
    await renderWithProviders(<TopologyPage />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden')
  })
})
