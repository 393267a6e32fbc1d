import {
  ContactAccepted,
  ContactRequest,
  ContactRequestPage,
  ContactRequestQuery,
  ContactSettings,
} from '@trove/contracts/contact'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../../core/context.js'
import { listContactRequests } from './repo.js'
import { readContactSettings, submitContactRequest, writeContactSettings } from './service.js'

/** POST /ui/api/v1/marketing/contact: the contact-us form (shell §7.2). Anyone signed in may send it. */
export const contactRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/marketing/contact',
      {
        config: { access: 'user' },
        schema: {
          tags: ['contact'],
          summary: 'Send a contact request: kept, and mailed to the address an administrator set',
          body: ContactRequest,
          response: { 201: ContactAccepted },
        },
      },
      async (request, reply) => {
        const caller = await ctx.principal(request)
        const accepted = await submitContactRequest(ctx.db.kysely, ctx.secrets, request.log, request.body, caller?.name ?? null)
        return reply.code(201).send(accepted)
      },
    )
  }

/** The requests and where they are mailed, under /ui/api/v1/ui/admin (administrators only). */
export const contactAdminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const admin = { access: 'admin' } as const

    app.get(
      '/contact/requests',
      {
        config: admin,
        schema: {
          tags: ['contact'],
          summary: 'Contact requests, newest first, with what became of each mail',
          querystring: ContactRequestQuery,
          response: { 200: ContactRequestPage },
        },
      },
      async (request) => listContactRequests(db, request.query),
    )
    app.get(
      '/configuration/contact',
      {
        config: admin,
        schema: { tags: ['contact'], summary: 'Where contact requests are mailed', response: { 200: ContactSettings } },
      },
      async () => readContactSettings(db),
    )
    app.put(
      '/configuration/contact',
      {
        config: admin,
        schema: {
          tags: ['contact'],
          summary: 'Set where contact requests are mailed (empty: only keep them)',
          body: ContactSettings,
          response: { 200: ContactSettings },
        },
      },
      async (request) => writeContactSettings(db, request.body),
    )
  }
