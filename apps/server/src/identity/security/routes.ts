import { MfaRequirement } from '@trove/contracts/auth'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { notFound } from '../../core/errors.js'
import { getSetting, MFA_REQUIRED_SETTING, setSetting } from '../../core/settings.js'
import { findUserByName } from '../users/repo.js'

/** The security configuration an administrator changes, under /ui/api/v1/ui/admin. */
export const securityRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    app.get(
      '/security/mfa',
      {
        config: { access: 'admin' },
        schema: { tags: ['security'], summary: 'Whether everyone must use MFA', response: { 200: MfaRequirement } },
      },
      async () => ({ required: await getSetting(db, MFA_REQUIRED_SETTING, false) }),
    )

    app.put(
      '/security/mfa',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['security'],
          summary: 'Require MFA for everyone, or not',
          body: MfaRequirement,
          response: { 200: MfaRequirement },
        },
      },
      async (request) => {
        await setSetting(db, MFA_REQUIRED_SETTING, request.body.required)
        request.log.info({ required: request.body.required }, 'MFA requirement changed')
        return request.body
      },
    )

    app.put(
      '/users/:name/mfa',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['security'],
          summary: 'Require MFA for one user, or not',
          params: z.object({ name: z.string().min(1).max(255) }),
          body: MfaRequirement,
          response: { 200: MfaRequirement },
        },
      },
      async (request) => {
        const user = await findUserByName(db, request.params.name)
        if (!user) throw notFound(`User ${request.params.name} does not exist`)
        await db
          .updateTable('users')
          .set({ mfa_required: request.body.required ? 1 : 0 })
          .where('id', '=', user.id)
          .execute()
        return request.body
      },
    )
  }
