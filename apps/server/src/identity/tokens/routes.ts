import { AccessTokenCreated, ApiKeyResponse, CreateAccessTokenRequest, TokenInfo } from '@trove/contracts/tokens'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import { forbidden, notFound, unauthorized } from '../../core/errors.js'
import { deleteTokens, listTokens } from '../users/tokenRepo.js'
import { createAccessToken, issueApiKey, requireReauthentication, showApiKey } from './service.js'

/** Access tokens and the API key, under /ui/api/v1/ui. */
export const TOKEN_MINTS_NO_TOKEN = 'A token cannot create access tokens: sign in, or send the password'

export const tokenRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const box = ctx.secrets
    const db = ctx.db.kysely
    const caller = async (request: Parameters<AppContext['principal']>[0]): Promise<Principal> => {
      const principal = await ctx.principal(request)
      if (!principal) throw unauthorized()
      return principal
    }

    app.post(
      '/userIdentifyToken/:name',
      {
        config: { access: 'user' },
        schema: {
          tags: ['tokens'],
          summary: 'Create an access token for a user (yourself, or anyone as an admin)',
          params: z.object({ name: z.string().min(1).max(255) }),
          body: CreateAccessTokenRequest,
          response: { 200: AccessTokenCreated },
        },
      },
      async (request) => {
        const principal = await caller(request)
        // A token that mints tokens would outlive its own revocation: only a person (a session,
        // or the password itself) makes one.
        if (principal.via === 'token') throw forbidden(TOKEN_MINTS_NO_TOKEN)
        const created = await createAccessToken(db, principal, { name: request.params.name, ...request.body })
        request.log.info({ tokenId: created.token_id, owner: created.username, scope: created.scope }, 'access token created')
        return created
      },
    )

    app.get(
      '/userIdentifyToken',
      {
        config: { access: 'user' },
        schema: { tags: ['tokens'], summary: 'Your access tokens (never their secrets)', response: { 200: z.array(TokenInfo) } },
      },
      async (request) =>
        (await listTokens(db, (await caller(request)).userId, 'access')).map((t) => ({
          id: t.id,
          description: t.description,
          createdAt: t.created_at,
          expiresAt: t.expires_at,
          lastUsedAt: t.last_used_at,
          scope: t.scope,
        })),
    )

    app.delete(
      '/userIdentifyToken/id/:tokenId',
      {
        config: { access: 'user' },
        schema: {
          tags: ['tokens'],
          summary: 'Revoke one of your access tokens',
          params: z.object({ tokenId: z.string().max(64) }),
        },
      },
      async (request, reply) => {
        const removed = await deleteTokens(db, {
          userId: (await caller(request)).userId,
          kind: 'access',
          id: request.params.tokenId,
        })
        if (removed === 0) throw notFound(`Token ${request.params.tokenId} does not exist`)
        return reply.code(204).send()
      },
    )

    app.get(
      '/userApiKey/:username',
      {
        config: { access: 'user' },
        schema: {
          tags: ['tokens'],
          summary: 'Show your API key (send your password again in a Basic header)',
          params: z.object({ username: z.string().min(1).max(255) }),
          response: { 200: ApiKeyResponse },
        },
      },
      async (request) => {
        const principal = await caller(request)
        await requireReauthentication(db, request, principal)
        return { apiKey: await showApiKey(db, box, principal, request.params.username) }
      },
    )

    for (const [method, replace, summary] of [
      ['post', false, 'Create your API key (send your password again in a Basic header)'],
      ['put', true, 'Regenerate your API key: the old one stops working'],
    ] as const) {
      app[method](
        '/userApiKey',
        { config: { access: 'user' }, schema: { tags: ['tokens'], summary, response: { 200: ApiKeyResponse } } },
        async (request) => {
          const principal = await caller(request)
          await requireReauthentication(db, request, principal)
          const apiKey = await issueApiKey(db, box, principal, replace)
          request.log.info({ user: principal.name, replaced: replace }, 'API key issued')
          return { apiKey }
        },
      )
    }

    app.delete(
      '/userApiKey',
      { config: { access: 'user' }, schema: { tags: ['tokens'], summary: 'Revoke your API key' } },
      async (request, reply) => {
        await deleteTokens(db, { userId: (await caller(request)).userId, kind: 'api_key' })
        return reply.code(204).send()
      },
    )
  }
