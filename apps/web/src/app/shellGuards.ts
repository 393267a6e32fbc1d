import { Messages } from '@trove/contracts/messages'
import type { OnboardingInitStatus } from '@trove/contracts/shell'
import { ENTERPRISE_PLUS_LICENSES, SECURITY_LICENSES } from '@trove/contracts/shellConstants'
import {
  ADMINISTRATION_MENU,
  isAdmin,
  isAdminPath,
  isTour,
  itemForPath,
  itemState,
  landingPath,
  PATHS,
  PROJECT_MENU,
  type ShellContext,
} from '../features/shell/model'
import { DEMO_ADMIN_PREFIX, demoAdminTeaser } from '../features/shell/teasers'
import { type GuardResult, onboardingRedirect, quickSetupRedirect } from './guards'

// The guards that read the instance model and the menus (shell §4.1, §4.2). They live apart from
// guards.ts so the sign-in page does not load the menus: the router imports them on first use.
const ALLOW: GuardResult = { kind: 'allow' }

/** Landing for / and /home (shell §4.1); a waiting command-line sign-in comes first. */
export function landingGuard(c: ShellContext, cliLoginWaiting = false): GuardResult {
  if (cliLoginWaiting && !c.user.anonymous) return { kind: 'redirect', to: '/plugs/extension/cli/verify' }
  return { kind: 'redirect', to: landingPath(c) }
}

/**
 * Shell §4.2: with no licence (type N/A) an admin goes to the licences page; anyone else to login
 * with logout.
 */
export function licenseGuard(path: string, c: ShellContext): GuardResult {
  if (c.license !== 'N/A' || c.user.anonymous) return ALLOW
  if (isAdmin(c)) return path === PATHS.licenses ? ALLOW : { kind: 'redirect', to: PATHS.licenses }
  return { kind: 'redirect', to: '/login', search: { logout: true }, logout: true }
}

/** Shell §4.2: an unauthorized route falls back to the computed landing with the notice. */
export function notAuthorized(c: ShellContext): GuardResult {
  return { kind: 'redirect', to: landingPath(c), notice: Messages.notAuthorized }
}

/**
 * Shell §4.2/§6: a path under /admin/ belongs to the administration menu, or to project settings
 * for a project admin with a project selected; a path whose menu item is hidden or disabled is
 * blocked; in the tour environment a non-admin gets the demo teaser of the admin page.
 */
export function adminPathGuard(path: string, c: ShellContext): GuardResult {
  if (!isAdminPath(path)) return ALLOW
  if (!isAdmin(c)) {
    // /admin itself opens the default admin page (§2.2), so its demo is that page's.
    const rest = path.replace(/^\/admin\/?/, '').replace(/\/+$/, '') || PATHS.adminDefault.replace(/^\/admin\//, '')
    if (isTour(c) && !c.user.anonymous) return { kind: 'redirect', to: `${DEMO_ADMIN_PREFIX}/${rest}` }
    if (c.canAdminProjects) {
      // With a project selected, the project-settings menu; in the all-projects context, the
      // administration menu's Projects entry (their landing) and the project pages it opens.
      if (itemForPath(PROJECT_MENU, path)) return ALLOW
      const item = c.selectedProject ? undefined : itemForPath(ADMINISTRATION_MENU, path)
      if (item?.id === 'projects' && itemState(item, c) === 'visible') return ALLOW
    }
    return notAuthorized(c)
  }
  const item = itemForPath(ADMINISTRATION_MENU, path)
  if (item && itemState(item, c) !== 'visible') return notAuthorized(c)
  return ALLOW
}

/** Shell §2.3: a demo admin path without a teaser (features/shell/teasers.ts) redirects to /packages. */
export function demoAdminGuard(requiredAdminPath: string): GuardResult {
  return demoAdminTeaser(requiredAdminPath) ? ALLOW : { kind: 'redirect', to: PATHS.packages }
}

/** Shell §4.2: the security-and-compliance teaser gives way to the policies when the scanner and a licence allow. */
export function securityTeaserGuard(c: ShellContext): GuardResult {
  return c.services.has('scanner') && SECURITY_LICENSES.includes(c.license)
    ? { kind: 'redirect', to: '/admin/security_policies' }
    : ALLOW
}

/** Shell §2.5: the bundles tab to open when none is given. */
export function releaseBundlesTab(c: ShellContext): 'source' | 'target' {
  return ENTERPRISE_PLUS_LICENSES.includes(c.license) && c.services.has('distribution') ? 'source' : 'target'
}

/** Where the questionnaire lives (shell §4.6), and the quick-setup page (shell §2.6). */
export const ONBOARDING_PATH = '/onboarding'
export const QUICK_SETUP_PAGE = '/admin/onboarding/quick-setup'

/**
 * Shell §4.2, arriving from sign-in: on a first login with quick deploy on, an admin goes to quick
 * setup; an admin who still needs the new onboarding goes to the questionnaire (unless `target` is
 * excluded); else on to `target`.
 */
export function signInOnboardingGuard(c: ShellContext, status: OnboardingInitStatus | undefined, target: string): GuardResult {
  if (!status || !isAdmin(c)) return ALLOW
  const quickDeployEnabled = c.features.quickDeployLandingPage === true
  if (quickSetupRedirect({ isFirstLogin: status.isFirstLogin, quickDeployEnabled, fromLogin: true })) {
    return { kind: 'redirect', to: QUICK_SETUP_PAGE }
  }
  const onboarding = onboardingRedirect({
    admin: true,
    onboardingNeeded: status.isOnboardingNeeded,
    newOnboarding: c.features.newOnboarding === true,
    fromLogin: true,
    quickDeployEnabled,
    platformGetStarted: c.features.platformGetStarted === true,
    target,
  })
  return onboarding ? { kind: 'redirect', to: ONBOARDING_PATH } : ALLOW
}
