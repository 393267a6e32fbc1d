import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import type { Entitlements } from '@trove/contracts/shell'
import { describe, expect, it } from 'vitest'
import { shellContext } from '../features/shell/model'
import { DEMO_ADMIN_TEASERS } from '../features/shell/teasers'
import {
  afterPassword,
  cliGuard,
  cliRegistrationGuard,
  closeFreeTierWizard,
  hashRedirect,
  internalErrorGuard,
  legacyBundlesPath,
  onboardingRedirect,
  POST_LOGIN_PATH,
  quickSetupRedirect,
  sessionGuard,
} from './guards'
import { adminPathGuard, demoAdminGuard, landingGuard, licenseGuard, releaseBundlesTab, securityTeaserGuard } from './shellGuards'

const anonymous: UserData = { name: 'anonymous', realm: 'anonymous', admin: false, anonymous: true, mfaStatus: 'none' }
const alice: UserData = { name: 'alice', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }
const closed = { anonymousAccess: false }
const open = { anonymousAccess: true }
const page = { public: false, login: false }
const loginPage = { public: true, login: true }
const errorPage = { public: true, login: false }

describe('sessionGuard', () => {
  it('sends a signed-in user who opens a sign-in route to the post-login route', () => {
    expect(sessionGuard(loginPage, alice, closed)).toEqual({ kind: 'redirect', to: POST_LOGIN_PATH })
  })

  it('lets an anonymous user reach sign-in routes and public pages', () => {
    expect(sessionGuard(loginPage, anonymous, closed)).toEqual({ kind: 'allow' })
    expect(sessionGuard(errorPage, anonymous, closed)).toEqual({ kind: 'allow' })
  })

  it('sends an anonymous user on a non-public page to login with logout and the not-authorized notice', () => {
    expect(sessionGuard(page, anonymous, closed)).toEqual({
      kind: 'redirect',
      to: '/login',
      search: { logout: true },
      notice: Messages.notAuthorized,
      logout: true,
    })
  })

  it('lets anonymous users through when anonymous access is allowed', () => {
    expect(sessionGuard(page, anonymous, open)).toEqual({ kind: 'allow' })
  })

  it('lets a signed-in user through', () => {
    expect(sessionGuard(page, alice, closed)).toEqual({ kind: 'allow' })
  })
})

describe('internalErrorGuard', () => {
  it('redirects the 500 page to / when there is no previous route', () => {
    expect(internalErrorGuard(undefined)).toEqual({ kind: 'redirect', to: '/' })
    expect(internalErrorGuard('/overview')).toEqual({ kind: 'allow' })
  })
})

const admin: UserData = { ...alice, name: 'admin', admin: true }
const ctx = (user: UserData, over: Partial<Entitlements> = {}, rest: object = {}) =>
  ({
    ...shellContext(
      user,
      {
        flavour: 'platform',
        deployment: 'onprem',
        license: { type: 'OSS', licensedTo: null, validThrough: null },
        cloudTrial: false,
        anonymousAccess: false,
        uiAccessBlocked: false,
        readOnly: false,
        hasLogo: false,
        ...over,
      } as Entitlements,
      { projects: true },
    ),
    ...rest,
  }) as ReturnType<typeof shellContext>

describe('landingGuard', () => {
  it('lands anonymous users on login, admins on topology and users on packages', () => {
    expect(landingGuard(ctx(anonymous))).toEqual({ kind: 'redirect', to: '/login' })
    expect(landingGuard(ctx(admin))).toEqual({ kind: 'redirect', to: '/admin/mission_control/topology' })
    expect(landingGuard(ctx(alice))).toEqual({ kind: 'redirect', to: '/packages' })
  })
})

describe('sessionGuard with UI access blocked', () => {
  it('sends an anonymous user to login even when anonymous access is on', () => {
    expect(sessionGuard(page, anonymous, { anonymousAccess: true, uiAccessBlocked: true })).toMatchObject({ to: '/login' })
  })
})

