import {
  ChangePasswordRequest,
  ForgotPasswordRequest,
  KeyQuery,
  MailSettings,
  MailSettingsView,
  PasswordPolicy,
  ResetPasswordRequest,
  ValidatedToken,
} from '@trove/contracts/passwords'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { HttpError } from '../../core/errors.js'
import { MAIL_NOT_CONFIGURED, readMailSettings, writeMailSettings } from '../../core/mail.js'
import { getSetting, setSetting } from '../../core/settings.js'
import { changePassword, PASSWORD_EXPIRY_SETTING, requestPasswordReset, resetPassword, userOfResetKey } from './passwordFlows.js'
import { verifyCredentials } from './service.js'
import { guardSecret } from './throttle.js'

const Empty = z.object({})

/** Forgot, validate, reset and change password, under /ui/api/v1/ui/auth. */
export const passwordRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    app.post(
      '/forgotPassword',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Mail a password-reset link (the answer is the same for every user name)',
          body: ForgotPasswordRequest,
          response: { 200: Empty },
        },
      },
      async (request) => {
        // Checked before the user is looked up, so this answer says nothing about the user.
        if (!(await readMailSettings(db))?.enabled) throw new HttpError(503, MAIL_NOT_CONFIGURED)
        try {
          await requestPasswordReset(db, ctx.secrets, request.log, {
            user: request.body.user,
            fallbackBaseUrl: ctx.config.baseUrl,
          })
        } catch (error) {
          // A mail server failure for an existing user must not answer differently from an unknown user.
          request.log.error({ err: error, user: request.body.user }, 'password reset mail failed')
        }
        return {}
      },
    )

    app.post(
      '/validateToken',
      {
        config: { access: 'public' },
        schema: { tags: ['auth'], summary: 'Whose reset link this is', querystring: KeyQuery, response: { 200: ValidatedToken } },
      },
      async (request) => ({ user: (await guardSecret(db, request.ip, () => userOfResetKey(db, request.query.key))).name }),
    )

    app.post(
      '/resetPassword',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Set a new password through a reset link',
          querystring: KeyQuery,
          body: ResetPasswordRequest,
          response: { 200: Empty },
        },
      },
      async (request) => {
        const user = await guardSecret(db, request.ip, () => resetPassword(db, { key: request.query.key, ...request.body }))
        request.log.info({ user: user.name }, 'password reset')
        return {}
      },
    )

    app.post(
      '/changePassword',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Change a password with the current one (also when it has expired)',
          querystring: z.object({ prefix: z.literal('changePassword').optional() }),
          body: ChangePasswordRequest,
          response: { 200: Empty },
        },
      },
      async (request) => {
        const user = await verifyCredentials(db, {
          user: request.body.userName,
          password: request.body.oldPassword,
          ip: request.ip,
          allowExpired: true,
        })
        const caller = await ctx.principal(request).catch(() => null)
        await changePassword(db, user, {
          newPassword: request.body.newPassword1,
          keepSessionId: caller?.userId === user.id ? caller.sessionId : undefined,
        })
        request.log.info({ user: user.name }, 'password changed')
        return {}
      },
    )
  }

/** Mail server and password policy, under /ui/api/v1/ui/admin. */
export const passwordAdminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const view = (stored: Awaited<ReturnType<typeof readMailSettings>>) => {
      if (!stored) return null
      const { passwordSealed, ...rest } = stored
      return { ...rest, passwordSet: Boolean(passwordSealed) }
    }

    app.get(
      '/configuration/mail',
      {
        config: { access: 'admin' },
        schema: { tags: ['configuration'], summary: 'The mail server', response: { 200: MailSettingsView.nullable() } },
      },
      async () => view(await readMailSettings(db)),
    )

    app.put(
      '/configuration/mail',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['configuration'],
          summary: 'Set the mail server (a password left out is kept)',
          body: MailSettings,
          response: { 200: MailSettingsView },
        },
      },
      async (request) => view(await writeMailSettings(db, ctx.secrets, request.body)) as z.infer<typeof MailSettingsView>,
    )

    app.get(
      '/security/passwordPolicy',
      {
        config: { access: 'admin' },
        schema: { tags: ['security'], summary: 'Password expiry', response: { 200: PasswordPolicy } },
      },
      async () => ({ expiryDays: await getSetting(db, PASSWORD_EXPIRY_SETTING, 0) }),
    )

    app.put(
      '/security/passwordPolicy',
      {
        config: { access: 'admin' },
        schema: { tags: ['security'], summary: 'Set password expiry', body: PasswordPolicy, response: { 200: PasswordPolicy } },
      },
      async (request) => {
        await setSetting(db, PASSWORD_EXPIRY_SETTING, request.body.expiryDays)
        return request.body
      },
    )
  }
