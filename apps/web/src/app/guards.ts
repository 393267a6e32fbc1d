import type { MfaStatus, UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'

/** Where a guard sends the user, with the notice to show, if any. */
export type GuardResult =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string; search?: Record<string, unknown>; notice?: string; logout?: boolean }

const ALLOW: GuardResult = { kind: 'allow' }

export interface GuardRoute {
  /** Public routes (sign-in screens, error pages) skip the session guard. */
  public: boolean
  /** Sign-in routes send a user who is already signed in onwards. */
  login: boolean
}

export interface GuardInstance {
  anonymousAccess: boolean
  /** Shell §4.2: UI access can be blocked, which sends an anonymous user to login. */
  uiAccessBlocked?: boolean
}

/** The default route after sign-in. */
export const POST_LOGIN_PATH = '/'

/**
 * The session rules of shell §4.2: a signed-in user opening a sign-in route goes on to the default
 * post-login route; an anonymous user on a non-public page gets the not-authorized notice and is
 * sent to sign in (with the logout flag), unless anonymous access is allowed.
 */
export function sessionGuard(route: GuardRoute, user: UserData, instance: GuardInstance): GuardResult {
  if (route.login && !user.anonymous) return { kind: 'redirect', to: POST_LOGIN_PATH }
  if (route.public) return ALLOW
  if (user.anonymous && (!instance.anonymousAccess || instance.uiAccessBlocked)) {
    return { kind: 'redirect', to: '/login', search: { logout: true }, notice: Messages.notAuthorized, logout: true }
  }
  return ALLOW
}

/** Shell §4.2: the 500 page reached directly, with no previous route, redirects to /. */
export function internalErrorGuard(previousPath: string | undefined): GuardResult {
  return previousPath ? ALLOW : { kind: 'redirect', to: '/' }
}

/** Shell §2.5: the old bundles path becomes the release-bundles path. */
export function legacyBundlesPath(path: string): string | null {
  return /^\/bundles(\/|$)/.test(path) ? path.replace(/^\/bundles/, '/release-bundles') : null
}

/**
 * Shell §2.4: old links carrying a hash: the builds hash becomes the builds path with
 * jenkinsRedirect=true; any other (an artifact browser link) becomes /repos/{path}.
 */
export function hashRedirect(hash: string): { to: string; search?: Record<string, unknown> } | null {
  const path = hash.replace(/^#\/?/, '')
  if (!path) return null
  if (path.startsWith('builds/')) return { to: `/${path}`, search: { jenkinsRedirect: true } }
  const repoPath = path.replace(/^artifacts\/browse\/tree\/General\/?/, '')
  return repoPath ? { to: `/repos/${repoPath}` } : null
}

/** Shell §4.2: arriving from sign-in on a first login with quick deploy on, quick setup opens. */
export function quickSetupRedirect(s: { isFirstLogin: boolean; quickDeployEnabled: boolean; fromLogin: boolean }): boolean {
  return s.isFirstLogin && s.quickDeployEnabled && s.fromLogin
}

const ONBOARDING_EXCLUDED = [
  /^\/authorization/,
  /^\/login\/mfa-enroll/,
  /^\/login\/otp-login/,
  /^\/artifacts\/browse/,
  /^\/repos\//,
  /^\/native\//,
]

/**
 * Shell §4.2: an admin who needs the new onboarding, arriving from sign-in, with neither quick
 * deploy nor the platform get-started feature, goes to onboarding unless the target is excluded.
 */
export function onboardingRedirect(s: {
  admin: boolean
  onboardingNeeded: boolean
  newOnboarding: boolean
  fromLogin: boolean
  quickDeployEnabled: boolean
  platformGetStarted: boolean
  target: string
}): boolean {
  return (
    s.admin &&
    s.newOnboarding &&
    s.onboardingNeeded &&
    s.fromLogin &&
    !s.quickDeployEnabled &&
    !s.platformGetStarted &&
    !ONBOARDING_EXCLUDED.some((re) => re.test(s.target))
  )
}

/** Shell §4.2: a free-tier admin whose wizard is still open, arriving from sign-in, gets it closed. */
export function closeFreeTierWizard(s: {
  admin: boolean
  freeTier: boolean
  wizardClosed: boolean
  fromLogin: boolean
}): boolean {
  return s.admin && s.freeTier && !s.wizardClosed && s.fromLogin
}

/**
 * Shell §4.2: the CLI extension routes without a stored client session redirect to login with
 * logout; with one, an anonymous user signs in first (the session stays stored).
 */
export function cliGuard(user: UserData, cliLoginWaiting: boolean): GuardResult {
  if (!cliLoginWaiting) return { kind: 'redirect', to: '/login', search: { logout: true }, logout: true }
  if (user.anonymous) return { kind: 'redirect', to: '/login' }
  return ALLOW
}

/**
 * Shell §2.1 and §4.2: the command-line sign-in screen (/login/cli-registration) is the login
 * screen for a waiting client; without one stored it goes to login with logout, like the other
 * CLI routes.
 */
export function cliRegistrationGuard(cliLoginWaiting: boolean): GuardResult {
  return cliLoginWaiting ? ALLOW : { kind: 'redirect', to: '/login', search: { logout: true }, logout: true }
}

/**
 * Shell §4.4: after the password, the MFA status decides: enroll goes to the MFA enrolment screen,
 * verify to the one-time-code screen, anything else completes the sign-in.
 */
export function afterPassword(mfaStatus: MfaStatus): string {
  if (mfaStatus === 'enroll') return '/login/mfa-enroll'
  if (mfaStatus === 'verify') return '/login/otp-login'
  return POST_LOGIN_PATH
}

/** Shell §4.2: an invitation route with a missing or invalid token goes to login with logout. */
export function invitationGuard(): GuardResult {
  return { kind: 'redirect', to: '/login', search: { logout: true }, logout: true }
}
