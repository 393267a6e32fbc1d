import type { UserData } from '@trove/contracts/auth'
import type { Entitlements } from '@trove/contracts/shell'
import { describe, expect, it } from 'vitest'
import { contactUsContextFor } from './contactContext'
import {
  ADMINISTRATION_MENU,
  administrationMenuTarget,
  applicationMenuTarget,
  availableSidebars,
  helpMenu,
  landingPath,
  matchesQuery,
  menuForVisit,
  quickActions,
  searchTypeFor,
  selectSidebar,
  shellContext,
  shownGroups,
  userKind,
} from './model'

const user: UserData = { name: 'alice', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }
const admin: UserData = { ...user, name: 'admin', admin: true }
const anonymous: UserData = { name: 'anonymous', realm: 'internal', admin: false, anonymous: true, mfaStatus: 'none' }
const base: Entitlements = {
  flavour: 'platform',
  deployment: 'onprem',
  license: { type: 'OSS', licensedTo: null, validThrough: null },
  cloudTrial: false,
  anonymousAccess: false,
  uiAccessBlocked: false,
  readOnly: false,
  hasLogo: false,
}
const c = (u: UserData, e: Partial<Entitlements> = {}, features = {}, extra = {}) =>
  shellContext(u, { ...base, ...e }, features, extra)
const ids = (items: { id: string }[]) => items.map((i) => i.id)

describe('user kinds and landing (§4.1)', () => {
  it('derives the kind from flavour, deployment, trial and admin flag', () => {
    expect(userKind(c(admin))).toBe('ADMIN')
    expect(userKind(c(user))).toBe('USER')
    expect(userKind(c(user, { deployment: 'lightweight' }))).toBe('LIGHTWEIGHT')
    expect(userKind(c(admin, { cloudTrial: true, deployment: 'cloud' }))).toBe('TRIAL')
    expect(userKind(c(user, { flavour: 'tour' }))).toBe('TOUR')
  })

  it('chooses the landing page in the order of §4.1', () => {
    expect(landingPath(c(admin, {}, { homePage: true }))).toBe('/overview')
    expect(landingPath(c(admin, { deployment: 'lightweight' }))).toBe('/artifacts/browse/tree/General')
    expect(landingPath(c(admin, { cloudTrial: true, deployment: 'cloud' }, { platformGetStarted: true }))).toBe('/get_started')
    expect(landingPath(c(admin, { cloudTrial: true, deployment: 'cloud' }))).toBe('/get_started')
    expect(landingPath(c(user, { flavour: 'tour' }))).toBe('/tour_get_started')
    expect(landingPath(c(admin))).toBe('/admin/mission_control/topology')
    expect(landingPath(c(user))).toBe('/packages')
    expect(landingPath(c(anonymous))).toBe('/login')
    expect(landingPath(c(anonymous, { anonymousAccess: true }))).toBe('/packages')
    expect(landingPath(c(anonymous, { anonymousAccess: true, uiAccessBlocked: true }))).toBe('/login')
  })
})

describe('sidebars (§4.2, §4.3)', () => {
  it('offers Application and Administration, or Project Settings with a project selected', () => {
    expect(availableSidebars(c(admin))).toEqual(['application', 'administration'])
    expect(availableSidebars(c(user))).toEqual(['application'])
    expect(availableSidebars(c(admin, {}, {}, { selectedProject: 'web' }))).toEqual(['application', 'project'])
  })

  it('selects by route', () => {
    expect(selectSidebar('/packages', c(admin))).toBe('application')
    expect(selectSidebar('/admin/management/users', c(admin))).toBe('administration')
    expect(selectSidebar('/admin/projects/members', c(admin, {}, {}, { selectedProject: 'web' }))).toBe('project')
    // A project admin who is not an administrator never gets the Administration sidebar.
    expect(selectSidebar('/admin/projects/list', c(user, {}, {}, { canAdminProjects: true }))).toBe('application')
    expect(selectSidebar('/admin/projects/members', c(user, {}, {}, { canAdminProjects: true, selectedProject: 'web' }))).toBe(
      'project',
    )
    expect(menuForVisit('/admin/configuration/general', c(admin))).toBe('administration')
    expect(menuForVisit('/packages', c(admin))).toBe('application')
  })

  it('the menus go to the last visited page, else their defaults', () => {
    expect(applicationMenuTarget(undefined)).toBe('/packages')
    expect(applicationMenuTarget('/integrations')).toBe('/integrations')
    expect(administrationMenuTarget('/admin/configuration/general', c(admin, {}, { projects: true }))).toBe(
      '/admin/configuration/general',
    )
    expect(administrationMenuTarget(undefined, c(admin, {}, { projects: true }))).toBe('/admin/projects/list')
    expect(administrationMenuTarget(undefined, c(admin, {}, { projects: true }, { selectedProject: 'web' }))).toBe(
      '/admin/projects/overview?projectKey=web',
    )
    expect(administrationMenuTarget(undefined, c(admin, {}, { projects: false }))).toBe('/admin/repositories')
    // The integrations shortcut leads to the catalogue: coming back to it would leave the menu again.
    expect(administrationMenuTarget('/admin/configuration/integrations', c(admin, {}, { projects: false }))).toBe(
      '/admin/repositories',
    )
  })
})

