import { Messages } from '@trove/contracts/messages'
import { PACKAGE_TYPES } from '@trove/contracts/repositoryConstants'
import type { ReverseProxy } from '@trove/contracts/shell'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

let t: TestApp
let admin: Session
const api = (path: string) => `/ui/api/v1/ui${path}`

beforeAll(async () => {
  t = await createTestApp({ TROVE_FEATURES: 'tested,-helpLinks', TROVE_FLAVOUR: 'jcr' })
  admin = await signIn(t.fastify)
})
afterAll(() => t.close())

const get = (path: string, session?: Session) =>
  t.fastify.inject({ method: 'GET', url: api(path), headers: session ? { cookie: session.cookie } : {} })
const send = (method: 'PUT' | 'POST' | 'DELETE', path: string, payload?: object, session = admin) =>
  payload === undefined
    ? t.fastify.inject({ method, url: api(path), headers: sessionHeaders(session) })
    : t.fastify.inject({ method, url: api(path), headers: sessionHeaders(session), payload })

describe('start-up calls (shell §4.5)', () => {
  it('answer the first five to anyone', async () => {
    for (const path of ['/auth/current', '/frontend/version', '/microservices', '/auth/screen/footer', '/entitlements']) {
      expect((await get(path)).statusCode, path).toBe(200)
    }
  })

  it('answer microservices from the node registry: a service is enabled while an Online node beats for it', async () => {
    const enabled = async () =>
      ((await get('/microservices')).json().services as { name: string; enabled: boolean }[])
        .filter((s) => s.enabled)
        .map((s) => s.name)
    // This process runs the repository module only (the tests' default).
    expect(await enabled()).toEqual(['repository'])
    const names = ((await get('/microservices')).json().services as { name: string }[]).map((s) => s.name)
    expect(names).toEqual(['repository', 'scanner', 'distribution', 'mission-control', 'insight', 'pipelines', 'tracker'])

    // A second node joins, running the scanner and distribution, and beats.
    const db = t.app.db.kysely
    const now = Date.now()
    await db
      .insertInto('nodes')
      .values({
        node_id: 'scanner-node',
        url: 'http://10.0.0.9:8080',
        version: '1',
        started_at: now,
        heartbeat_ms: 5000,
        last_heartbeat: now,
      })
      .execute()
    await db
      .insertInto('node_services')
      .values(
        ['scanner', 'distribution'].map((service) => ({
          node_id: 'scanner-node',
          service,
          started_at: now,
          last_heartbeat: now,
        })),
      )
      .execute()
    expect(await enabled()).toEqual(['repository', 'scanner', 'distribution'])

    // Its heartbeats stop: once it is Offline its services are no longer enabled.
    const old = now - 60_000
    await db.updateTable('nodes').set({ last_heartbeat: old }).where('node_id', '=', 'scanner-node').execute()
    await db.updateTable('node_services').set({ last_heartbeat: old }).where('node_id', '=', 'scanner-node').execute()
    expect(await enabled()).toEqual(['repository'])
    await db.deleteFrom('node_services').where('node_id', '=', 'scanner-node').execute()
    await db.deleteFrom('nodes').where('node_id', '=', 'scanner-node').execute()
  })

  it('take the flavour and the features from configuration', async () => {
    const e = (await get('/entitlements')).json()
    expect(e).toMatchObject({ flavour: 'jcr', deployment: 'onprem', cloudTrial: false, readOnly: false })
    expect(e.license).toEqual({ type: 'OSS', licensedTo: null, validThrough: null })
    const f = (await get('/featureConfig')).json().features
    expect(f.tested).toBe(true)
    expect(f.helpLinks).toBe(false)
    expect(f.projects).toBe(true)
  })

  it('refuse the rest to an anonymous caller while anonymous access is off', async () => {
    for (const path of [
      '/shell/projects',
      '/shell/samlLogoutUrl',
      '/shell/availablePackages',
      '/shell/repoData',
      '/subscription/blockedUsages',
      '/system/configuration/webServer',
      '/onboarding/initStatus',
      '/localStorage',
    ]) {
      expect((await get(path)).statusCode, path).toBe(401)
    }
  })

  it('answer the rest to a signed-in user from the database', async () => {
    expect((await get('/shell/projects', admin)).json().projects[0]).toEqual({
      key: 'dflt',
      name: 'Default Project',
      admin: true,
    })
    expect((await get('/shell/samlLogoutUrl', admin)).json()).toEqual({ logoutUrl: null })
    // The formats this build serves, not a wish list.
    expect((await get('/shell/availablePackages', admin)).json().packageTypes.sort()).toEqual([...PACKAGE_TYPES].sort())
    expect((await get('/shell/repoData', admin)).json()).toEqual({ local: 0, remote: 0, virtual: 0, federated: 0 })
    const onboarding = (await get('/onboarding/initStatus', admin)).json()
    expect(onboarding).toMatchObject({ hasOnlyDefaultRepos: true, isOnboardingNeeded: true, isWizardClosed: false })
    expect((await get('/subscription/blockedUsages', admin)).json().dataTransfer).toBe(false)
    expect((await get('/system/configuration/webServer', admin)).json()).toEqual({ baseUrl: null, reverseProxies: [] })
  })

  it('count for anonymous callers only the repositories anonymous may read', async () => {
    const call = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.fastify.inject({ method, url, headers: sessionHeaders(admin), ...(payload ? { payload } : {}) })
    expect((await call('PUT', '/api/repositories/open-local', { rclass: 'local', packageType: 'generic' })).statusCode).toBe(201)
    expect((await call('PUT', '/api/repositories/hidden-local', { rclass: 'local', packageType: 'generic' })).statusCode).toBe(
      201,
    )
    expect(
      (
        await call('PUT', '/api/repositories/hidden-remote', {
          rclass: 'remote',
          packageType: 'npm',
          url: 'https://registry.example.com/',
        })
      ).statusCode,
    ).toBe(201)
    expect((await call('PUT', '/ui/api/v1/ui/admin/security/anonymous-access', { enabled: true })).statusCode).toBe(200)
    const granted = await call('POST', '/ui/api/v1/ui/admin/permissions', {
      name: 'anonymous-reads-open',
      repositories: { resources: { names: ['open-local'] }, grants: [{ kind: 'anonymous', actions: ['read'] }] },
    })
    expect(granted.statusCode).toBe(201)
    try {
      expect((await get('/shell/repoData')).json()).toEqual({ local: 1, remote: 0, virtual: 0, federated: 0 })
      expect((await get('/shell/repoData', admin)).json()).toEqual({ local: 2, remote: 1, virtual: 0, federated: 0 })
    } finally {
      await call('DELETE', '/ui/api/v1/ui/admin/permissions/anonymous-reads-open')
      await call('PUT', '/ui/api/v1/ui/admin/security/anonymous-access', { enabled: false })
      for (const key of ['open-local', 'hidden-local', 'hidden-remote']) await call('DELETE', `/api/repositories/${key}`)
    }
  })

  it('count repositories by class from the repositories the server holds', async () => {
    const create = (key: string, payload: object) =>
      t.fastify.inject({ method: 'PUT', url: `/api/repositories/${key}`, headers: sessionHeaders(admin), payload })
    expect((await create('counted-local', { rclass: 'local', packageType: 'npm' })).statusCode).toBe(201)
    expect((await create('counted-local-2', { rclass: 'local', packageType: 'generic' })).statusCode).toBe(201)
    expect(
      (await create('counted-virtual', { rclass: 'virtual', packageType: 'npm', repositories: ['counted-local'] })).statusCode,
    ).toBe(201)
    expect((await get('/shell/repoData', admin)).json()).toEqual({ local: 2, remote: 0, virtual: 1, federated: 0 })
    expect((await get('/onboarding/initStatus', admin)).json()).toMatchObject({
      hasOnlyDefaultRepos: false,
      isOnboardingNeeded: false,
    })
    for (const key of ['counted-virtual', 'counted-local-2', 'counted-local']) {
      await t.fastify.inject({ method: 'DELETE', url: `/api/repositories/${key}`, headers: sessionHeaders(admin) })
    }
    expect((await get('/shell/repoData', admin)).json()).toEqual({ local: 0, remote: 0, virtual: 0, federated: 0 })
  })

  it('give the SAML logout URL when SAML is on, and only an http(s) one', async () => {
    const { setSetting } = await import('../../core/settings.js')
    await setSetting(t.app.db.kysely, 'security.saml', { enabled: true, logoutUrl: 'https://idp.example.org/logout' })
    expect((await get('/shell/samlLogoutUrl', admin)).json()).toEqual({ logoutUrl: 'https://idp.example.org/logout' })
    await setSetting(t.app.db.kysely, 'security.saml', { enabled: true, logoutUrl: 'javascript:alert(1)' })
    expect((await get('/shell/samlLogoutUrl', admin)).json()).toEqual({ logoutUrl: null })
    await setSetting(t.app.db.kysely, 'security.saml', { enabled: false, logoutUrl: 'https://idp.example.org/logout' })
    expect((await get('/shell/samlLogoutUrl', admin)).json()).toEqual({ logoutUrl: null })
  })

  it('keep a user’s console state', async () => {
    expect(
      (await send('PUT', '/localStorage', { 'menu.application': '/packages', 'onboarding.wizardClosed': 'true' })).statusCode,
    ).toBe(204)
    expect((await get('/localStorage', admin)).json()).toEqual({
      'menu.application': '/packages',
      'onboarding.wizardClosed': 'true',
    })
    expect((await get('/onboarding/initStatus', admin)).json()).toMatchObject({ isWizardClosed: true, isOnboardingNeeded: false })
    await send('PUT', '/localStorage', { 'menu.application': null })
    expect((await get('/localStorage', admin)).json()).toEqual({ 'onboarding.wizardClosed': 'true' })
  })

  it('report the data-transfer quota an admin marks as reached', async () => {
    expect((await send('PUT', '/admin/subscription/blockedUsages', { dataTransfer: true })).statusCode).toBe(204)
    expect((await get('/subscription/blockedUsages', admin)).json().dataTransfer).toBe(true)
    await send('PUT', '/admin/subscription/blockedUsages', { dataTransfer: false })
  })
})

