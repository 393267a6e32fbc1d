import type { LoginRelatedData } from '@trove/contracts/auth'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'

export interface HandOffProvider {
  name: string
  url: string
}

/** Provider types that name every OpenID Connect provider, whatever its kind. */
const ANY_OPENID = new Set(['oauth', 'oidc'])

/**
 * The enabled providers of a type, as the login data lists them: `saml` is the SAML identity
 * provider; `oauth` (or `oidc`) any OpenID Connect provider; any other type (google, azure,
 * okta, keycloak, gitlab) the OpenID Connect providers of exactly that kind. Every link passes
 * the provider-URL sanitizer (shell §5); one that does not is left out.
 */
export function providersOfType(type: string, data: LoginRelatedData | undefined): HandOffProvider[] {
  if (!data) return []
  const kind = type.trim().toLowerCase()
  const listed =
    kind === 'saml'
      ? data.ssoProviderLinksSAML
      : data.oauthProviders.filter((p) => ANY_OPENID.has(kind) || p.type.toLowerCase() === kind)
  return listed.flatMap((p) => {
    const url = sanitizeProviderUrl(p.url)
    return url ? [{ name: p.name, url }] : []
  })
}

export type HandOff =
  | { kind: 'leave'; provider: HandOffProvider }
  | { kind: 'choose'; providers: HandOffProvider[] }
  | { kind: 'none' }

/**
 * What the hand-off does: go to the one provider of the type (or the one `name` picks), let the
 * user choose when several are set up, or say that none is.
 */
export function handOff(type: string, name: string | undefined, data: LoginRelatedData | undefined): HandOff {
  const providers = providersOfType(type, data)
  const picked = name ? providers.filter((p) => p.name === name) : providers
  const [first] = picked
  if (!first) return { kind: 'none' }
  return picked.length === 1 ? { kind: 'leave', provider: first } : { kind: 'choose', providers: picked }
}
