import {
  AcceptInvitationRequest,
  InvitationInfo,
  InvitationRequest,
  LoginRelatedData,
  RegistrationRequest,
  UserData,
} from '@trove/contracts/auth'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { unauthorized } from '../../core/errors.js'
import { readMailSettings } from '../../core/mail.js'
import { getSetting, setSetting } from '../../core/settings.js'
import { acceptInvitation, invite, liveInvitation, REGISTRATION_SETTING, register } from '../auth/accounts.js'
import { toUserData } from '../auth/service.js'
import { guardSecret } from '../auth/throttle.js'
import { ssoLoginData } from '../sso/service.js'

const TokenQuery = z.object({ token: z.string().min(1).max(128) })

/** Registration, invitations and the login screen's data, under /ui/api/v1/ui/auth. */
export const accountRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    const loginRelatedData = async () => ({
      forgotPassword: Boolean((await readMailSettings(db))?.enabled),
      canRememberMe: true,
      passwordAutocompleteEnabled: true,
      registrationEnabled: await getSetting(db, REGISTRATION_SETTING, false),
      ...(await ssoLoginData(db)),
    })
    app.get(
      '/screen/loginRelatedData',
      {
        config: { access: 'public' },
        schema: { tags: ['auth'], summary: 'What the login screen offers', response: { 200: LoginRelatedData } },
      },
      loginRelatedData,
    )
    // Shell §7.1 also names a POST form of this call (with a dummy body): same answer.
    app.post(
      '/screen/loginRelatedData',
      {
        // A read in the form of a POST: it changes nothing.
        config: { access: 'public', reads: true },
        schema: {
          tags: ['auth'],
          summary: 'What the login screen offers (POST form, body ignored)',
          body: z.unknown().optional(),
          response: { 200: LoginRelatedData },
        },
      },
      loginRelatedData,
    )

    app.post(
      '/register',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Create an account (when registration is open)',
          body: RegistrationRequest,
          response: { 201: UserData },
        },
      },
      async (request, reply) => {
        const user = await register(db, request.body)
        ctx.authz.invalidate?.()
        request.log.info({ user: user.name }, 'account registered')
        return reply.code(201).send(toUserData(user))
      },
    )

    app.get(
      '/invitation',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Whom an invitation is for',
          querystring: TokenQuery,
          response: { 200: InvitationInfo },
        },
      },
      async (request) => ({ email: (await guardSecret(db, request.ip, () => liveInvitation(db, request.query.token))).email }),
    )

    app.post(
      '/invitation',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Accept an invitation: choose a name and password',
          querystring: TokenQuery,
          body: AcceptInvitationRequest,
          response: { 201: UserData },
        },
      },
      async (request, reply) => {
        const user = await guardSecret(db, request.ip, () => acceptInvitation(db, request.query.token, request.body))
        ctx.authz.invalidate?.()
        request.log.info({ user: user.name }, 'invitation accepted')
        return reply.code(201).send(toUserData(user))
      },
    )
  }

/** Inviting and the registration switch, under /ui/api/v1/ui/admin. */
export const accountAdminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    app.post(
      '/invitations',
      {
        config: { access: 'admin' },
        schema: { tags: ['users'], summary: 'Invite someone by mail', body: InvitationRequest, response: { 201: z.object({}) } },
      },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        if (!principal) throw unauthorized()
        await invite(db, ctx.secrets, request.log, {
          email: request.body.email,
          admin: request.body.admin,
          invitedBy: { id: principal.userId, name: principal.name },
          fallbackBaseUrl: ctx.config.baseUrl,
        })
        return reply.code(201).send({})
      },
    )

    app.get(
      '/security/registration',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['security'],
          summary: 'Whether self-registration is open',
          response: { 200: z.object({ enabled: z.boolean() }) },
        },
      },
      async () => ({ enabled: await getSetting(db, REGISTRATION_SETTING, false) }),
    )

    app.put(
      '/security/registration',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['security'],
          summary: 'Open or close self-registration',
          body: z.object({ enabled: z.boolean() }),
          response: { 200: z.object({ enabled: z.boolean() }) },
        },
      },
      async (request) => {
        await setSetting(db, REGISTRATION_SETTING, request.body.enabled)
        return request.body
      },
    )
  }
