import { DoctorQuery, IntegrityReport } from '@trove/contracts/integrity'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../../core/context.js'
import { S3Objects } from '../../core/s3Objects.js'
import { checkIntegrity } from './doctor.js'

/**
 * The integrity check (`trove doctor`) as an admin call, mounted at /api/system. It reads every
 * blob, so on a large store it takes as long as reading the store once; `sizesOnly` skips hashing.
 */
export const doctorRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const s3 = ctx.config.repositories.s3 ? new S3Objects(ctx.config.repositories.s3) : undefined
    app.addHook('onClose', async () => s3?.destroy())
    app.post(
      '/doctor',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['operations'],
          summary: 'Verify every blob against the database: missing, corrupt and dangling entries',
          querystring: DoctorQuery,
          response: { 200: IntegrityReport },
        },
      },
      async (request) =>
        checkIntegrity({ db: ctx.db.kysely, dataDir: ctx.config.dataDir, s3 }, { sizesOnly: request.query.sizesOnly === 'true' }),
    )
  }
