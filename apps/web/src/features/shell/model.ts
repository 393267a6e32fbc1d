import type { UserData } from '@trove/contracts/auth'
import type { Deployment, Entitlements, Features, Flavour, LicenseType } from '@trove/contracts/shell'
import { CONTACT_REQUESTS_PATH } from './adminPaths'

/** Shell §1: the user kinds that decide the landing tab. */
export type UserKind = 'ADMIN' | 'USER' | 'LIGHTWEIGHT' | 'TRIAL' | 'TOUR'

/** Everything the shell's rules read: who is signed in and what the instance is. */
export interface ShellContext {
  user: UserData
  flavour: Flavour
  deployment: Deployment
  license: LicenseType
  cloudTrial: boolean
  anonymousAccess: boolean
  uiAccessBlocked: boolean
  features: Partial<Features>
  /** Services this instance runs (the microservices start-up call). */
  services: ReadonlySet<string>
  /** The user administers at least one project (admins administer all). */
  canAdminProjects: boolean
  /** The project chosen in the top bar; null: all projects. */
  selectedProject: string | null
}

export const ALL_SERVICES_OFF: ReadonlySet<string> = new Set()

/** A context from the start-up data; missing pieces take the values of a plain on-prem instance. */
export function shellContext(
  user: UserData,
  entitlements: Entitlements | undefined,
  features: Partial<Features> | undefined,
  extra: Partial<Pick<ShellContext, 'services' | 'canAdminProjects' | 'selectedProject'>> = {},
): ShellContext {
  return {
    user,
    flavour: entitlements?.flavour ?? 'platform',
    deployment: entitlements?.deployment ?? 'onprem',
    license: entitlements?.license.type ?? 'OSS',
    cloudTrial: entitlements?.cloudTrial ?? false,
    anonymousAccess: entitlements?.anonymousAccess ?? false,
    uiAccessBlocked: entitlements?.uiAccessBlocked ?? false,
    features: features ?? {},
    services: extra.services ?? ALL_SERVICES_OFF,
    canAdminProjects: extra.canAdminProjects ?? (user.admin && !user.anonymous),
    selectedProject: extra.selectedProject ?? null,
  }
}

export const isTour = (c: ShellContext) => c.flavour === 'tour'
export const isLightweight = (c: ShellContext) => c.deployment === 'lightweight'
export const isAdmin = (c: ShellContext) => c.user.admin && !c.user.anonymous

/** Shell §1/§4.1: which kind of user this is. */
export function userKind(c: ShellContext): UserKind {
  if (isTour(c)) return 'TOUR'
  if (isLightweight(c)) return 'LIGHTWEIGHT'
  if (c.cloudTrial && isAdmin(c)) return 'TRIAL'
  return isAdmin(c) ? 'ADMIN' : 'USER'
}

export const PATHS = {
  home: '/overview',
  topology: '/admin/mission_control/topology',
  packages: '/packages',
  repoTree: '/artifacts/browse/tree/General',
  getStarted: '/get_started',
  tourGetStarted: '/tour_get_started',
  projects: '/admin/projects/list',
  projectOverview: '/admin/projects/overview',
  adminDefault: '/admin/management/users',
  licenses: '/admin/license_management/licenses',
  adminMenu: '/admin/artifactory/list',
} as const

/** Shell §4.1: the landing tab of each user kind. */
export const LANDING_TAB: Record<UserKind, string> = {
  ADMIN: PATHS.topology,
  USER: PATHS.packages,
  LIGHTWEIGHT: PATHS.repoTree,
  TRIAL: PATHS.getStarted,
  TOUR: PATHS.tourGetStarted,
}

/**
 * Shell §4.1: where / and /home lead, in order: the home page if its flag is set; the lightweight
 * landing; the trial page for admins when the platform get-started feature is on; the tour page;
 * else the landing tab of the user's kind. Anonymous users without anonymous access sign in.
 */
export function landingPath(c: ShellContext): string {
  if (c.user.anonymous && (!c.anonymousAccess || c.uiAccessBlocked)) return '/login'
  if (c.features.homePage) return PATHS.home
  if (isLightweight(c)) return PATHS.repoTree
  if (isAdmin(c) && c.cloudTrial && c.features.platformGetStarted) return PATHS.getStarted
  if (isTour(c)) return PATHS.tourGetStarted
  return LANDING_TAB[userKind(c)]
}

