import crypto from 'node:crypto'
import { format, type SsoErrorKey, SsoMessages } from '@trove/contracts/messages'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'
import { LoginScreenSettings, type OAuthLoginProvider, type SamlSettings, type SsoProviderLink } from '@trove/contracts/sso'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { AppContext } from '../../core/context.js'
import { HttpError } from '../../core/errors.js'

/** A refused single sign-on: the browser goes back to the login screen, which shows the message. */
export class SsoError extends HttpError {
  constructor(
    readonly key: SsoErrorKey,
    readonly user?: string,
  ) {
    super(403, format(SsoMessages[key], { user: user ?? '' }), key)
  }
}

import type { Database } from '../../core/schema.js'
import { getSetting, setSetting } from '../../core/settings.js'
import { recordChange } from '../access/audit.js'
import { createSession, type NewSession } from '../auth/sessions.js'
import { findUserByName, joinNewUserGroups, type UserRow } from '../users/repo.js'
import { listProviders } from './repo.js'

export const SAML_SETTING = 'security.saml'
export const SAML_REGISTRATION_SETTING = 'security.samlRegistrationId'
export const LOGIN_SCREEN_SETTING = 'security.loginScreen'

/** The console API prefix of the single-sign-on calls. */
export const SSO_API = '/ui/api/v1/ui/auth'

/** The URL users reach Trove at: the configured base URL, else what this request was sent to. */
export function publicBaseUrl(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.baseUrl ?? `${request.protocol}://${request.host}`
}

export const oauthRedirectUri = (base: string) => `${base}${SSO_API}/oauth/callback`
export const samlAcsUrl = (base: string) => `${base}${SSO_API}/saml/acs`
export const samlMetadataUrl = (base: string) => `${base}${SSO_API}/saml/metadata`
export const samlLoginPath = `${SSO_API}/saml/login`
export const oauthAuthorizePath = (name: string) => `${SSO_API}/oauth/${encodeURIComponent(name)}/authorize`

export const readSamlSettings = (db: Kysely<Database>) => getSetting<SamlSettings | null>(db, SAML_SETTING, null)

export async function readLoginScreenSettings(db: Kysely<Database>): Promise<LoginScreenSettings> {
  return LoginScreenSettings.parse(await getSetting<unknown>(db, LOGIN_SCREEN_SETTING, {}))
}

/** A stable id of this instance's SAML registration, made once. */
export async function samlRegistrationId(db: Kysely<Database>): Promise<string> {
  const existing = await getSetting<string | null>(db, SAML_REGISTRATION_SETTING, null)
  if (existing) return existing
  const made = `trove-${crypto.randomBytes(8).toString('hex')}`
  await setSetting(db, SAML_REGISTRATION_SETTING, made)
  return getSetting<string>(db, SAML_REGISTRATION_SETTING, made)
}

export interface SsoLoginData {
  oauthProviders: OAuthLoginProvider[]
  ssoProviderLinksSAML: SsoProviderLink[]
  ssoProviderLink: string | null
  loginIsExternal: boolean
  isProvidersHidden: boolean
  isUserPluginEnabled: boolean
  logoutUrl: string | null
  samlRegistrationId: string
}

/** The single-sign-on part of the login screen's data; every link passes the URL sanitizer. */
export async function ssoLoginData(db: Kysely<Database>): Promise<SsoLoginData> {
  const [providers, saml, screen, registrationId] = await Promise.all([
    listProviders(db),
    readSamlSettings(db),
    readLoginScreenSettings(db),
    samlRegistrationId(db),
  ])
  const oauthProviders = providers
    .filter((p) => p.enabled)
    .map((p) => ({
      name: p.name,
      type: p.type,
      url: sanitizeProviderUrl(oauthAuthorizePath(p.name)) ?? '',
      icon: p.icon ? sanitizeProviderUrl(p.icon) : null,
    }))
    .filter((p) => p.url)
  const ssoProviderLinksSAML = saml?.enabled ? [{ name: saml.providerName, url: samlLoginPath }] : []
  const ssoProviderLink = ssoProviderLinksSAML[0]?.url ?? oauthProviders[0]?.url ?? null
  return {
    oauthProviders,
    ssoProviderLinksSAML,
    ssoProviderLink,
    loginIsExternal: screen.loginIsExternal,
    isProvidersHidden: screen.isProvidersHidden,
    // Trove has no user plugins: the password form is always Trove's own.
    isUserPluginEnabled: false,
    logoutUrl: saml?.enabled && saml.logoutUrl ? sanitizeProviderUrl(saml.logoutUrl) : null,
    samlRegistrationId: registrationId,
  }
}

/** Auto-redirect is on when an administrator turned it on and there is a provider to go to. */
export async function isAutoRedirectLogin(db: Kysely<Database>): Promise<boolean> {
  const screen = await readLoginScreenSettings(db)
  if (!screen.autoRedirect) return false
  return (await ssoLoginData(db)).ssoProviderLink !== null
}

export interface SsoIdentity {
  /** The user name the provider vouches for. */
  name: string
  email: string | null
  /** The realm of users this provider signs in: the provider type ('oauth', 'saml', …). */
  realm: string
  autoCreateUsers: boolean
  /** Groups a new account joins (by name), besides the groups marked auto-join. */
  defaultGroups: string[]
  /** Who made the account, for the audit log: 'oauth:<provider>' or 'saml'. */
  via: string
}

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/

/**
 * The user a provider vouched for: found by name when that account belongs to the same realm,
 * made when the provider auto-creates users, refused otherwise. An internal account of the same
 * name is never taken over by a provider. A new account joins the provider's default groups and the
 * auto-join groups, and is audited, in the same transaction as the account itself.
 */
export async function resolveSsoUser(
  db: Kysely<Database>,
  identity: SsoIdentity,
  onCreated: (user: UserRow, joined: string[]) => Promise<void>,
): Promise<UserRow> {
  if (!USER_NAME.test(identity.name)) {
    throw new SsoError('noUserName')
  }
  const existing = await findUserByName(db, identity.name)
  if (existing) {
    if (existing.realm !== identity.realm) {
      throw new SsoError('otherRealm', identity.name)
    }
    if (existing.disabled) throw new SsoError('disabled', identity.name)
    return existing
  }
  if (!identity.autoCreateUsers) throw new SsoError('notAutoCreated', identity.name)
  const now = Date.now()
  const created = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values({
        name: identity.name,
        email: identity.email,
        password_hash: null,
        realm: identity.realm,
        admin: 0,
        disabled: 0,
        created_at: now,
        updated_at: now,
        password_changed_at: null,
      })
      .execute()
    const user = await findUserByName(trx, identity.name)
    if (!user) throw new HttpError(500, 'The account was not created')
    const joined = await joinNewUserGroups(trx, user.id, identity.defaultGroups)
    await recordChange(trx, {
      actor: identity.via,
      action: 'user.create',
      targetType: 'user',
      targetName: user.name,
      details: { realm: identity.realm, groups: joined },
    })
    return { user, joined }
  })
  await onCreated(created.user, created.joined)
  return created.user
}

/** Opens a server session for a user a provider vouched for, like a password sign-in without remember-me. */
export function openSsoSession(db: Kysely<Database>, user: UserRow, request: FastifyRequest): Promise<NewSession> {
  return createSession(db, {
    userId: user.id,
    rememberMe: false,
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  })
}
