import { Profile, ProfileRequest, ProfileUpdate } from '@trove/contracts/auth'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../../core/context.js'
import { unauthorized } from '../../core/errors.js'
import { passwordlessReauth } from '../auth/reauth.js'
import { verifyCredentials } from '../auth/service.js'
import { findUserById, type UserRow } from '../users/repo.js'

const toProfile = (user: UserRow) => ({
  name: user.name,
  email: user.email,
  realm: user.realm,
  admin: Boolean(user.admin),
  mfaEnabled: Boolean(user.mfa_secret_encrypted),
})

/** The signed-in user's own profile, under /ui/api/v1/ui. Reading and changing it needs the password again. */
export const profileRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const me = async (request: Parameters<AppContext['principal']>[0], password: string) => {
      const principal = await ctx.principal(request)
      if (!principal) throw unauthorized()
      // OAuth and SAML users have no password here: a fresh sign-in at their provider stands in.
      const passwordless = await passwordlessReauth(db, principal)
      if (passwordless) return passwordless
      return verifyCredentials(db, { user: principal.name, password, ip: request.ip, allowExpired: true })
    }

    app.post(
      '/userProfile',
      {
        config: { access: 'user' },
        schema: { tags: ['profile'], summary: 'Your profile', body: ProfileRequest, response: { 200: Profile } },
      },
      async (request) => toProfile(await me(request, request.body.password)),
    )

    app.put(
      '/userProfile',
      {
        config: { access: 'user' },
        schema: { tags: ['profile'], summary: 'Change your e-mail address', body: ProfileUpdate, response: { 200: Profile } },
      },
      async (request) => {
        const user = await me(request, request.body.password)
        await db
          .updateTable('users')
          .set({ email: request.body.email, updated_at: Date.now() })
          .where('id', '=', user.id)
          .execute()
        return toProfile((await findUserById(db, user.id)) ?? user)
      },
    )
  }
