import { CliLoginRequest, CliSession, CliTokens, RefreshRequest } from '@trove/contracts/cli'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { forbidden, unauthorized } from '../../core/errors.js'
import { guardSecret } from '../auth/throttle.js'
import { approveCliLogin, collectCliTokens, openCliLogin, refreshTokens } from './service.js'

/** The command-line client's web sign-in, under /access/api. */
export const APPROVAL_NEEDS_SESSION = 'A command-line sign-in is approved in the console, not with a token'

export const cliLoginRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const base = '/v2/authentication/jfrog_client_login'

    app.post(
      `${base}/request`,
      {
        config: { access: 'public' },
        schema: {
          tags: ['cli'],
          summary: 'A client announces the session id it will wait on',
          body: CliLoginRequest,
          response: { 201: z.object({}) },
        },
      },
      async (request, reply) => {
        await openCliLogin(db, request.body.session)
        return reply.code(201).send({})
      },
    )

    app.post(
      `${base}/response`,
      {
        config: { access: 'user' },
        schema: {
          tags: ['cli'],
          summary: 'The signed-in user approves the waiting client',
          body: CliLoginRequest,
          response: { 200: z.object({}) },
        },
      },
      async (request) => {
        const principal = await ctx.principal(request)
        if (!principal) throw unauthorized()
        // The approval hands out new tokens: only a person in the console gives it, never a token.
        if (principal.via !== 'session') throw forbidden(APPROVAL_NEEDS_SESSION)
        await approveCliLogin(db, ctx.secrets, request.body.session, { id: principal.userId, name: principal.name })
        request.log.info({ user: principal.name }, 'command-line sign-in approved')
        return {}
      },
    )

    app.get(
      `${base}/token/:session`,
      {
        config: { access: 'public' },
        schema: {
          tags: ['cli'],
          summary: 'The client collects its tokens: 400 while waiting, then once 200, then 404',
          params: z.object({ session: CliSession }),
          response: { 200: CliTokens },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store')
        // 400 is the answer while the user has not approved yet (the client polls): only an unknown session counts.
        return guardSecret(
          db,
          request.ip,
          () => collectCliTokens(db, ctx.secrets, request.params.session),
          (error) => error.status === 404,
        )
      },
    )

    app.post(
      '/v1/tokens/refresh',
      {
        config: { access: 'public' },
        schema: {
          tags: ['cli'],
          summary: 'Trade a refresh token for a new access token and refresh token',
          body: RefreshRequest,
          response: { 200: CliTokens },
        },
      },
      async (request) => guardSecret(db, request.ip, () => refreshTokens(db, request.body.refresh_token)),
    )
  }