// ---------------------------------------------------------------------------------------------
// Menus

export type SidebarName = 'application' | 'administration' | 'project'

export interface MenuItem {
  id: string
  label: string
  path: string
  /** Words the admin menu's search also matches. */
  keywords?: string
  /** Hidden when this returns true. */
  hidden?: (c: ShellContext) => boolean
  /** Disabled, with this tooltip, when it returns a text. */
  disabled?: (c: ShellContext) => string | null
}

export interface MenuGroup {
  id: string
  label: string
  items: MenuItem[]
}

const notAdmin = (c: ShellContext) => !isAdmin(c)
const needsService = (service: string, label: string) => (c: ShellContext) =>
  c.services.has(service) ? null : `${label} is not running on this instance`
/** A sign-in source Trove does not have yet, whatever the licence: the reason names what works today. */
const notInTrove = (label: string) => () => `${label} is not part of Trove yet: sign users in with OAuth SSO or SAML SSO`

/** The Application sidebar. */
export const APPLICATION_MENU: MenuGroup[] = [
  {
    id: 'application',
    label: 'Application',
    items: [
      { id: 'overview', label: 'Overview', path: '/overview' },
      { id: 'packages', label: 'Packages', path: '/packages', hidden: isLightweight },
      { id: 'artifacts', label: 'Artifacts', path: PATHS.repoTree },
      { id: 'builds', label: 'Builds', path: '/builds', hidden: isLightweight },
      {
        id: 'release-bundles',
        label: 'Release Bundles',
        path: '/release-bundles',
        hidden: (c) => isLightweight(c) || c.flavour === 'oss',
      },
      { id: 'integrations', label: 'Integrations', path: '/integrations', hidden: isTour },
    ],
  },
]

export { CONTACT_REQUESTS_PATH }

/** Administration entries that redirect to a screen of the Application menu (shell §2.2's configure shortcuts). */
export const LEAVES_ADMINISTRATION: readonly string[] = ['/admin/configuration/integrations']

