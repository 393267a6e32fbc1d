import { BRAND_NAME } from '@trove/contracts/messages'

/** Page titles are the screen title, a dash, then the server name; the fallback is the brand name. */
export function pageTitle(screenTitle: string | undefined, serverName: string | null | undefined): string {
  const server = serverName?.trim() || BRAND_NAME
  return screenTitle ? `${screenTitle} - ${server}` : server
}
