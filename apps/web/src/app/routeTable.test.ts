import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { createAppRouter } from './router'

const router = createAppRouter(new QueryClient())
const byName = new Map<string, string>()
for (const route of Object.values(router.routesById)) {
  const name = (route.options as { staticData?: { name?: string } }).staticData?.name
  if (name) byName.set(name, route.fullPath)
}

describe('the route table of shell §2.1', () => {
  it.each([
    ['login', '/login/'],
    ['otp-login', '/login/otp-login'],
    ['mfa-enroll', '/login/mfa-enroll'],
    ['forgot-password', '/login/forgot-password'],
    ['reset-password', '/login/reset-password'],
    ['change-password', '/login/change-password/{-$userName}'],
    ['registration', '/login/registration'],
    ['invitation', '/login/invitation'],
    ['cli-registration', '/login/cli-registration'],
    ['sso', '/login/sso/$ssoLoginType'],
    ['logout', '/logout'],
    ['auth-provider', '/auth-provider/$type'],
    ['cli', '/plugs/extension/cli'],
    ['cli-verify', '/plugs/extension/cli/verify'],
    ['404', '/404'],
    ['406', '/406/$requestId'],
    ['500', '/500'],
    ['authorization', '/authorization'],
    ['user_profile', '/user_profile'],
    ['my-account-redirect', '/user/my-jfrog-redirect'],
    ['get_started', '/get_started'],
    ['tour_get_started', '/tour_get_started'],
    ['overview', '/overview'],
    ['template', '/template'],
    ['demo', '/demo'],
    ['integrations', '/integrations'],
    ['packages', '/packages/{-$packageId}/{-$versionId}'],
    ['release-bundles', '/release-bundles'],
    ['release-bundles.tab', '/release-bundles/$activeTab'],
    ['release-bundles-teaser', '/release-bundles-teaser'],
    ['topology-teaser', '/topology-teaser'],
  ])('has the route named %s at %s', (name, path) => {
    expect(byName.get(name)).toBe(path)
  })

  it('has /, /home and the /auth alias', () => {
    const paths = Object.values(router.routesById).map((r) => r.fullPath)
    expect(paths).toEqual(expect.arrayContaining(['/', '/home', '/auth', '/auth/$']))
  })

  it('gives every screen a title for the page title', () => {
    for (const route of Object.values(router.routesById)) {
      const data = (route.options as { staticData?: { name?: string; title?: string } }).staticData
      if (data?.name && data.name !== 'logout') expect(data.title, data.name).toBeTruthy()
    }
  })
})