describe('licenseGuard', () => {
  const none = { license: { type: 'N/A' as const, licensedTo: null, validThrough: null } }
  it('sends an admin without a licence to the licences page, and lets it open', () => {
    expect(licenseGuard('/packages', ctx(admin, none))).toEqual({ kind: 'redirect', to: '/admin/license_management/licenses' })
    expect(licenseGuard('/admin/license_management/licenses', ctx(admin, none))).toEqual({ kind: 'allow' })
  })
  it('sends anyone else to login with logout', () => {
    expect(licenseGuard('/packages', ctx(alice, none))).toEqual({
      kind: 'redirect',
      to: '/login',
      search: { logout: true },
      logout: true,
    })
  })
  it('lets everyone through with a licence', () => {
    expect(licenseGuard('/packages', ctx(alice))).toEqual({ kind: 'allow' })
  })
})

describe('adminPathGuard', () => {
  it('lets an admin open admin pages but blocks disabled or hidden items', () => {
    expect(adminPathGuard('/admin/configuration/general', ctx(admin))).toEqual({ kind: 'allow' })
    // LDAP needs a Pro licence; the policies need the security scanner.
    expect(adminPathGuard('/admin/configuration/security/ldap', ctx(admin))).toMatchObject({ notice: Messages.notAuthorized })
    expect(adminPathGuard('/admin/security_policies', ctx(admin))).toMatchObject({ notice: Messages.notAuthorized })
    // Peers shows the cluster's nodes, which every instance has.
    expect(adminPathGuard('/admin/monitoring/pdn', ctx(admin))).toEqual({ kind: 'allow' })
    expect(adminPathGuard('/admin/license_management/licenses', ctx(admin, { deployment: 'cloud' }))).toMatchObject({
      notice: Messages.notAuthorized,
    })
  })
  it("opens the scanner's administration only while the scanner module runs", () => {
    const screens = [
      '/admin/security_policies',
      '/admin/security_watches',
      '/admin/security_violations',
      '/admin/security_database',
    ]
    for (const path of screens) {
      expect(adminPathGuard(path, ctx(admin))).toMatchObject({ notice: Messages.notAuthorized })
      expect(adminPathGuard(path, ctx(admin, {}, { services: new Set(['scanner']) }))).toEqual({ kind: 'allow' })
    }
  })
  it('sends a non-admin to their landing with the not-authorized notice', () => {
    expect(adminPathGuard('/admin/management/users', ctx(alice))).toEqual({
      kind: 'redirect',
      to: '/packages',
      notice: Messages.notAuthorized,
    })
  })
  it('lets a project admin with a project selected into project settings only', () => {
    const projectAdmin = ctx(alice, {}, { canAdminProjects: true, selectedProject: 'web' })
    expect(adminPathGuard('/admin/projects/members', projectAdmin)).toEqual({ kind: 'allow' })
    expect(adminPathGuard('/admin/configuration/general', projectAdmin)).toMatchObject({ notice: Messages.notAuthorized })
  })
  it('lets a project admin in the all-projects context open the projects list (their landing), not other admin pages', () => {
    const projectAdmin = ctx(alice, {}, { canAdminProjects: true, selectedProject: null })
    expect(adminPathGuard('/admin/projects/list', projectAdmin)).toEqual({ kind: 'allow' })
    expect(adminPathGuard('/admin/projects/members', projectAdmin)).toEqual({ kind: 'allow' })
    expect(adminPathGuard('/admin/management/users', projectAdmin)).toMatchObject({ notice: Messages.notAuthorized })
    const plainUser = ctx(alice, {}, { canAdminProjects: false, selectedProject: null })
    expect(adminPathGuard('/admin/projects/list', plainUser)).toMatchObject({ notice: Messages.notAuthorized })
  })
  it('shows a non-admin in the tour environment the demo teaser of every demo admin path', () => {
    const tour = ctx(alice, { flavour: 'tour' })
    for (const path of Object.keys(DEMO_ADMIN_TEASERS)) {
      const result = adminPathGuard(`/admin/${path}`, tour)
      expect(result).toEqual({ kind: 'redirect', to: `/demo/admin/${path}` })
      // …where the teaser shows.
      expect(demoAdminGuard(path)).toEqual({ kind: 'allow' })
    }
    expect(adminPathGuard('/admin/projects/list/', tour)).toEqual({ kind: 'redirect', to: '/demo/admin/projects/list' })
    // /admin opens the default admin page, so its demo is that page's.
    expect(adminPathGuard('/admin', tour)).toEqual({ kind: 'redirect', to: '/demo/admin/management/users' })
    // An admin path without a teaser goes to its demo version too, which then sends to /packages.
    expect(adminPathGuard('/admin/monitoring/system_logs', tour)).toEqual({
      kind: 'redirect',
      to: '/demo/admin/monitoring/system_logs',
    })
    expect(demoAdminGuard('monitoring/system_logs')).toEqual({ kind: 'redirect', to: '/packages' })
  })
  it('lets a tour admin into the real admin pages, and an anonymous tour visitor nowhere', () => {
    expect(adminPathGuard('/admin/management/users', ctx(admin, { flavour: 'tour' }))).toEqual({ kind: 'allow' })
    expect(adminPathGuard('/admin/management/users', ctx(anonymous, { flavour: 'tour', anonymousAccess: true }))).toMatchObject({
      notice: Messages.notAuthorized,
    })
  })
  it('gives no demo outside the tour environment', () => {
    expect(adminPathGuard('/admin/management/users', ctx(alice))).toMatchObject({ notice: Messages.notAuthorized })
  })
  it('ignores paths outside /admin', () => {
    expect(adminPathGuard('/packages', ctx(alice))).toEqual({ kind: 'allow' })
    expect(adminPathGuard('/administrator', ctx(alice))).toEqual({ kind: 'allow' })
  })
})