describe('licences', () => {
  it('install, expire and remove; an expired licence is N/A', async () => {
    const future = Date.now() + 86_400_000
    const installed = await send('PUT', '/admin/license', { type: 'ENTERPRISE_PLUS', licensedTo: 'Acme', validThrough: future })
    expect(installed.json()).toEqual({ type: 'ENTERPRISE_PLUS', licensedTo: 'Acme', validThrough: future })
    expect((await get('/entitlements')).json().license.type).toBe('ENTERPRISE_PLUS')
    const past = await send('PUT', '/admin/license', { type: 'PRO', licensedTo: 'Acme', validThrough: Date.now() - 1 })
    expect(past.statusCode).toBe(400)
    expect(past.json().errors[0].message).toMatch(/validThrough/)
    expect((await send('DELETE', '/admin/license')).json().type).toBe('N/A')
    expect((await get('/entitlements')).json().license).toEqual({ type: 'N/A', licensedTo: null, validThrough: null })
    await send('PUT', '/admin/license', { type: 'OSS', licensedTo: 'Everyone', validThrough: null })
  })

  it('are for admins only', async () => {
    expect((await get('/admin/license')).statusCode).toBe(401)
    await t.fastify.inject({
      method: 'PUT',
      url: api('/admin/security/registration'),
      headers: sessionHeaders(admin),
      payload: { enabled: true },
    })
    const made = await t.fastify.inject({
      method: 'POST',
      url: api('/auth/register'),
      payload: { name: 'uma', email: 'uma@example.com', password: 'uma-password' },
    })
    expect(made.statusCode).toBeLessThan(300)
    const uma = await signIn(t.fastify, 'uma', 'uma-password')
    for (const path of ['/admin/license', '/admin/instance', '/generalConfig', '/admin/reverseProxies']) {
      expect((await get(path, uma)).statusCode, path).toBe(403)
    }
    expect((await send('PUT', '/generalConfig', { serverName: 'x', baseUrl: '', readOnly: true }, uma)).statusCode).toBe(403)
    // A user's own console state is theirs.
    expect((await send('PUT', '/localStorage', { a: 'b' }, uma)).statusCode).toBe(204)
    expect((await get('/localStorage', admin)).json()).not.toHaveProperty('a')
    expect((await get('/onboarding/initStatus', uma)).json().isOnboardingNeeded).toBe(false)
  })
})

