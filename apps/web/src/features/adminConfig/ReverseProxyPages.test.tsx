import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReverseProxy } from '@trove/contracts/shell'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import { renderWithProviders } from '../../test/render'
import { ReverseProxyFormPage, ReverseProxyListPage } from './ReverseProxyPages'

afterEach(() => vi.unstubAllGlobals())

const PROXIES = '/ui/api/v1/ui/admin/reverseProxies'
const EDGE = `${PROXIES}/edge`
const NGINX_FILE = 'upstream trove_edge {\n    server 10.0.0.11:8080;\n}\n'
const HAPROXY_FILE = 'backend trove_edge\n    balance roundrobin\n    server node1 10.0.0.11:8080\n'

// Saved before haproxy was offered: no webServerType, so nginx.
const edge: ReverseProxy = {
  key: 'edge',
  serverName: 'repo.example.org',
  dockerReverseProxyMethod: 'REPOPATHPREFIX',
  reverseProxyRepositories: [],
  useHttps: false,
  useHttp: true,
  httpsPort: 443,
  httpPort: 80,
  sslCertificate: '',
  sslKey: '',
  upstreamUrl: 'http://10.0.0.11:8080',
  clusterNodeUrls: [],
}

describe('ReverseProxyFormPage', () => {
  it('writes the proxy for HAProxy once picked and saved, and shows its configuration to copy or download', async () => {
    let saved = edge
    const mock = stubFetch({
      [EDGE]: (init) => {
        if (init?.method === 'PUT') saved = JSON.parse(String(init.body)) as ReverseProxy
        return json(200, saved)
      },
      [`${EDGE}/nginx`]: () => json(200, { config: NGINX_FILE }),
      [`${EDGE}/haproxy`]: () => json(200, { config: HAPROXY_FILE }),
    })
    const onSaved = vi.fn()
    await renderWithProviders(<ReverseProxyFormPage proxyName="edge" onSaved={onSaved} />)

    const nginx = await screen.findByRole('region', { name: 'nginx configuration' })
    expect(await within(nginx).findByText(/upstream trove_edge/)).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'nginx' })).toBeChecked()

    await userEvent.click(screen.getByRole('radio', { name: 'HAProxy' }))
    await userEvent.click(screen.getByRole('checkbox', { name: 'HTTPS' }))
    // haproxy reads the certificate and its key from one PEM file: there is no key field.
    expect(screen.queryByRole('textbox', { name: 'Key file' })).not.toBeInTheDocument()
    await userEvent.type(screen.getByRole('textbox', { name: 'Certificate file' }), '/etc/haproxy/certs/edge.pem')
    // Not saved yet: the file shown is still the saved proxy's.
    expect(screen.getByRole('region', { name: 'nginx configuration' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))

    const haproxy = await screen.findByRole('region', { name: 'HAProxy configuration' })
    expect(await within(haproxy).findByText(/backend trove_edge/)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'nginx configuration' })).not.toBeInTheDocument()
    const download = within(haproxy).getByRole('link', { name: 'Download' })
    expect(download).toHaveAttribute('download', 'edge.cfg')
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toBe(`data:text/plain;charset=utf-8,${HAPROXY_FILE}`)
    expect(within(haproxy).getByRole('button', { name: 'Copy' })).toBeInTheDocument()

    const put = (mock.mock.calls as unknown as [URL, RequestInit | undefined][]).find(([, init]) => init?.method === 'PUT')
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({
      webServerType: 'haproxy',
      useHttps: true,
      sslCertificate: '/etc/haproxy/certs/edge.pem',
    })
    expect(onSaved).toHaveBeenCalledWith('edge')
  }, 20_000)
})

describe('ReverseProxyListPage', () => {
  it('names the web server of each proxy, nginx for one saved without a choice', async () => {
    stubFetch({ [PROXIES]: () => json(200, { proxies: [edge, { ...edge, key: 'lb', webServerType: 'haproxy' }] }) })
    await renderWithProviders(<ReverseProxyListPage />)
    expect(await screen.findByRole('row', { name: /^edge .* nginx/ })).toBeInTheDocument()
    expect(screen.getByRole('row', { name: /^lb .* HAProxy/ })).toBeInTheDocument()
  })
})
