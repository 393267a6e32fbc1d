import {
  AutoRedirectState,
  LoginDialogSettings,
  LoginVisualMode,
  OAuthLoginProvider,
  RedirectTarget,
  SamlLogoutUrl,
  SamlRegistrationId,
} from '@trove/contracts/sso'
import { parse, serialize } from 'cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { sessionToken } from '../auth/principal.js'
import { setSessionCookies } from '../auth/routes.js'
import { deleteSessionByToken } from '../auth/sessions.js'
import type { UserRow } from '../users/repo.js'

import { findProvider, findProviderById, STATE_LIFETIME_MS, saveState, takeState } from './repo.js'
import {
  isAutoRedirectLogin,
  oauthRedirectUri,
  openSsoSession,
  publicBaseUrl,
  readLoginScreenSettings,
  readSamlSettings,
  resolveSsoUser,
  SsoError,
  samlAcsUrl,
  samlMetadataUrl,
  samlRegistrationId,
  ssoLoginData,
} from './service.js'

// The OpenID Connect and SAML libraries load on first use, not at start-up (cold start).
const oidc = () => import('./oidc.js')
const samlLib = () => import('./saml.js')

const HOME = '/ui/'
/** Binds an authorization request to the browser that started it (no login CSRF). */
const STATE_COOKIE = 'trove_sso_state'
const STATE_COOKIE_PATH = '/ui/api/v1/ui/auth/oauth'
const stateCookieOf = (request: FastifyRequest) => {
  const header = request.headers.cookie
  return header ? parse(header)[STATE_COOKIE] : undefined
}

/** Where a stored redirect may lead: a path on this server, never another site (shell §4.4). */
export function resolveRedirect(redirectTo: string | undefined, base: string): string {
  if (!redirectTo) return '/'
  // Resolved as a browser would (tabs and newlines dropped, `\` read as `/`), then judged by the
  // origin it leads to: `/\t/evil.example.com` is `//evil.example.com` to a browser.
  if ([...redirectTo].some((c) => c <= '\u001f' || c === '\u007f' || c === '\\')) return '/'
  try {
    const url = new URL(redirectTo.trim(), base)
    if (url.origin === new URL(base).origin) return `${url.pathname}${url.search}${url.hash}`
  } catch {
    // not a URL
  }
  return '/'
}

