import { Footer, LoginQuery, LoginRequest, UserData } from '@trove/contracts/auth'
import { CSRF_COOKIE, SESSION_COOKIE } from '@trove/contracts/http'
import { type SerializeOptions, serialize } from 'cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../../core/context.js'
import { readGeneralConfig } from '../../core/instance.js'
import { ANONYMOUS_ACCESS_SETTING, getSetting } from '../../core/settings.js'
import { sessionToken } from './principal.js'
import { signIn, userData } from './service.js'
import { deleteSession, deleteSessionByToken, type NewSession } from './sessions.js'

function cookieOptions(request: FastifyRequest, expiresAt: number | null): SerializeOptions {
  return {
    path: '/',
    sameSite: 'lax',
    secure: request.protocol === 'https',
    // Without remember-me the cookie has no expiry, so it ends with the browser session.
    ...(expiresAt ? { expires: new Date(expiresAt) } : {}),
  }
}

/** Sets the session and CSRF cookies of a new sign-in (password or single sign-on). */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, session: NewSession, rememberMe: boolean): void {
  const expires = rememberMe ? session.expiresAt : null
  reply.header('set-cookie', [
    serialize(SESSION_COOKIE, session.token, { ...cookieOptions(request, expires), httpOnly: true }),
    serialize(CSRF_COOKIE, session.csrfToken, { ...cookieOptions(request, expires), httpOnly: false }),
  ])
}

function clearSessionCookies(reply: FastifyReply): void {
  const gone = { path: '/', expires: new Date(0), maxAge: 0 }
  reply.header('set-cookie', [serialize(SESSION_COOKIE, '', gone), serialize(CSRF_COOKIE, '', gone)])
}

/** The console's sign-in calls, under /ui/api/v1/ui/auth. */
export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/login',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Sign in with a user name and password',
          querystring: LoginQuery,
          body: LoginRequest,
          response: { 200: UserData },
        },
      },
      async (request, reply) => {
        // Sign-in always starts a fresh session: an existing one is ended, never reused (no fixation).
        const previous = sessionToken(request)
        if (previous) await deleteSessionByToken(ctx.db.kysely, previous)
        const rememberMe = request.query._spring_security_remember_me
        const { session, user } = await signIn(ctx.db.kysely, {
          user: request.body.user,
          password: request.body.password,
          rememberMe,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        })
        setSessionCookies(request, reply, session, rememberMe)
        request.log.info({ user: user.name, rememberMe }, 'signed in')
        return user
      },
    )

    app.post(
      '/logout',
      { config: { access: 'user' }, schema: { tags: ['auth'], summary: 'End the current session' } },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        if (principal?.sessionId) await deleteSession(ctx.db.kysely, principal.sessionId)
        clearSessionCookies(reply)
        return reply.code(204).send()
      },
    )

    app.get(
      '/current',
      {
        config: { access: 'public' },
        schema: { tags: ['auth'], summary: 'Who is signed in (anonymous when nobody)', response: { 200: UserData } },
      },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        reply.header('cache-control', 'no-store')
        return userData(principal)
      },
    )

    app.get(
      '/screen/footer',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Server name and version for the console frame',
          response: { 200: Footer },
        },
      },
      async () => ({
        serverName: (await readGeneralConfig(ctx.db.kysely, ctx.config)).serverName || null,
        version: ctx.build.version,
        revision: ctx.build.revision,
        anonymousAccess: await getSetting(ctx.db.kysely, ANONYMOUS_ACCESS_SETTING, false),
      }),
    )
  }