describe('instance model', () => {
  it('an admin changes the flavour, deployment and flags; other flags stay', async () => {
    const res = await send('PUT', '/admin/instance', { deployment: 'cloud', features: { homePage: true } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ flavour: 'jcr', deployment: 'cloud' })
    expect(res.json().features).toMatchObject({ homePage: true, tested: true, helpLinks: false })
    expect((await send('PUT', '/admin/instance', { features: { nonsense: true } })).statusCode).toBe(400)
    await send('PUT', '/admin/instance', { deployment: 'onprem', features: { homePage: false } })
  })
})

describe('general configuration', () => {
  it('keeps the server name, which the page titles then use', async () => {
    const res = await send('PUT', '/generalConfig', {
      serverName: 'Acme Artifacts',
      baseUrl: 'https://repo.acme.test',
      readOnly: false,
    })
    expect(res.json()).toEqual({
      serverName: 'Acme Artifacts',
      baseUrl: 'https://repo.acme.test',
      readOnly: false,
      hasLogo: false,
    })
    expect((await get('/auth/screen/footer')).json().serverName).toBe('Acme Artifacts')
    expect(
      (await send('PUT', '/generalConfig', { serverName: 'x', baseUrl: 'not a url', readOnly: false })).json().errors[0].message,
    ).toMatch(/baseUrl/)
  })

  it('normalises a repository base URL to end with a slash', async () => {
    const res = await send('PUT', '/generalConfig', {
      serverName: 'Acme',
      baseUrl: 'https://acme.test/artifactory',
      readOnly: false,
    })
    expect(res.json().baseUrl).toBe('https://acme.test/artifactory/')
  })

  it('stores a logo anyone can fetch, and refuses what is not an image', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    const up = await t.fastify.inject({
      method: 'POST',
      url: api('/generalConfig/logo'),
      headers: { ...sessionHeaders(admin), 'content-type': 'image/png' },
      payload: png,
    })
    expect(up.statusCode).toBe(204)
    const logo = await get('/generalConfig/logo')
    expect(logo.headers['content-type']).toBe('image/png')
    expect(logo.rawPayload.equals(png)).toBe(true)
    expect((await get('/generalConfig', admin)).json().hasLogo).toBe(true)
    const bad = await t.fastify.inject({
      method: 'POST',
      url: api('/generalConfig/logo'),
      headers: { ...sessionHeaders(admin), 'content-type': 'text/plain' },
      payload: 'hello',
    })
    expect(bad.statusCode).toBeGreaterThanOrEqual(400)
    expect((await send('DELETE', '/generalConfig/logo')).statusCode).toBe(204)
    expect((await get('/generalConfig/logo')).statusCode).toBe(404)
  })

  it('read-only mode refuses every change but signing in and turning it off', async () => {
    await send('PUT', '/generalConfig', { serverName: 'Acme', baseUrl: '', readOnly: true })
    const refused = await send('PUT', '/admin/security/uiAccess', { blocked: true })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().errors[0]).toMatchObject({ message: Messages.readOnlyMode, code: 'READ_ONLY' })
    expect((await send('PUT', '/localStorage', { a: 'b' })).json().errors[0].message).toBe(Messages.readOnlyMode)
    expect((await get('/entitlements')).json().readOnly).toBe(true)
    const again = await signIn(t.fastify)
    expect((await send('PUT', '/generalConfig', { serverName: 'Acme', baseUrl: '', readOnly: false }, again)).statusCode).toBe(
      200,
    )
    expect((await send('PUT', '/admin/security/uiAccess', { blocked: false })).statusCode).toBe(200)
  })
})

