import { SAML, ValidateInResponseTo } from '@node-saml/node-saml'
import type { SamlSettings } from '@trove/contracts/sso'
import { certificateBody } from './certificate.js'

/**
 * Trove as a SAML 2.0 service provider for the configured identity provider. Assertions must be
 * signed by the configured certificate (an unsigned or altered one is refused), be addressed to
 * Trove's entity id and be within their validity window.
 */
export function samlServiceProvider(settings: SamlSettings, urls: { acs: string; entityId: string }): SAML {
  return new SAML({
    callbackUrl: urls.acs,
    entryPoint: settings.loginUrl,
    issuer: urls.entityId,
    audience: urls.entityId,
    idpCert: certificateBody(settings.certificate),
    ...(settings.idpIssuer ? { idpIssuer: settings.idpIssuer } : {}),
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // Identity-provider-initiated sign-in is allowed: there may be no request to answer.
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: 60_000,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    ...(settings.logoutUrl ? { logoutUrl: settings.logoutUrl } : {}),
  })
}

/** The user name an assertion vouches for: the NameID, else a usual attribute. */
export function samlUserName(profile: Record<string, unknown>): { name: string | null; email: string | null } {
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null)
  const email =
    text(profile.email) ??
    text(profile.mail) ??
    text(profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'])
  return { name: text(profile.nameID) ?? text(profile.uid) ?? email, email }
}