/** The single-sign-on calls of the login screen, under /ui/api/v1/ui/auth. */
export const ssoRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    // The identity provider posts its SAML response as an HTML form.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    })

    /** Ends the browser's previous session, opens the new one and goes home. */
    const signInBrowser = async (request: FastifyRequest, reply: FastifyReply, user: UserRow, via: string) => {
      const previous = sessionToken(request)
      if (previous) await deleteSessionByToken(db, previous)
      const session = await openSsoSession(db, user, request)
      setSessionCookies(request, reply, session, false)
      request.log.info({ user: user.name, via }, 'signed in')
      return reply.redirect(HOME, 302)
    }

    /** A refusal goes back to the login screen with its reason. */
    const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown, via: string) => {
      const sso = error instanceof SsoError ? error : new SsoError('failed')
      request.log.warn(
        { via, reason: sso.key, user: sso.user, detail: error instanceof SsoError ? undefined : String(error) },
        'single sign-on refused',
      )
      const query = new URLSearchParams({ ssoError: sso.key, ...(sso.user ? { ssoUser: sso.user } : {}) })
      return reply.redirect(`/ui/login?${query}`, 302)
    }

    /** A new account's group memberships count at once on this node (others see the access version). */
    const onCreated = (request: FastifyRequest) => async (user: UserRow, groups: string[]) => {
      ctx.authz.invalidate?.()
      request.log.info({ user: user.name, realm: user.realm, groups }, 'account created by single sign-on')
    }

    app.get(
      '/oauth/providers',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'The OAuth providers the login screen offers',
          querystring: z.object({ registrationToken: z.string().max(256).optional() }),
          response: { 200: z.object({ providers: z.array(OAuthLoginProvider) }) },
        },
      },
      async () => ({ providers: (await ssoLoginData(db)).oauthProviders }),
    )

    app.get(
      '/oauth/:name/authorize',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'Start signing in with an OAuth / OpenID Connect provider (redirects to it)',
          params: z.object({ name: z.string().min(1).max(64) }),
        },
      },
      async (request, reply) => {
        try {
          const provider = await findProvider(db, request.params.name)
          if (!provider?.enabled) throw new SsoError('unknownProvider')
          const { providerConfiguration, startAuthorization } = await oidc()
          const config = await providerConfiguration(provider, ctx.secrets.open(provider.client_secret_sealed))
          const redirectUri = oauthRedirectUri(publicBaseUrl(ctx, request))
          const start = await startAuthorization(config, redirectUri)
          await saveState(db, start.state, {
            providerId: provider.id,
            nonce: start.nonce,
            codeVerifier: start.codeVerifier,
            redirectUri,
          })
          reply.header('cache-control', 'no-store')
          reply.header(
            'set-cookie',
            serialize(STATE_COOKIE, start.state, {
              path: STATE_COOKIE_PATH,
              httpOnly: true,
              sameSite: 'lax',
              secure: request.protocol === 'https',
              maxAge: STATE_LIFETIME_MS / 1000,
            }),
          )
          return reply.redirect(start.url.href, 302)
        } catch (error) {
          return refuse(request, reply, error, 'oauth')
        }
      },
    )

    app.get(
      '/oauth/callback',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'Where the OAuth provider sends the browser back (signs in, then redirects)',
          querystring: z.object({ state: z.string().max(512).optional() }).loose(),
        },
      },
      async (request, reply) => {
        // The state cookie is spent whatever happens.
        reply.header('set-cookie', serialize(STATE_COOKIE, '', { path: STATE_COOKIE_PATH, maxAge: 0 }))
        try {
          // The callback must come back to the browser that started the sign-in: a link with
          // someone else's code and state (login CSRF) is refused.
          const state = request.query.state
          if (!state || stateCookieOf(request) !== state) throw new SsoError('expired')
          const pending = await takeState(db, state)
          if (!pending) throw new SsoError('expired')
          const provider = await findProviderById(db, pending.providerId)
          if (!provider?.enabled) throw new SsoError('unknownProvider')
          const { providerConfiguration, finishAuthorization } = await oidc()
          const config = await providerConfiguration(provider, ctx.secrets.open(provider.client_secret_sealed))
          // The URL the provider redirected to, rebuilt on the redirect URI the request was made with.
          const callbackUrl = new URL(pending.redirectUri)
          callbackUrl.search = new URL(request.url, 'http://x').search
          const identity = await finishAuthorization(config, callbackUrl, {
            state,
            nonce: pending.nonce,
            codeVerifier: pending.codeVerifier,
          })
          const user = await resolveSsoUser(
            db,
            {
              name: identity.name ?? '',
              email: identity.email,
              realm: provider.type,
              autoCreateUsers: Boolean(provider.auto_create_users),
              defaultGroups: JSON.parse(provider.default_groups) as string[],
              via: `oauth:${provider.name}`,
            },
            onCreated(request),
          )
          return await signInBrowser(request, reply, user, `oauth:${provider.name}`)
        } catch (error) {
          return refuse(request, reply, error, 'oauth')
        }
      },
    )

    const samlProvider = async (request: FastifyRequest) => {
      const settings = await readSamlSettings(db)
      if (!settings?.enabled) throw new SsoError('samlOff')
      const base = publicBaseUrl(ctx, request)
      const entityId = settings.serviceProviderId || samlMetadataUrl(base)
      const { samlServiceProvider } = await samlLib()
      return { settings, saml: samlServiceProvider(settings, { acs: samlAcsUrl(base), entityId }) }
    }

    app.get(
      '/saml/login',
      {
        config: { access: 'public' },
        schema: { tags: ['sso'], summary: 'Start signing in with the SAML identity provider (redirects to it)' },
      },
      async (request, reply) => {
        try {
          const { saml } = await samlProvider(request)
          reply.header('cache-control', 'no-store')
          return reply.redirect(await saml.getAuthorizeUrlAsync('', request.host, {}), 302)
        } catch (error) {
          return refuse(request, reply, error, 'saml')
        }
      },
    )

    app.get(
      '/saml/metadata',
      {
        config: { access: 'public' },
        schema: { tags: ['sso'], summary: "Trove's SAML service-provider metadata (give it to the identity provider)" },
      },
      async (request, reply) => {
        const settings = await readSamlSettings(db)
        const base = publicBaseUrl(ctx, request)
        const entityId = settings?.serviceProviderId || samlMetadataUrl(base)
        // Metadata describes Trove's side only, so it is served even before the IdP is configured.
        const { samlServiceProvider } = await samlLib()
        const saml = samlServiceProvider(
          settings ?? {
            enabled: false,
            providerName: 'SAML SSO',
            loginUrl: `${base}/`,
            logoutUrl: '',
            certificate: 'unset',
            idpIssuer: '',
            serviceProviderId: '',
            autoCreateUsers: false,
            defaultGroups: [],
          },
          { acs: samlAcsUrl(base), entityId },
        )
        return reply.type('application/samlmetadata+xml').send(saml.generateServiceProviderMetadata(null, null))
      },
    )

    app.post(
      '/saml/acs',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'SAML assertion consumer: checks the signed assertion, signs in, then redirects',
          body: z.object({ SAMLResponse: z.string().min(1).max(1_000_000), RelayState: z.string().max(2048).optional() }),
        },
      },
      async (request, reply) => {
        try {
          const { settings, saml } = await samlProvider(request)
          const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: request.body.SAMLResponse })
          if (!profile) throw new SsoError('failed')
          const { samlUserName } = await samlLib()
          const who = samlUserName(profile as unknown as Record<string, unknown>)
          const user = await resolveSsoUser(
            db,
            {
              name: who.name ?? '',
              email: who.email,
              realm: 'saml',
              autoCreateUsers: settings.autoCreateUsers,
              defaultGroups: settings.defaultGroups,
              via: 'saml',
            },
            onCreated(request),
          )
          return await signInBrowser(request, reply, user, 'saml')
        } catch (error) {
          return refuse(request, reply, error, 'saml')
        }
      },
    )

    app.get(
      '/saml/logoutUrl',
      {
        config: { access: 'public' },
        schema: { tags: ['sso'], summary: "The SAML identity provider's logout URL", response: { 200: SamlLogoutUrl } },
      },
      async () => ({ logoutUrl: (await ssoLoginData(db)).logoutUrl }),
    )

    app.get(
      '/saml/registrationId',
      {
        config: { access: 'public' },
        schema: { tags: ['sso'], summary: "This instance's SAML registration id", response: { 200: SamlRegistrationId } },
      },
      async () => ({ samlRegistrationId: await samlRegistrationId(db) }),
    )

    app.get(
      '/autoRedirectLogin',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'Whether the login route goes straight to single sign-on',
          response: { 200: AutoRedirectState },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store')
        return { isAutoRedirectLogin: await isAutoRedirectLogin(db) }
      },
    )

    app.get(
      '/screen/loginDialogSettings',
      {
        config: { access: 'public' },
        schema: { tags: ['sso'], summary: 'The notice on the login screen', response: { 200: LoginDialogSettings } },
      },
      async () => (await readLoginScreenSettings(db)).dialog,
    )

    app.get(
      '/screen/loginVisualMode',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'Whether the login screen puts single sign-on first',
          response: { 200: LoginVisualMode },
        },
      },
      async () => {
        const screen = await readLoginScreenSettings(db)
        return { loginIsExternal: screen.loginIsExternal, isProvidersHidden: screen.isProvidersHidden }
      },
    )

    app.get(
      '/screen/realms',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'Which sign-in realms are on (shell §3 realms statuses)',
          response: { 200: z.object({ realms: z.array(z.object({ realm: z.string(), enabled: z.boolean() })) }) },
        },
      },
      async () => {
        const data = await ssoLoginData(db)
        return {
          realms: [
            { realm: 'internal', enabled: true },
            { realm: 'saml', enabled: data.ssoProviderLinksSAML.length > 0 },
            ...[...new Set(data.oauthProviders.map((p) => p.type))].map((realm) => ({ realm, enabled: true })),
          ],
        }
      },
    )

    app.get(
      '/screen/userPlugins',
      {
        config: { access: 'public' },
        schema: {
          tags: ['sso'],
          summary: 'Whether a user plugin handles the password form (never in Trove)',
          response: { 200: z.object({ authUserPlugin: z.boolean() }) },
        },
      },
      async () => ({ authUserPlugin: false }),
    )

    app.get(
      '/redirect',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Where a stored redirect (redirectTo) leads: a path on this server',
          querystring: z.object({ redirectTo: z.string().max(4096).optional() }),
          response: { 200: RedirectTarget },
        },
      },
      async (request) => ({ url: resolveRedirect(request.query.redirectTo, publicBaseUrl(ctx, request)) }),
    )
  }
