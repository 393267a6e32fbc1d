import { BUNDLE_KEYS_PATH, SigningKeys as SigningKeysView } from '@trove/contracts/distribution'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Logger } from 'pino'
import { notFound } from '../../core/errors.js'
import type { Format, FormatContext } from '../../formats/index.js'
import { BundleService } from './bundles.js'
import { Distributor } from './distributor.js'
import { History } from './history.js'
import { Receiver } from './receiver.js'
import { type DistributionParts, distributionNodeRoutes, distributionUiRoutes } from './routes.js'
import { SigningKeys } from './signing.js'

/**
 * The distribution module (`TROVE_MODULES=…,distribution`): release bundles, their signing keys,
 * targets and the distributor, and the receiving side. Its calls answer 404 on a node that does
 * not run it; the console reads that as "off" (§8).
 */
export async function registerDistribution(
  app: FastifyInstance,
  fctx: FormatContext,
  log: Logger,
  source: { id: string; url: string },
  formats: readonly Format[],
): Promise<DistributionParts & { enabled: boolean; close: () => Promise<void> }> {
  const enabled = fctx.config.node.modules.includes('distribution')
  const keys = new SigningKeys(fctx.db.kysely, fctx.secrets)
  const history = new History(fctx.db.kysely, fctx.authz)
  const bundles = new BundleService(fctx, keys)
  // Formats that derive files from others (Maven's metadata) derive them again where a bundle
  // arrived or left.
  const hooks = new Map<string, NonNullable<ReturnType<NonNullable<Format['filesChanged']>>>>()
  for (const f of formats) if (f.filesChanged) hooks.set(f.type, f.filesChanged(fctx))
  const changed = async (repoKey: string, paths: string[]) => {
    const repo = await fctx.repos.get(repoKey)
    const hook = repo && hooks.get(repo.packageType)
    if (!hook || paths.length === 0) return
    await hook(repo, paths).catch((err) => log.warn({ err, repoKey }, 'deriving files after a release bundle failed'))
  }
  const receiver = new Receiver(fctx, history, log, changed)
  const distributor = new Distributor(fctx, bundles, keys, history, log, source)
  const parts: DistributionParts = { bundles, distributor, receiver, history, keys }
  const onlyWhenEnabled = async (child: FastifyInstance) => {
    child.addHook('preHandler', async () => {
      if (!enabled) throw notFound('The service distribution is not enabled on this node')
    })
  }
  await app.register(
    async (child) => {
      await onlyWhenEnabled(child)
      await child.register(distributionUiRoutes(fctx, parts))
    },
    { prefix: '/distribution/api/ui' },
  )
  await app.register(
    async (child) => {
      await onlyWhenEnabled(child)
      await child.register(distributionNodeRoutes(fctx, parts))
    },
    { prefix: '/distribution/api/v1' },
  )
  await app.register(async (child) => {
    await onlyWhenEnabled(child)
    child.withTypeProvider<ZodTypeProvider>().get(
      BUNDLE_KEYS_PATH,
      {
        config: { access: 'public' },
        schema: {
          tags: ['distribution'],
          summary: 'The public keys this node signs release bundles with',
          response: { 200: SigningKeysView },
        },
      },
      async () => {
        await keys.active()
        return { keys: await keys.list() }
      },
    )
  })
  const first = enabled && fctx.config.workers.index <= 1
  if (first) distributor.start(fctx.config.distribution.pollMs)
  // Retention by age also applies when nothing arrives: the first worker looks once an hour.
  const retentionTimer = first
    ? setInterval(() => {
        receiver.applyRetention().catch((err) => log.error({ err }, 'bundle retention failed'))
      }, 3600_000).unref()
    : undefined
  return {
    ...parts,
    enabled,
    close: async () => {
      if (retentionTimer) clearInterval(retentionTimer)
      await distributor.stop()
    },
  }
}