describe('teasers and redirects', () => {
  it('demo admin paths: every one in the table shows, others go to /packages', () => {
    for (const path of Object.keys(DEMO_ADMIN_TEASERS)) expect(demoAdminGuard(path)).toEqual({ kind: 'allow' })
    expect(demoAdminGuard('nothing/here')).toEqual({ kind: 'redirect', to: '/packages' })
    expect(demoAdminGuard('')).toEqual({ kind: 'redirect', to: '/packages' })
    expect(demoAdminGuard('pipelines')).toEqual({ kind: 'redirect', to: '/packages' })
  })
  it('the security teaser gives way to the policies only with the scanner and a licence', () => {
    const ent = { license: { type: 'ENTERPRISE_PLUS' as const, licensedTo: 'x', validThrough: null } }
    expect(securityTeaserGuard(ctx(admin, ent))).toEqual({ kind: 'allow' })
    expect(securityTeaserGuard(ctx(admin, ent, { services: new Set(['scanner']) }))).toEqual({
      kind: 'redirect',
      to: '/admin/security_policies',
    })
    // OSS, the licence a fresh Trove carries, locks nothing the node runs; an installed Pro keeps its edition's limits.
    expect(securityTeaserGuard(ctx(admin, {}, { services: new Set(['scanner']) }))).toMatchObject({ kind: 'redirect' })
    const pro = { license: { type: 'PRO' as const, licensedTo: 'x', validThrough: null } }
    expect(securityTeaserGuard(ctx(admin, pro, { services: new Set(['scanner']) }))).toEqual({ kind: 'allow' })
  })
  it('release bundles open the source tab with Enterprise+ (or OSS) and distribution, else target', () => {
    const ent = { license: { type: 'ENTERPRISE_PLUS' as const, licensedTo: 'x', validThrough: null } }
    expect(releaseBundlesTab(ctx(admin, ent, { services: new Set(['distribution']) }))).toBe('source')
    expect(releaseBundlesTab(ctx(admin, ent))).toBe('target')
    expect(releaseBundlesTab(ctx(admin, {}, { services: new Set(['distribution']) }))).toBe('source')
    const pro = { license: { type: 'PRO' as const, licensedTo: 'x', validThrough: null } }
    expect(releaseBundlesTab(ctx(admin, pro, { services: new Set(['distribution']) }))).toBe('target')
  })
  it('rewrites the old bundles path and old hash links', () => {
    expect(legacyBundlesPath('/bundles/target/x/1')).toBe('/release-bundles/target/x/1')
    expect(legacyBundlesPath('/bundlesx')).toBeNull()
    expect(hashRedirect('#/builds/app/42')).toEqual({ to: '/builds/app/42', search: { jenkinsRedirect: true } })
    expect(hashRedirect('#/artifacts/browse/tree/General/libs/a.jar')).toEqual({ to: '/repos/libs/a.jar' })
    expect(hashRedirect('')).toBeNull()
  })
})

