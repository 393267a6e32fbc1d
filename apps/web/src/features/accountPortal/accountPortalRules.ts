import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'

/**
 * Where the account-portal redirect goes: the configured URL when it is an absolute http(s) URL
 * that passes the URL sanitizer, else nowhere (the screen then says none is set).
 */
export function portalTarget(url: string | undefined): string | null {
  const value = url?.trim() ?? ''
  if (!/^https?:\/\//i.test(value)) return null
  return sanitizeProviderUrl(value)
}

/** The settings form's check, the same rule the server applies: empty, or a URL the redirect would follow. */
export const isAcceptablePortalUrl = (url: string) => url.trim() === '' || portalTarget(url) !== null
