import { Dashboard } from '@trove/contracts/dashboard'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../../core/context.js'
import { unauthorized } from '../../core/errors.js'
import { pruneActivity } from './rollup.js'
import { DashboardService } from './service.js'

/** How often a node folds the roll-up's changes when nobody opens the dashboard (ms). */
const FOLD_INTERVAL_MS = 10_000
const PRUNE_INTERVAL_MS = 3_600_000

/** GET /ui/api/v1/ui/dashboard: the Overview screen. Anyone signed in; what each sees: docs/decisions.md. */
export const dashboardRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const service = new DashboardService(ctx)
    app.get(
      '/dashboard',
      {
        config: { access: 'user' },
        schema: {
          tags: ['dashboard'],
          summary:
            'The instance at a glance: storage per repository and its growth, downloads and uploads per day, the most downloaded packages, vulnerabilities, activity and nodes',
          response: { 200: Dashboard },
        },
      },
      async (request) => {
        const caller = await ctx.principal(request)
        if (!caller) throw unauthorized()
        return service.dashboard(caller)
      },
    )

    // Of several workers, the first folds for the node; every node may (they take turns).
    if (ctx.config.workers.index > 1) return
    let lastPrune = 0
    const timer = setInterval(() => {
      const now = Date.now()
      service
        .fold()
        .then(async () => {
          if (now - lastPrune < PRUNE_INTERVAL_MS) return
          lastPrune = now
          await pruneActivity(ctx.db.kysely, now)
        })
        .catch((err) => app.log.warn({ err }, 'folding the dashboard roll-up failed; the next fold takes its changes'))
    }, FOLD_INTERVAL_MS).unref()
    app.addHook('onClose', async () => clearInterval(timer))
  }
