import { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../test/fetchStub'
import { resetStartup, startApplication, startupState } from './startup'

const A = '/ui/api/v1/ui'
const admin = { name: 'admin', realm: 'internal', admin: true, anonymous: false, mfaStatus: 'none' }
const entitlements = {
  flavour: 'platform',
  deployment: 'onprem',
  license: { type: 'OSS', licensedTo: null, validThrough: null },
  cloudTrial: false,
  anonymousAccess: false,
  uiAccessBlocked: false,
  readOnly: false,
  hasLogo: false,
}
const routes = (over: Record<string, () => Response> = {}) => ({
  [`${A}/auth/current`]: () => json(200, admin),
  [`${A}/frontend/version`]: () => json(200, { version: '1', revision: 'r' }),
  [`${A}/microservices`]: () => json(200, { services: [{ name: 'repository', enabled: true }] }),
  [`${A}/auth/screen/footer`]: () => json(200, { serverName: null, version: '1', revision: 'r' }),
  [`${A}/entitlements`]: () => json(200, entitlements),
  [`${A}/featureConfig`]: () => json(200, { features: { projects: true } }),
  [`${A}/localStorage`]: () => json(200, { 'menu.application': '/integrations' }),
  [`${A}/shell/projects`]: () => json(200, { projects: [{ key: 'dflt', name: 'Default Project', admin: true }] }),
  [`${A}/shell/samlLogoutUrl`]: () => json(200, { logoutUrl: null }),
  [`${A}/shell/availablePackages`]: () => json(200, { packageTypes: ['npm'] }),
  [`${A}/shell/repoData`]: () => json(200, { local: 0, remote: 0, virtual: 0, federated: 0 }),
  [`${A}/onboarding/initStatus`]: () =>
    json(200, { hasOnlyDefaultRepos: true, isOnboardingNeeded: true, isFirstLogin: true, isWizardClosed: false }),
  [`${A}/subscription/blockedUsages`]: () => json(200, { dataTransfer: false, purchaseUrl: 'x' }),
  [`${A}/generalConfig`]: () => json(200, { serverName: '', baseUrl: '', readOnly: false, hasLogo: false }),
  ...over,
})
const paths = (mock: ReturnType<typeof stubFetch>) => mock.mock.calls.map(([url]) => new URL(String(url)).pathname.replace(A, ''))

beforeEach(() => resetStartup())
afterEach(() => vi.unstubAllGlobals())

describe('start-up (§4.5)', () => {
  it('fetches the first five in order, then the rest, once', async () => {
    const mock = stubFetch(routes())
    const q = new QueryClient()
    const boot = await startApplication(q)
    expect(boot.complete).toBe(true)
    expect(boot.storage).toEqual({ 'menu.application': '/integrations' })
    expect(boot.ctx.canAdminProjects).toBe(true)
    const called = paths(mock)
    expect(called.slice(0, 5)).toEqual([
      '/auth/current',
      '/frontend/version',
      '/microservices',
      '/auth/screen/footer',
      '/entitlements',
    ])
    expect(called).toContain('/onboarding/initStatus')
    expect(called.at(-1)).toBe('/generalConfig')
    expect(startupState.initialDataFetched).toBe(true)
    await startApplication(q)
    expect(mock.mock.calls.length).toBe(called.length)
  })

  it('skips repo and onboarding data when their flags say so', async () => {
    const mock = stubFetch(
      routes({ [`${A}/featureConfig`]: () => json(200, { features: { skipRepoData: true, skipOnboardingData: true } }) }),
    )
    await startApplication(new QueryClient())
    expect(paths(mock)).not.toContain('/shell/repoData')
    expect(paths(mock)).not.toContain('/onboarding/initStatus')
  })

  it('stops after the first five for an anonymous visitor without anonymous access', async () => {
    const mock = stubFetch(
      routes({ [`${A}/auth/current`]: () => json(200, { ...admin, name: 'anonymous', admin: false, anonymous: true }) }),
    )
    await startApplication(new QueryClient())
    expect(paths(mock)).toHaveLength(5)
  })

  it('fails silently: loading off, the fetched flag reset, and the next start tries again', async () => {
    const mock = stubFetch(routes({ [`${A}/shell/projects`]: () => json(500, { errors: [{ status: 500, message: 'boom' }] }) }))
    const q = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const boot = await startApplication(q)
    expect(boot.complete).toBe(false)
    expect(startupState.loading).toBe(false)
    expect(startupState.initialDataFetched).toBe(false)
    const before = mock.mock.calls.length
    await startApplication(q)
    expect(mock.mock.calls.length).toBeGreaterThan(before)
  })
})