describe('the admin card menu (§2.2)', () => {
  it('omits a group whose items are all disabled, keeps disabled items with their tooltip elsewhere', () => {
    const groups = shownGroups(ADMINISTRATION_MENU, c(admin))
    expect(groups.map((g) => g.group.id)).not.toContain('xray')
    const security = groups.find((g) => g.group.id === 'security')
    expect(security?.items.find((i) => i.item.id === 'security.ldap')?.disabled).toBe(
      'LDAP is not part of Trove yet: sign users in with OAuth SSO or SAML SSO',
    )
    const withXray = shownGroups(ADMINISTRATION_MENU, c(admin, {}, {}, { services: new Set(['scanner']) }))
    expect(withXray.map((g) => g.group.id)).toContain('xray')
  })

  it('omits a group whose items are all hidden', () => {
    expect(shownGroups(ADMINISTRATION_MENU, c(admin, {}, { projects: true })).map((g) => g.group.id)).toContain('projects')
    expect(shownGroups(ADMINISTRATION_MENU, c(admin, {}, { projects: false })).map((g) => g.group.id)).not.toContain('projects')
  })

  it('search matches label, group and keywords', () => {
    const group = ADMINISTRATION_MENU.find((g) => g.id === 'configuration')
    const proxies = group?.items.find((i) => i.id === 'proxies')
    if (!group || !proxies) throw new Error('menu changed')
    expect(matchesQuery(proxies, group, 'nginx')).toBe(true)
    expect(matchesQuery(proxies, group, 'REVERSE')).toBe(true)
    expect(matchesQuery(proxies, group, 'platform')).toBe(true)
    expect(matchesQuery(proxies, group, 'users')).toBe(false)
  })
})

describe('help menu (§6)', () => {
  it('hides documentation when help links are off and gives the container-registry flavour its own link', () => {
    expect(ids(helpMenu(c(user, {}, { helpLinks: true })))).toEqual(['docs', 'learning', 'tour', 'shortcuts'])
    expect(ids(helpMenu(c(user, {}, { helpLinks: false })))).toEqual(['tour', 'shortcuts'])
    expect(ids(helpMenu(c(user, { flavour: 'jcr' }, { helpLinks: true })))).toEqual([
      'registry-docs',
      'learning',
      'tour',
      'shortcuts',
    ])
  })
  it('offers Contact Us to admins of a cloud trial only', () => {
    expect(ids(helpMenu(c(admin, { cloudTrial: true, deployment: 'cloud' })))).toContain('contact')
    expect(ids(helpMenu(c(user, { cloudTrial: true, deployment: 'cloud' })))).not.toContain('contact')
    expect(ids(helpMenu(c(admin)))).not.toContain('contact')
  })
})

describe('contact-us dialog (§2.7)', () => {
  const trial = c(admin, { cloudTrial: true, deployment: 'cloud' })
  it('opens with a known context on a cloud trial or in the tour environment', () => {
    expect(contactUsContextFor({ contactUsContext: 'contact us' }, trial)).toBe('contact us')
    expect(contactUsContextFor({ contactUsContext: 'trial extension' }, c(user, { flavour: 'tour' }))).toBe('trial extension')
  })
  it('stays closed for an unknown context, without one, or on any other instance', () => {
    expect(contactUsContextFor({ contactUsContext: 'free lunch' }, trial)).toBeNull()
    expect(contactUsContextFor({}, trial)).toBeNull()
    expect(contactUsContextFor({ contactUsContext: 'contact us' }, c(admin))).toBeNull()
  })
})

describe('quick-action menu (§6)', () => {
  it('gives admins the getting-started, quick repository and new-entity shortcuts', () => {
    expect(ids(quickActions(c(admin)))).toEqual([
      'getting-started',
      'quick-repo',
      'set-me-up',
      'new-local',
      'new-remote',
      'new-virtual',
      'new-user',
      'new-group',
      'new-permission',
      'edit-profile',
      'logout',
    ])
  })
  it('gives users only set-me-up, profile and logout', () => {
    expect(ids(quickActions(c(user)))).toEqual(['set-me-up', 'edit-profile', 'logout'])
  })
  it('hides entity shortcuts on a lightweight instance and in the tour, and the profile for a tour non-admin', () => {
    expect(ids(quickActions(c(admin, { deployment: 'lightweight' })))).not.toContain('new-user')
    expect(ids(quickActions(c(admin, { deployment: 'lightweight' })))).not.toContain('quick-repo')
    expect(ids(quickActions(c(admin, { flavour: 'tour' })))).not.toContain('new-local')
    expect(ids(quickActions(c(user, { flavour: 'tour' })))).not.toContain('edit-profile')
  })
  it('adds Contact Us for a cloud-trial admin and the UI switches on-prem when their flags are on', () => {
    expect(ids(quickActions(c(admin, { cloudTrial: true, deployment: 'cloud' })))).toContain('contact')
    const switches = quickActions(c(user, {}, { classicUi: true, newUiBeta: true }))
    expect(ids(switches)).toEqual(['set-me-up', 'classic', 'new-ui', 'edit-profile', 'logout'])
    expect(switches.find((a) => a.id === 'new-ui')?.badge).toBe('beta')
    expect(ids(quickActions(c(user, { deployment: 'cloud' }, { classicUi: true })))).not.toContain('classic')
  })
  it('offers nothing that needs an account to anonymous users', () => {
    expect(ids(quickActions(c(anonymous, { anonymousAccess: true })))).toEqual([])
  })
})

describe('search type follows the route (§4.2)', () => {
  it('maps paths to search types', () => {
    expect(searchTypeFor('/release-bundles/target')).toBe('releaseBundles')
    expect(searchTypeFor('/artifacts/browse/tree/General')).toBe('artifacts')
    expect(searchTypeFor('/packages')).toBe('packages')
  })
})
