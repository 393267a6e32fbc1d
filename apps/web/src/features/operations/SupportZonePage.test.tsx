import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { SupportZonePage } from './SupportZonePage'

const RETENTION = '/ui/api/v1/ui/bundle/retention/config/enable'
const node = (service: string) => ({
  node_id: 'n1',
  service_id: `${service}@n1`,
  status: 'Online',
  url: 'http://n1:8080',
  version: '0.1.0',
  start_time: 0,
  micro_services: {},
})
const stub = (services: string[]) =>
  stubFetch({
    '/ui/api/v1/system/status/ha': () => json(200, Object.fromEntries(services.map((s) => [s, { nodes: [node(s)] }]))),
    '/ui/api/v1/ui/userSupport/listBundles': () => json(200, []),
    [RETENTION]: () => json(200, { enable: true }),
  })
const asked = (fetch: ReturnType<typeof stub>) => fetch.mock.calls.some(([url]) => String(url).includes(RETENTION))

afterEach(() => vi.unstubAllGlobals())

describe('the support zone', () => {
  it('asks for target bundle retention while a node runs distribution', async () => {
    const fetch = stub(['repository', 'distribution'])
    await renderWithProviders(<SupportZonePage admin />)
    expect(await screen.findByText('Target bundle retention: enabled')).toBeInTheDocument()
    expect(asked(fetch)).toBe(true)
  })

  it('asks nobody when no node runs distribution: retention is off', async () => {
    const fetch = stub(['repository'])
    await renderWithProviders(<SupportZonePage admin />)
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).includes('/system/status/ha'))).toBe(true))
    expect(await screen.findByText('Target bundle retention: disabled')).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 200))
    expect(asked(fetch)).toBe(false)
  })
})
