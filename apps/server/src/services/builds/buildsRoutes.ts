import {
  BuildDeleteQuery,
  BuildDiffParams,
  BuildDiffResponse,
  BuildListResponse,
  BuildParams,
  BuildRunParams,
  BuildRunResponse,
  BuildRunsResponse,
} from '@trove/contracts/builds'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { BuildsService } from './buildsService.js'

const tags = ['builds']
const CONSOLE = '/ui/api/v1/ui/builds'

/**
 * The Builds screens' calls (contracts/builds.ts#BUILDS_PATHS) and the REST call that deletes
 * runs. Reads are public routes that answer only what the caller may read (anonymous callers
 * see builds granted to anonymous access); deleting needs a signed-in caller with `delete`.
 */
export const buildsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const builds = new BuildsService(ctx)

    app.get(
      CONSOLE,
      {
        config: { access: 'public' },
        schema: { tags, summary: 'Every build the caller may read, with its last run', response: { 200: BuildListResponse } },
      },
      async (request) => builds.list(await ctx.principal(request)),
    )
    app.get(
      `${CONSOLE}/:name`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'The runs of a build, newest first',
          params: BuildParams,
          response: { 200: BuildRunsResponse },
        },
      },
      async (request) => builds.runs(await ctx.principal(request), request.params.name),
    )
    app.get(
      `${CONSOLE}/:name/:number`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'One run: its modules (items linked to the stored files they match), environment, properties and document',
          params: BuildRunParams,
          response: { 200: BuildRunResponse },
        },
      },
      async (request) => builds.run(await ctx.principal(request), request.params.name, request.params.number),
    )
    app.delete(
      `${CONSOLE}/:name/:number`,
      {
        config: { access: 'user' },
        schema: { tags, summary: 'Deletes one run of a build', params: BuildRunParams, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await builds.remove(await ctx.principal(request), request.params.name, [request.params.number])
        return reply.code(204).send(null)
      },
    )
    app.get(
      `${CONSOLE}/:name/:number/diff/:base`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'What run {number} added, removed and changed (by checksum) since run {base}, per module',
          params: BuildDiffParams,
          response: { 200: BuildDiffResponse },
        },
      },
      async (request) => {
        const { name, number, base } = request.params
        return builds.diff(await ctx.principal(request), name, number, base)
      },
    )

    for (const prefix of ['/api', '/artifactory/api']) {
      app.delete(
        `${prefix}/build/:name`,
        {
          config: { access: 'user' },
          schema: {
            tags,
            summary: 'Deletes runs of a build: ?buildNumbers=1,2, or every run with ?deleteAll=1',
            params: BuildParams,
            querystring: BuildDeleteQuery,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          const { buildNumbers, deleteAll } = request.query
          const all = deleteAll === '1' || deleteAll === 'true'
          const numbers = all
            ? null
            : [
                ...new Set(
                  (buildNumbers ?? '')
                    .split(',')
                    .map((n) => n.trim())
                    .filter(Boolean),
                ),
              ]
          await builds.remove(await ctx.principal(request), request.params.name, numbers)
          return reply.code(204).send(null)
        },
      )
    }
  }