const proxy: ReverseProxy = {
  key: 'edge-nginx',
  serverName: 'repo.acme.test',
  dockerReverseProxyMethod: 'SUBDOMAIN',
  reverseProxyRepositories: [],
  useHttps: false,
  useHttp: true,
  httpsPort: 443,
  httpPort: 80,
  sslCertificate: '',
  sslKey: '',
  upstreamUrl: '',
}

describe('reverse proxies', () => {
  it('are listed, added, changed, rendered as nginx configuration and removed', async () => {
    expect((await send('POST', '/admin/reverseProxies', proxy)).statusCode).toBe(201)
    expect((await send('POST', '/admin/reverseProxies', proxy)).statusCode).toBe(409)
    expect((await get('/admin/reverseProxies', admin)).json().proxies).toEqual([proxy])
    const changed = { ...proxy, httpPort: 8081 }
    expect((await send('PUT', '/admin/reverseProxies/edge-nginx', changed)).statusCode).toBe(200)
    const nginx = (await get('/admin/reverseProxies/edge-nginx/nginx', admin)).json().config as string
    expect(nginx).toContain('listen 8081;')
    expect(nginx).not.toContain('least_conn') // one node: nothing to balance
    expect(nginx).toContain('rewrite ^/v2/(.+)$ /v2/$repo/$1 break;')
    expect((await get('/system/configuration/webServer', admin)).json().reverseProxies).toEqual(['edge-nginx'])
    expect((await send('DELETE', '/admin/reverseProxies/edge-nginx')).statusCode).toBe(204)
    expect((await get('/admin/reverseProxies/edge-nginx', admin)).statusCode).toBe(404)
  })

  it('balance over a cluster’s nodes, moving a request a node failed to answer to the next', async () => {
    const cluster = {
      ...proxy,
      key: 'edge-cluster',
      upstreamUrl: 'http://10.0.0.11:8080',
      clusterNodeUrls: ['http://10.0.0.12:8080', 'http://10.0.0.11:8080'],
    }
    expect((await send('POST', '/admin/reverseProxies', cluster)).statusCode).toBe(201)
    const nginx = (await get('/admin/reverseProxies/edge-cluster/nginx', admin)).json().config as string
    // Each node once, with passive health; only connection failures move a request, never Trove's own 502 or 503.
    expect(nginx).toContain('    least_conn;\n')
    expect(nginx.match(/^ {4}server .*;$/gm)).toEqual([
      '    server 10.0.0.11:8080 max_fails=1 fail_timeout=10s;',
      '    server 10.0.0.12:8080 max_fails=1 fail_timeout=10s;',
    ])
    expect(nginx).toContain('proxy_next_upstream error timeout;')
    expect(nginx).not.toMatch(/http_50[23]/)
    expect((await send('DELETE', '/admin/reverseProxies/edge-cluster')).statusCode).toBe(204)
    const bad = await send('POST', '/admin/reverseProxies', { ...cluster, clusterNodeUrls: ['http://ok:1', 'ftp://x'] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toMatch(/clusterNodeUrls\.1/)
  })

  it('are rendered as haproxy configuration, whose HTTPS takes one PEM file and no key file', async () => {
    const haproxy: ReverseProxy = {
      ...proxy,
      key: 'edge-haproxy',
      webServerType: 'haproxy',
      useHttps: true,
      sslCertificate: '/etc/haproxy/certs/acme.pem',
    }
    const noPem = await send('POST', '/admin/reverseProxies', { ...haproxy, sslCertificate: '' })
    expect(noPem.statusCode).toBe(400)
    expect(noPem.json().errors[0].message).toMatch(/sslCertificate: HTTPS needs a PEM file/)
    expect((await send('POST', '/admin/reverseProxies', haproxy)).statusCode).toBe(201)
    expect((await get('/admin/reverseProxies/edge-haproxy', admin)).json()).toEqual(haproxy)
    const config = (await get('/admin/reverseProxies/edge-haproxy/haproxy', admin)).json().config as string
    expect(config).toContain('    bind :443 ssl crt /etc/haproxy/certs/acme.pem ssl-min-ver TLSv1.2\n')
    expect(config).toContain('    server node1 127.0.0.1:')
    expect((await get('/admin/reverseProxies/nope/haproxy', admin)).statusCode).toBe(404)
    // nginx still wants its key file.
    expect(
      (await send('POST', '/admin/reverseProxies', { ...haproxy, key: 'edge-nginx-tls', webServerType: 'nginx' })).statusCode,
    ).toBe(400)
    expect((await send('DELETE', '/admin/reverseProxies/edge-haproxy')).statusCode).toBe(204)
  })

  it('refuse a configuration with neither HTTP nor HTTPS, naming the field', async () => {
    const res = await send('POST', '/admin/reverseProxies', { ...proxy, useHttp: false })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/useHttp/)
  })
})
