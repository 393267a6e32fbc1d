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
  if (user.anonymous && !instance.anonymousAccess) {
    return { kind: 'redirect', to: '/login', search: { logout: true }, notice: Messages.notAuthorized, logout: true }
  }
  return ALLOW
}

/** Shell §4.2: the 500 page reached directly, with no previous route, redirects to /. */
export function internalErrorGuard(previousPath: string | undefined): GuardResult {
  return previousPath ? ALLOW : { kind: 'redirect', to: '/' }
}

/**
 * Landing for / and /home. Shell §4.1's per-kind landing tabs (topology, packages, repos, …) arrive
 * with their screens; until then every signed-in user lands on the overview.
 */
export function landingGuard(user: UserData, instance: GuardInstance, cliLoginWaiting = false): GuardResult {
  if (user.anonymous && !instance.anonymousAccess) return { kind: 'redirect', to: '/login' }
  // A command-line client is waiting for this sign-in: approving it comes first.
  if (cliLoginWaiting && !user.anonymous) return { kind: 'redirect', to: '/plugs/extension/cli/verify' }
  return { kind: 'redirect', to: '/overview' }
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
