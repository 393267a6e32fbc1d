import { AccountPortal } from '@trove/contracts/shell'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../../core/context.js'
import { getSetting, setSetting } from '../../core/settings.js'

export const ACCOUNT_PORTAL_SETTING = 'shell.accountPortalUrl'

/**
 * The account portal, under /ui/api/v1/ui: any signed-in user reads where "my account" leads
 * (the /user/my-jfrog-redirect screen); an administrator sets it on General Settings.
 */
export const accountPortalRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    app.get(
      '/accountPortal',
      {
        config: { access: 'user' },
        schema: { tags: ['shell'], summary: 'The account portal URL users are sent to', response: { 200: AccountPortal } },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store')
        return { url: await getSetting(db, ACCOUNT_PORTAL_SETTING, '') }
      },
    )
    app.put(
      '/accountPortal',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Set (or clear, with an empty URL) the account portal URL',
          body: AccountPortal,
          response: { 200: AccountPortal },
        },
      },
      async (request) => {
        await setSetting(db, ACCOUNT_PORTAL_SETTING, request.body.url)
        request.log.info({ url: request.body.url }, 'account portal changed')
        return { url: request.body.url }
      },
    )
  }