/** The Administration sidebar (platform configuration), also the admin card menu. */
export const ADMINISTRATION_MENU: MenuGroup[] = [
  {
    id: 'repositories',
    label: 'Repositories',
    items: [
      { id: 'repositories', label: 'Repositories', path: '/admin/repositories', keywords: 'local remote virtual' },
      { id: 'repositories.local.new', label: 'New Local Repository', path: '/admin/repositories/local/new', keywords: 'create' },
      {
        id: 'repositories.remote.new',
        label: 'New Remote Repository',
        path: '/admin/repositories/remote/new',
        keywords: 'create proxy',
      },
      {
        id: 'repositories.virtual.new',
        label: 'New Virtual Repository',
        path: '/admin/repositories/virtual/new',
        keywords: 'create',
      },
    ],
  },
  {
    id: 'identity',
    label: 'User Management',
    items: [
      { id: 'users', label: 'Users', path: '/admin/management/users' },
      { id: 'groups', label: 'Groups', path: '/admin/management/groups' },
      { id: 'permissions', label: 'Permissions', path: '/admin/management/permissions', keywords: 'access' },
      {
        id: 'global-roles',
        label: 'Global Roles',
        path: '/admin/management/global_roles',
        disabled: (c) => (c.features.projects ? null : 'Global roles need projects, which are turned off'),
      },
    ],
  },
  {
    id: 'projects',
    label: 'Projects',
    items: [{ id: 'projects', label: 'Projects', path: PATHS.projects, hidden: (c) => !c.features.projects || isLightweight(c) }],
  },
  {
    id: 'security',
    label: 'Security',
    items: [
      {
        id: 'security.general',
        label: 'Security Configuration',
        path: '/admin/configuration/security/general',
        keywords: 'anonymous mfa password',
      },
      { id: 'security.oauth', label: 'OAuth SSO', path: '/admin/configuration/security/oauth', keywords: 'openid oidc' },
      { id: 'security.saml', label: 'SAML SSO', path: '/admin/configuration/security/saml_integration' },
      {
        id: 'security.ldap',
        label: 'LDAP',
        path: '/admin/configuration/security/ldap',
        disabled: notInTrove('LDAP'),
      },
      {
        id: 'security.crowd',
        label: 'Crowd / JIRA',
        path: '/admin/configuration/security/crowd_integration',
        disabled: notInTrove('Crowd / JIRA'),
      },
    ],
  },
  {
    id: 'configuration',
    label: 'Platform Configurations',
    items: [
      {
        id: 'general',
        label: 'General Settings',
        path: '/admin/configuration/general',
        keywords: 'server name base url logo read-only mail',
      },
      { id: 'licenses', label: 'Licenses', path: PATHS.licenses, hidden: (c) => c.deployment === 'cloud' },
      {
        id: 'proxies',
        label: 'Reverse Proxy',
        path: '/admin/proxies/configuration',
        keywords: 'nginx docker',
        hidden: (c) => c.deployment === 'cloud',
      },
      { id: 'integrations', label: 'Integrations', path: '/admin/configuration/integrations' },
      {
        id: 'contact-requests',
        label: 'Contact Requests',
        path: CONTACT_REQUESTS_PATH,
        keywords: 'contact us demo sales support trial mail',
      },
    ],
  },
  {
    id: 'monitoring',
    label: 'Monitoring',
    items: [
      { id: 'service-status', label: 'Service Status', path: '/admin/monitoring/service-status', keywords: 'health' },
      { id: 'system-logs', label: 'System Logs', path: '/admin/monitoring/system_logs', keywords: 'log viewer' },
      { id: 'topology', label: 'Topology', path: PATHS.topology, keywords: 'nodes services' },
      {
        id: 'pdn',
        label: 'Peers',
        path: '/admin/monitoring/pdn',
        // Trove's peers are the cluster's nodes (every instance has at least one), not distribution's.
        keywords: 'pdn cluster nodes heartbeat',
      },
      { id: 'support-zone', label: 'Support Zone', path: '/admin/support-zone', keywords: 'support bundle' },
    ],
  },
  {
    id: 'xray',
    label: 'Security & Compliance',
    items: [
      {
        id: 'xray.policies',
        label: 'Policies',
        path: '/admin/security_policies',
        disabled: needsService('scanner', 'The security scanner'),
      },
      {
        id: 'xray.watches',
        label: 'Watches',
        path: '/admin/security_watches',
        disabled: needsService('scanner', 'The security scanner'),
      },
      {
        id: 'xray.violations',
        label: 'Violations',
        path: '/admin/security_violations',
        keywords: 'ignore rules vulnerabilities licences',
        disabled: needsService('scanner', 'The security scanner'),
      },
      {
        id: 'xray.database',
        label: 'Advisory Database',
        path: '/admin/security_database',
        keywords: 'osv advisories import feed sync',
        disabled: needsService('scanner', 'The security scanner'),
      },
    ],
  },
  {
    id: 'onboarding',
    label: 'Onboarding',
    items: [
      { id: 'quick-setup', label: 'Quick Setup', path: '/admin/onboarding/quick-setup', hidden: (c) => isTour(c) || notAdmin(c) },
    ],
  },
]

/** The Project Settings sidebar, for a project administrator with a project selected. */
export const PROJECT_MENU: MenuGroup[] = [
  {
    id: 'project',
    label: 'Project Settings',
    items: [
      { id: 'project.overview', label: 'Project Overview', path: PATHS.projectOverview },
      { id: 'project.members', label: 'Members', path: '/admin/projects/members' },
      { id: 'project.repositories', label: 'Repositories', path: '/admin/repositories' },
    ],
  },
]

export type ItemState = 'visible' | 'hidden' | { disabled: string }

export function itemState(item: MenuItem, c: ShellContext): ItemState {
  if (item.hidden?.(c)) return 'hidden'
  const tooltip = item.disabled?.(c)
  return tooltip ? { disabled: tooltip } : 'visible'
}

export interface ShownItem {
  item: MenuItem
  disabled: string | null
}
export interface ShownGroup {
  group: MenuGroup
  items: ShownItem[]
}

