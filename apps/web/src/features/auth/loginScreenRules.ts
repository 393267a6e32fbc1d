import type { LoginRelatedData } from '@trove/contracts/auth'
import { format, type SsoErrorKey, SsoMessages } from '@trove/contracts/messages'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'
import type { LoginDialogSettings } from '@trove/contracts/sso'

/** Shell §4.4: the login view mode is external if the server says loginIsExternal, else internal; internal on failure. */
export function loginViewMode(data: LoginRelatedData | undefined, failed: boolean): 'internal' | 'external' {
  if (failed || !data) return 'internal'
  return data.loginIsExternal ? 'external' : 'internal'
}

export interface ProviderButton {
  key: string
  name: string
  url: string
  icon: string | null
}

/** The provider buttons: SAML links first, then OAuth providers; every URL goes through the sanitizer (§5). */
export function providerButtons(data: LoginRelatedData | undefined): ProviderButton[] {
  if (!data || data.isProvidersHidden) return []
  const buttons: ProviderButton[] = []
  for (const link of data.ssoProviderLinksSAML ?? []) {
    const url = sanitizeProviderUrl(link.url)
    if (url) buttons.push({ key: `saml:${link.name}`, name: link.name, url, icon: null })
  }
  for (const provider of data.oauthProviders ?? []) {
    const url = sanitizeProviderUrl(provider.url)
    if (url) buttons.push({ key: `oauth:${provider.name}`, name: provider.name, url, icon: sanitizeProviderUrl(provider.icon) })
  }
  return buttons
}

/** The text of a refused single sign-on, from the login URL's ssoError and ssoUser. */
export function ssoErrorText(key: unknown, user: unknown): string | null {
  if (typeof key !== 'string' || !key) return null
  const text = key in SsoMessages ? SsoMessages[key as SsoErrorKey] : SsoMessages.failed
  return format(text, { user: typeof user === 'string' ? user.slice(0, 64) : '' })
}

export const LOGIN_DIALOG_DISMISSED_KEY = 'trove.loginDialogDismissed'

/**
 * Shell §4.4: a stored login-dialog dismissal is removed when the config is permanent; if it is set
 * and the config is not permanent, the dialog settings are not applied. Answers whether to show it.
 */
export function applyLoginDialog(settings: LoginDialogSettings | undefined, storage: Storage = localStorage): boolean {
  if (!settings) return false
  if (settings.permanent) {
    storage.removeItem(LOGIN_DIALOG_DISMISSED_KEY)
    return settings.enabled
  }
  if (storage.getItem(LOGIN_DIALOG_DISMISSED_KEY) !== null) return false
  return settings.enabled
}

/** Closing the dialog: a non-permanent one stays closed on this browser; a permanent one comes back next time. */
export function dismissLoginDialog(settings: LoginDialogSettings, storage: Storage = localStorage): void {
  if (!settings.permanent) storage.setItem(LOGIN_DIALOG_DISMISSED_KEY, String(Date.now()))
}
