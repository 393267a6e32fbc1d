import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { notFound } from '../../core/errors.js'
import { runOf, runStatus } from '../builds/index.js'
import type { PolicyService, Violation } from './policies.js'
import type { Severity } from './types.js'

/** How long a build scan waits for its versions' scans, and how often it looks. */
const WAIT_MS = 60_000
const POLL_MS = 250
const SEVERITY_ORDER: Severity[] = ['critical', 'high', 'medium', 'low', 'unknown']

const ScanBuildBody = z.object({
  buildName: z.string().min(1).max(255),
  buildNumber: z.string().min(1).max(255),
})

/** The status a failing build scan adds to the run (shown on the Builds screens). */
export const FAILED_BY_POLICY = 'Failed by the security scanner'

/**
 * `POST /xray/api/v1/scanBuild` (the path CI tools call after publishing build info): the run's
 * artifacts and dependencies are matched to stored versions by checksum, their scans awaited, and
 * the watches that name the build judge them. A violation of a policy with "fail build" answers
 * `fail_build: true` and adds a failed status to the run, so the build record shows it.
 */
export const buildScanRoutes =
  (ctx: AppContext, policies: PolicyService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/scanBuild',
      {
        config: { access: 'user' },
        schema: {
          tags: ['scanner'],
          summary: 'Judge a published build run by the watches that name it; fail_build when a policy says so',
          body: ScanBuildBody,
        },
      },
      async (request) => {
        const { buildName, buildNumber } = request.body
        const principal = await ctx.principal(request)
        const run = (await ctx.authz.canOnBuild(principal, 'read', buildName))
          ? await runOf(ctx.db.kysely, buildName, buildNumber)
          : undefined
        if (!run) throw notFound(`Build not found: ${buildName} #${buildNumber}`)

        let result = await policies.buildViolations(run.id, buildName)
        const deadline = Date.now() + WAIT_MS
        let waiting = await unscanned(ctx, result.versionIds)
        while (waiting > 0 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, POLL_MS))
          waiting = await unscanned(ctx, result.versionIds)
        }
        if (waiting === 0) result = await policies.buildViolations(run.id, buildName)
        const { violations } = result
        const failing = violations.filter((v) => v.failsBuild)
        if (failing.length > 0) await recordFailure(ctx, run.id, run.info, failing, principal?.name ?? 'scanner')

        const base = ctx.config.baseUrl ?? `${request.protocol}://${request.host}`
        return {
          summary: {
            total_alerts: violations.length,
            fail_build: failing.length > 0,
            message:
              waiting > 0
                ? `${waiting} of the build's ${result.versionIds.length} stored versions are not scanned yet`
                : violations.length === 0
                  ? 'No violation'
                  : `${violations.length} violations`,
            more_details_url: `${base}/ui/builds/${encodeURIComponent(buildName)}/${encodeURIComponent(buildNumber)}`,
          },
          alerts:
            violations.length === 0
              ? []
              : [
                  {
                    top_severity: topSeverity(violations),
                    issues: violations.map((v) => ({
                      issue_id: v.issue,
                      type: v.type,
                      severity: v.severity,
                      watch: v.watch,
                      policy: v.policy,
                      fail_build: v.failsBuild,
                      component: `${v.component}@${v.componentVersion}`,
                      impacted_artifact: `${v.packageId}:${v.version} (${v.repo})`,
                    })),
                  },
                ],
        }
      },
    )
  }

async function unscanned(ctx: AppContext, versionIds: number[]): Promise<number> {
  if (versionIds.length === 0) return 0
  let done = 0
  for (let i = 0; i < versionIds.length; i += 500) {
    const row = await ctx.db.kysely
      .selectFrom('scan_status')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('version_id', 'in', versionIds.slice(i, i + 500))
      .where('state', 'in', ['scanned', 'not_scanned'])
      .executeTakeFirst()
    done += Number(row?.n ?? 0)
  }
  return versionIds.length - done
}

function topSeverity(violations: Violation[]): Severity | null {
  for (const s of SEVERITY_ORDER) if (violations.some((v) => v.severity === s)) return s
  return null
}

/** Adds the failed status to the run's document (its statuses, as promotions add theirs) and its row. */
async function recordFailure(ctx: AppContext, id: number, infoText: string, failing: Violation[], user: string) {
  const info = JSON.parse(infoText) as Record<string, unknown>
  const statuses = Array.isArray(info.statuses) ? (info.statuses as Record<string, unknown>[]) : []
  const policies = [...new Set(failing.map((v) => v.policy))].join(', ')
  const comment = `${FAILED_BY_POLICY}: ${policies} (${[...new Set(failing.map((v) => v.issue))].join(', ')})`.slice(0, 1000)
  if (statuses.some((s) => s.comment === comment)) return
  statuses.push({ status: FAILED_BY_POLICY, comment, timestamp: new Date().toISOString(), user })
  const next = { ...info, statuses }
  await ctx.db.kysely
    .updateTable('builds')
    .set({ info: JSON.stringify(next), status: runStatus(next) })
    .where('id', '=', id)
    .execute()
}
