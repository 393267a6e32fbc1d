import type { LoginRelatedData, UserData } from '@trove/contracts/auth'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'

export interface LoginSearch {
  ssoError?: string
  ssoUser?: string
  redirectTo?: string
  noAutoRedirect?: boolean
  /** Set by the guards that end the session on the way to sign in. */
  logout?: boolean
}

const FROM_LOGIN = /^(\/ui)?\/(login|auth)(\/|$|\?)/

/**
 * Shell §4.2: the login route asks the server about auto-redirect only when the user did not
 * arrive from a login path. A failed single sign-on coming back (ssoError) and an explicit
 * `noAutoRedirect` (the way in for a local administrator when the provider is down) do not ask.
 */
export function shouldAskAutoRedirect(previousPath: string | undefined, search: LoginSearch): boolean {
  if (search.ssoError || search.noAutoRedirect) return false
  return !(previousPath && FROM_LOGIN.test(previousPath))
}

/** Where auto-redirect sends the browser: the single-sign-on provider link, sanitized (§5), or nowhere. */
export function autoRedirectTarget(isAutoRedirectLogin: boolean, data: LoginRelatedData | undefined): string | null {
  if (!isAutoRedirectLogin || !data) return null
  return sanitizeProviderUrl(data.ssoProviderLink)
}

/** Shell §4.2 logout navigation: for a SAML user the browser then goes to the SAML logout URL. */
export function samlLogoutTarget(user: UserData | undefined, logoutUrl: string | null | undefined): string | null {
  if (!user || user.anonymous || user.realm !== 'saml') return null
  return sanitizeProviderUrl(logoutUrl)
}

/** A resolved redirectTo becomes the post-login path when it is a console page; anything else is dropped. */
export function consolePathOf(url: string): string | null {
  if (!url.startsWith('/ui/') || url.startsWith('/ui/api/')) return null
  return url.slice('/ui'.length)
}

export function parseLoginSearch(search: Record<string, unknown>): LoginSearch {
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
  return {
    ssoError: text(search.ssoError),
    ssoUser: text(search.ssoUser),
    redirectTo: text(search.redirectTo),
    noAutoRedirect: search.noAutoRedirect === true || search.noAutoRedirect === 'true' ? true : undefined,
    logout: search.logout === true || search.logout === 'true' ? true : undefined,
  }
}
