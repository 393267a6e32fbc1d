import { VersionInfo } from '@trove/contracts/system'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'

/** Health and version, mounted at /api/system and /artifactory/api/system. */
export const systemRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/ping',
      {
        config: { access: 'public' },
        // Load balancers poll this: no request log line and no compression for a 2-byte answer.
        logLevel: 'warn',
        compress: false,
        decompress: false,
        schema: { tags: ['system'], summary: 'Liveness: answers OK', response: { 200: z.string() } },
      },
      (_request, reply) => {
        reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('OK')
      },
    )

    app.get(
      '/version',
      {
        config: { access: 'public' },
        schema: { tags: ['system'], summary: 'Version and source revision', response: { 200: VersionInfo } },
      },
      async () => ({ version: ctx.build.version, revision: ctx.build.revision, node: process.versions.node }),
    )
  }
