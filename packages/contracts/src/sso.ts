import { z } from 'zod'
import { DEFAULT_SAML_PROVIDER_NAME } from './messages.js'
import { sanitizeProviderUrl } from './safeUrl.js'

/**
 * Kinds of OAuth / OpenID Connect provider. Every kind is spoken to as OpenID Connect (discovery
 * from the issuer URL, authorization code with PKCE); the kind names the icon and is the realm of
 * the users the provider signs in.
 */
export const OAuthProviderType = z.enum(['oauth', 'google', 'azure', 'okta', 'keycloak', 'gitlab'])
export type OAuthProviderType = z.infer<typeof OAuthProviderType>

const ProviderName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, 'Name can only contain alphanumeric characters, dashes and periods')

/** A URL that passes the provider-URL sanitizer (http or https only). */
const SafeUrl = z
  .string()
  .max(2048)
  .refine((v) => sanitizeProviderUrl(v) !== null && /^https?:\/\//i.test(v.trim()), 'Enter a valid URL')

const GroupNames = z.array(z.string().min(1).max(64)).max(50)

/** What an administrator sends to create or change an OAuth provider. */
export const OAuthProviderInput = z.object({
  name: ProviderName,
  type: OAuthProviderType.default('oauth'),
  issuerUrl: SafeUrl,
  clientId: z.string().min(1).max(512),
  /** Required on create; on edit, absent keeps the stored secret. */
  clientSecret: z.string().min(1).max(2048).optional(),
  icon: z.union([SafeUrl, z.literal('')]).optional(),
  enabled: z.boolean().default(true),
  autoCreateUsers: z.boolean().default(false),
  defaultGroups: GroupNames.default([]),
})
export type OAuthProviderInput = z.input<typeof OAuthProviderInput>

/** An OAuth provider as administrators see it: the client secret never leaves the server. */
export const OAuthProvider = z
  .object({
    name: z.string(),
    type: OAuthProviderType,
    issuerUrl: z.string(),
    clientId: z.string(),
    hasClientSecret: z.boolean(),
    icon: z.string().nullable(),
    enabled: z.boolean(),
    autoCreateUsers: z.boolean(),
    defaultGroups: z.array(z.string()),
    /** The redirect URI to register at the provider. */
    redirectUri: z.string(),
  })
  .meta({ id: 'OAuthProvider' })
export type OAuthProvider = z.infer<typeof OAuthProvider>

export const OAuthProviderList = z.object({ providers: z.array(OAuthProvider) }).meta({ id: 'OAuthProviderList' })
export type OAuthProviderList = z.infer<typeof OAuthProviderList>

/** Shell §3: an OAuth provider as the login screen shows it. */
export const OAuthLoginProvider = z
  .object({ name: z.string(), type: z.string(), url: z.string(), icon: z.string().nullable() })
  .meta({ id: 'OAuthLoginProvider' })
export type OAuthLoginProvider = z.infer<typeof OAuthLoginProvider>

/** Shell §3: a SAML provider link on the login screen. */
export const SsoProviderLink = z.object({ name: z.string(), url: z.string() }).meta({ id: 'SsoProviderLink' })
export type SsoProviderLink = z.infer<typeof SsoProviderLink>

/** The SAML 2.0 identity provider settings. */
export const SamlSettings = z.object({
  enabled: z.boolean().default(false),
  providerName: z.string().min(1).max(64).default(DEFAULT_SAML_PROVIDER_NAME),
  /** The identity provider's single-sign-on URL (HTTP-Redirect binding). */
  loginUrl: SafeUrl,
  /** Where the browser goes on logout, when the identity provider has one. */
  logoutUrl: z.union([SafeUrl, z.literal('')]).default(''),
  /** The identity provider's signing certificate (PEM or bare base64). */
  certificate: z.string().min(1).max(16384),
  /** The identity provider's entity id, checked against the response's Issuer when set. */
  idpIssuer: z.string().max(1024).default(''),
  /** Trove's entity id; defaults to the metadata URL. */
  serviceProviderId: z.string().max(1024).default(''),
  autoCreateUsers: z.boolean().default(false),
  defaultGroups: GroupNames.default([]),
})
export type SamlSettings = z.infer<typeof SamlSettings>
export type SamlSettingsInput = z.input<typeof SamlSettings>

/** What an administrator reads back: SAML settings (or null) and Trove's side of the exchange. */
export const SamlSettingsView = z
  .object({
    settings: SamlSettings.nullable(),
    metadataUrl: z.string(),
    acsUrl: z.string(),
    registrationId: z.string(),
  })
  .meta({ id: 'SamlSettingsView' })

/** Login screen settings an administrator chooses (shell §3 and §4.4). */
export const LoginScreenSettings = z.object({
  /** Shell §4.2: the login route sends the browser straight to the single-sign-on provider. */
  autoRedirect: z.boolean().default(false),
  /** Shell §4.4: the login view mode is external (single sign-on first). */
  loginIsExternal: z.boolean().default(false),
  /** Hides the provider buttons (an administrator may sign in with the form only). */
  isProvidersHidden: z.boolean().default(false),
  /** A notice shown on the login screen; a permanent one cannot be dismissed for good. */
  dialog: z
    .object({
      enabled: z.boolean().default(false),
      title: z.string().max(200).default(''),
      content: z.string().max(4000).default(''),
      permanent: z.boolean().default(false),
    })
    .default({ enabled: false, title: '', content: '', permanent: false }),
})
export type LoginScreenSettings = z.infer<typeof LoginScreenSettings>

/** GET …/ui/auth/screen/loginDialogSettings: the login page notice (shell §3 loginDialogSettingsContent). */
export const LoginDialogSettings = z
  .object({ enabled: z.boolean(), title: z.string(), content: z.string(), permanent: z.boolean() })
  .meta({ id: 'LoginDialogSettings' })
export type LoginDialogSettings = z.infer<typeof LoginDialogSettings>

/** GET …/ui/auth/screen/loginVisualMode */
export const LoginVisualMode = z
  .object({ loginIsExternal: z.boolean(), isProvidersHidden: z.boolean() })
  .meta({ id: 'LoginVisualMode' })

/** GET …/ui/auth/autoRedirectLogin (shell §7.1 auto-redirect state) */
export const AutoRedirectState = z.object({ isAutoRedirectLogin: z.boolean() }).meta({ id: 'AutoRedirectState' })

/** GET …/ui/auth/saml/logoutUrl (shell §7.1) */
export const SamlLogoutUrl = z.object({ logoutUrl: z.string().nullable() }).meta({ id: 'SamlLogoutUrl' })
/** GET …/ui/auth/saml/registrationId */
export const SamlRegistrationId = z.object({ samlRegistrationId: z.string() }).meta({ id: 'SamlRegistrationId' })

/** GET …/ui/auth/redirect?redirectTo=: where a stored redirect leads (shell §4.4). */
export const RedirectTarget = z.object({ url: z.string() }).meta({ id: 'RedirectTarget' })