/**
 * Shell §2.2: the groups to show, each with its visible items (disabled ones carry their tooltip);
 * a group whose items are all hidden or disabled is left out.
 */
export function shownGroups(groups: MenuGroup[], c: ShellContext): ShownGroup[] {
  return groups
    .map((group) => ({
      group,
      items: group.items.flatMap((item): ShownItem[] => {
        const state = itemState(item, c)
        if (state === 'hidden') return []
        return [{ item, disabled: state === 'visible' ? null : state.disabled }]
      }),
    }))
    .filter((g) => g.items.some((i) => i.disabled === null))
}

/** Items whose label, group or keywords contain the query (case-insensitive). */
export function matchesQuery(item: MenuItem, group: MenuGroup, query: string): boolean {
  const q = query.trim().toLowerCase()
  if (!q) return true
  return [item.label, group.label, item.keywords ?? ''].some((text) => text.toLowerCase().includes(q))
}

/** The menu item a path belongs to (the longest matching path), with its state. */
export function itemForPath(groups: MenuGroup[], path: string): MenuItem | undefined {
  let best: MenuItem | undefined
  for (const group of groups) {
    for (const item of group.items) {
      if ((path === item.path || path.startsWith(`${item.path}/`)) && (!best || item.path.length > best.path.length)) best = item
    }
  }
  return best
}

export const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/')

/** Shell §4.3: Application and Project Settings for a project admin with a project; else Application and Administration. */
export function availableSidebars(c: ShellContext): SidebarName[] {
  if (c.canAdminProjects && c.selectedProject) return ['application', 'project']
  return isAdmin(c) ? ['application', 'administration'] : ['application']
}

/** Shell §4.2: admin routes select the administration sidebar, or project settings; otherwise application. */
export function selectSidebar(path: string, c: ShellContext): SidebarName {
  if (!isAdminPath(path)) return 'application'
  if (c.canAdminProjects && c.selectedProject) return 'project'
  // Only administrators have the Administration sidebar; a project admin without a project keeps the application one.
  return isAdmin(c) ? 'administration' : 'application'
}

export function menuOf(sidebar: SidebarName): MenuGroup[] {
  if (sidebar === 'administration') return ADMINISTRATION_MENU
  if (sidebar === 'project') return PROJECT_MENU
  return APPLICATION_MENU
}

/** Which menu a visit is remembered for (§4.1): administration when its sidebar shows, else application. */
export function menuForVisit(path: string, c: ShellContext): 'application' | 'administration' {
  return selectSidebar(path, c) === 'application' ? 'application' : 'administration'
}

export const DEFAULT_APPLICATION_PATH = PATHS.packages

/** Shell §4.1: the Application menu's destination. */
export function applicationMenuTarget(lastVisited: string | undefined): string {
  return lastVisited ?? DEFAULT_APPLICATION_PATH
}

/**
 * Shell §4.1: the Administration menu's destination: the last administration page; else the
 * projects page (the selected project's) when the user administers projects; else the first
 * visible item of the platform configuration sidebar; else a default admin page.
 */
export function administrationMenuTarget(lastVisited: string | undefined, c: ShellContext): string {
  // A shortcut that leads out of the administration (to the catalogue) is no page to come back to.
  if (lastVisited && !LEAVES_ADMINISTRATION.some((p) => lastVisited === p || lastVisited.startsWith(`${p}?`))) return lastVisited
  if (c.canAdminProjects && c.features.projects) {
    return c.selectedProject ? `${PATHS.projectOverview}?projectKey=${encodeURIComponent(c.selectedProject)}` : PATHS.projects
  }
  const first = shownGroups(ADMINISTRATION_MENU, c)[0]?.items.find((i) => i.disabled === null)
  return first?.item.path ?? PATHS.adminDefault
}

// ---------------------------------------------------------------------------------------------
// Help and quick-action menus (§6)

export interface ActionItem {
  id: string
  label: string
  /** An internal path, an external URL, or an action the frame performs. */
  to?: string
  href?: string
  action?: 'contactUs' | 'tour' | 'shortcuts' | 'quickSetup' | 'setMeUp' | 'quickRepo' | 'classicUi' | 'newUi' | 'logout'
  badge?: string
}