describe('sign-in redirects (§4.2)', () => {
  it('quick setup opens on a first login with quick deploy, arriving from login', () => {
    expect(quickSetupRedirect({ isFirstLogin: true, quickDeployEnabled: true, fromLogin: true })).toBe(true)
    expect(quickSetupRedirect({ isFirstLogin: false, quickDeployEnabled: true, fromLogin: true })).toBe(false)
    expect(quickSetupRedirect({ isFirstLogin: true, quickDeployEnabled: true, fromLogin: false })).toBe(false)
  })
  it('onboarding opens for an admin who needs it, unless the target is excluded', () => {
    const s = {
      admin: true,
      onboardingNeeded: true,
      newOnboarding: true,
      fromLogin: true,
      quickDeployEnabled: false,
      platformGetStarted: false,
      target: '/packages',
    }
    expect(onboardingRedirect(s)).toBe(true)
    expect(onboardingRedirect({ ...s, target: '/login/otp-login' })).toBe(false)
    expect(onboardingRedirect({ ...s, target: '/artifacts/browse/tree/General' })).toBe(false)
    expect(onboardingRedirect({ ...s, quickDeployEnabled: true })).toBe(false)
    expect(onboardingRedirect({ ...s, admin: false })).toBe(false)
  })
  it('a free-tier admin’s open wizard is closed on arrival from login', () => {
    expect(closeFreeTierWizard({ admin: true, freeTier: true, wizardClosed: false, fromLogin: true })).toBe(true)
    expect(closeFreeTierWizard({ admin: true, freeTier: true, wizardClosed: true, fromLogin: true })).toBe(false)
  })
})

describe('afterPassword', () => {
  it('sends enroll to MFA enrolment, verify to the one-time-code screen, the rest on', () => {
    expect(afterPassword('enroll')).toBe('/login/mfa-enroll')
    expect(afterPassword('verify')).toBe('/login/otp-login')
    expect(afterPassword('none')).toBe(POST_LOGIN_PATH)
  })
})

describe('the command-line sign-in', () => {
  it('comes first after sign-in when a client is waiting', () => {
    expect(landingGuard(ctx(alice), true)).toEqual({ kind: 'redirect', to: '/plugs/extension/cli/verify' })
    expect(landingGuard(ctx(anonymous), true)).toEqual({ kind: 'redirect', to: '/login' })
  })

  it('sends the CLI routes without a stored client session to login with logout', () => {
    expect(cliGuard(alice, false)).toEqual({ kind: 'redirect', to: '/login', search: { logout: true }, logout: true })
    expect(cliGuard(anonymous, true)).toEqual({ kind: 'redirect', to: '/login' })
    expect(cliGuard(alice, true)).toEqual({ kind: 'allow' })
  })

  it('opens the command-line sign-in screen only while a client is waiting', () => {
    expect(cliRegistrationGuard(true)).toEqual({ kind: 'allow' })
    expect(cliRegistrationGuard(false)).toEqual({ kind: 'redirect', to: '/login', search: { logout: true }, logout: true })
  })
})