export const DOCS_URL = 'https://trove.example.org/docs'
export const REGISTRY_DOCS_URL = 'https://trove.example.org/docs/container-registry'
export const LEARNING_CENTER_URL = 'https://trove.example.org/learn'

/** The container-registry flavour (JCR) has its own documentation link. */
export function helpMenu(c: ShellContext): ActionItem[] {
  const items: ActionItem[] = []
  const helpLinks = c.features.helpLinks !== false
  if (helpLinks && c.flavour !== 'jcr') items.push({ id: 'docs', label: 'Documentation', href: DOCS_URL })
  if (helpLinks && c.flavour === 'jcr') items.push({ id: 'registry-docs', label: 'Documentation', href: REGISTRY_DOCS_URL })
  if (helpLinks) items.push({ id: 'learning', label: 'Learning Center', href: LEARNING_CENTER_URL })
  if (isAdmin(c) && c.cloudTrial) items.push({ id: 'contact', label: 'Contact Us', action: 'contactUs' })
  items.push({ id: 'tour', label: 'Navigation Tour', action: 'tour' })
  items.push({ id: 'shortcuts', label: 'Keyboard Shortcuts', action: 'shortcuts' })
  return items
}

/** Shell §6: the quick-action menu, with its visibility rules. */
export function quickActions(c: ShellContext): ActionItem[] {
  const admin = isAdmin(c)
  const items: ActionItem[] = []
  const anonymous = c.user.anonymous
  if (admin && !isTour(c)) items.push({ id: 'getting-started', label: 'Getting Started', action: 'quickSetup' })
  if (admin && !isLightweight(c)) items.push({ id: 'quick-repo', label: 'Quick Repository Creation', action: 'quickRepo' })
  if (!anonymous) items.push({ id: 'set-me-up', label: 'Set Me Up', action: 'setMeUp' })
  if (admin && !isTour(c)) {
    items.push({ id: 'new-local', label: 'New Local Repository', to: '/admin/repositories/local/new' })
    items.push({ id: 'new-remote', label: 'New Remote Repository', to: '/admin/repositories/remote/new' })
    items.push({ id: 'new-virtual', label: 'New Virtual Repository', to: '/admin/repositories/virtual/new' })
    if (!isLightweight(c)) {
      items.push({ id: 'new-user', label: 'New User', to: '/admin/management/users/new' })
      items.push({ id: 'new-group', label: 'New Group', to: '/admin/management/groups/new' })
      items.push({ id: 'new-permission', label: 'New Permission', to: '/admin/management/permissions/create' })
    }
  }
  if (admin && c.cloudTrial) items.push({ id: 'contact', label: 'Contact Us', action: 'contactUs' })
  if (c.features.classicUi && c.deployment === 'onprem')
    items.push({ id: 'classic', label: 'Switch to Classic UI', action: 'classicUi' })
  if (c.features.newUiBeta && c.deployment === 'onprem')
    items.push({ id: 'new-ui', label: 'Switch to New UI', action: 'newUi', badge: 'beta' })
  if (!anonymous && !(isTour(c) && !admin)) items.push({ id: 'edit-profile', label: 'Edit Profile', to: '/user_profile' })
  if (!anonymous) items.push({ id: 'logout', label: 'Logout', action: 'logout' })
  return items
}

// ---------------------------------------------------------------------------------------------
// Search type follows the route (§4.2)

export type SearchType = 'packages' | 'artifacts' | 'releaseBundles' | 'builds'

export function searchTypeFor(path: string): SearchType {
  if (path.startsWith('/release-bundles') || path.startsWith('/bundles')) return 'releaseBundles'
  if (path.startsWith('/artifacts') || path.startsWith('/repos')) return 'artifacts'
  if (path.startsWith('/builds')) return 'builds'
  return 'packages'
}

export const SEARCH_PLACEHOLDER: Record<SearchType, string> = {
  packages: 'Search packages',
  artifacts: 'Search artifacts',
  releaseBundles: 'Search release bundles',
  builds: 'Search builds',
}
