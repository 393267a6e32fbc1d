import fs from 'node:fs'
import {
  BundleParameters,
  type CreateBundleRequest,
  type LogConfig,
  type LogData,
  SERVICE_TYPES,
  type ServiceType,
  type SupportBundle,
} from '@trove/contracts/operations'
import type { Logger } from 'pino'
import type { AppContext } from '../../core/context.js'
import { conflict, HttpError, notFound } from '../../core/errors.js'
import { bundleFile, getBundle, listBundles, newBundleId, writeBundle } from './bundles.js'
import { type ClusterIdentity, loadClusterIdentity, NODE_SIGNATURE_HEADER, signNodeCall } from './cluster.js'
import { LOG_REFRESH_MS, listLogFiles, readLogSince, resolveLogFile } from './logs.js'
import { findNode, NodeRegistry, nodeStatus } from './nodes.js'

/** A peer has this long to answer a forwarded log call. */
const PEER_TIMEOUT_MS = 5000

export const isServiceType = (s: string): s is ServiceType => (SERVICE_TYPES as readonly string[]).includes(s)

/**
 * Operations of this node: its registration and heartbeat, its logs (or a peer's, through the
 * cluster), and the support bundles it writes.
 */
export class Operations {
  readonly cluster: ClusterIdentity
  readonly registry: NodeRegistry
  private readonly writing = new Set<Promise<void>>()
  private readonly closing = new AbortController()

  constructor(
    private readonly ctx: AppContext,
    private readonly log: Logger,
  ) {
    this.cluster = loadClusterIdentity(ctx.config.dataDir)
    this.registry = new NodeRegistry(
      ctx.db.kysely,
      {
        nodeId: ctx.config.node.id,
        clusterId: this.cluster.id,
        version: ctx.build.version,
        modules: ctx.config.node.modules,
        heartbeatMs: ctx.config.node.heartbeatMs,
        startedAt: Date.now(),
      },
      log,
    )
    // Not TROVE_BASE_URL: that is the load balancer's address, and peers must reach this very node.
    this.registry.url = ctx.config.node.url ?? ''
  }

  get nodeId() {
    return this.ctx.config.node.id
  }

  /** Registers the node and starts beating. */
  async start(): Promise<void> {
    await this.registry.beat()
    this.registry.start()
  }

  /** Once listening: peers reach this node at its configured URL, or at the address it listens on. */
  async listening(address: string | { address: string; port: number } | null): Promise<void> {
    if (this.ctx.config.node.url || !address || typeof address === 'string') return
    const wildcard = address.address === '0.0.0.0' || address.address === '::'
    const host = wildcard
      ? (await import('node:os')).hostname()
      : address.address.includes(':')
        ? `[${address.address}]`
        : address.address
    this.registry.url = `http://${host}:${address.port}`
    await this.registry.beat()
  }

  async stop(): Promise<void> {
    this.closing.abort()
    await this.registry.stop()
    await Promise.allSettled([...this.writing])
  }

  // ---- logs ----

  private async target(service: string, nodeId: string | undefined) {
    if (!isServiceType(service)) throw notFound(`Unknown service: ${service}`)
    const id = nodeId ?? this.nodeId
    const node = await findNode(this.ctx.db.kysely, id)
    if (!node) throw notFound(`Unknown node: ${id}`)
    if (!node.services.includes(service)) throw notFound(`Node ${id} does not run the service ${service}`)
    if (id !== this.nodeId && nodeStatus(node, Date.now()) === 'Offline') throw new HttpError(503, `Node ${id} is offline`)
    return { node, local: id === this.nodeId }
  }

  async logConfig(service: string, nodeId: string | undefined): Promise<LogConfig> {
    const { node, local } = await this.target(service, nodeId)
    if (!local) return (await this.forward(node, `/ui/api/v1/system/cluster/logs/config/${service}`)) as LogConfig
    return this.localLogConfig()
  }

  /** This node's own logs of a service it runs (what a peer asks for). */
  async localLogConfigOf(service: string): Promise<LogConfig> {
    this.requireLocalService(service)
    return this.localLogConfig()
  }

  requireLocalService(service: string): void {
    if (!isServiceType(service)) throw notFound(`Unknown service: ${service}`)
    if (!this.ctx.config.node.modules.includes(service)) throw notFound(`Node ${this.nodeId} does not run the service ${service}`)
  }

  async localLogConfig(): Promise<LogConfig> {
    const logs = await listLogFiles(this.ctx.config.log.dir)
    return { logs, selected_log: logs[0] ?? null, refresh_rate_millis: LOG_REFRESH_MS }
  }

  async logData(service: string, query: { nodeId?: string; id: string; file_size?: number; file_id?: string }): Promise<LogData> {
    const { node, local } = await this.target(service, query.nodeId)
    if (!local) {
      const params = new URLSearchParams({ id: query.id })
      if (query.file_size !== undefined) params.set('file_size', String(query.file_size))
      if (query.file_id) params.set('file_id', query.file_id)
      return (await this.forward(node, `/ui/api/v1/system/cluster/logs/data/${service}?${params}`)) as LogData
    }
    return this.localLogData(query)
  }

  async localLogData(query: { id: string; file_size?: number; file_id?: string }): Promise<LogData> {
    const file = await resolveLogFile(this.ctx.config.log.dir, query.id)
    if (!file) throw notFound(`Unknown log file on node ${this.nodeId}: ${query.id}`)
    return readLogSince(file, query.file_size, query.file_id)
  }

  private async forward(node: { node_id: string; url: string }, pathAndQuery: string): Promise<unknown> {
    if (!node.url) throw new HttpError(502, `Node ${node.node_id} has no address its peers can reach`)
    let res: Response
    try {
      res = await fetch(`${node.url}${pathAndQuery}`, {
        headers: { [NODE_SIGNATURE_HEADER]: signNodeCall(this.cluster.secret, 'GET', pathAndQuery), accept: 'application/json' },
        signal: AbortSignal.timeout(PEER_TIMEOUT_MS),
      })
    } catch (error) {
      this.log.warn({ err: error, node: node.node_id }, 'peer node did not answer')
      throw new HttpError(502, `Node ${node.node_id} did not answer`)
    }
    const body = (await res.json().catch(() => null)) as { errors?: { message?: string }[] } | null
    if (!res.ok) throw new HttpError(res.status, body?.errors?.[0]?.message ?? `Node ${node.node_id} answered ${res.status}`)
    return body
  }

  // ---- support bundles ----

  list(): Promise<SupportBundle[]> {
    return listBundles(this.ctx.db.kysely)
  }

  /** Records the bundle as in progress and writes it in the background; the list shows when it is done. */
  async createBundle(service: ServiceType, request: CreateBundleRequest): Promise<SupportBundle> {
    if (!this.ctx.config.node.modules.includes(service)) throw notFound(`The service ${service} is not enabled on this node`)
    const parameters = BundleParameters.parse(request.parameters ?? {})
    const bundle = {
      id: newBundleId(),
      name: request.name.trim(),
      description: request.description ?? '',
      service,
      node_id: this.nodeId,
      created_at: Date.now(),
      status: 'in_progress',
      size: null,
      parameters: JSON.stringify(parameters),
    }
    const db = this.ctx.db.kysely
    await db.insertInto('support_bundles').values(bundle).execute()
    const job = writeBundle(
      {
        config: this.ctx.config,
        db: this.ctx.db,
        version: this.ctx.build.version,
        nodeId: this.nodeId,
        signal: this.closing.signal,
      },
      bundle,
      parameters,
    )
      .then(async (size) => {
        await db.updateTable('support_bundles').set({ status: 'success', size }).where('id', '=', bundle.id).execute()
        this.log.info({ bundle: bundle.id, service, size }, 'support bundle written')
      })
      .catch(async (error: unknown) => {
        this.log.error({ err: error, bundle: bundle.id }, 'support bundle failed')
        await db
          .updateTable('support_bundles')
          .set({ status: 'failed' })
          .where('id', '=', bundle.id)
          .execute()
          .catch(() => undefined)
      })
      .finally(() => this.writing.delete(job))
    this.writing.add(job)
    return { ...bundle, create_date: bundle.created_at, status: 'in_progress', parameters }
  }

  /** Resolves when every bundle being written now is done (tests and the bench wait on it). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.writing])
  }

  async bundleForDownload(id: string) {
    const bundle = await getBundle(this.ctx.db.kysely, id)
    if (!bundle) throw notFound(`Unknown support bundle: ${id}`)
    const file = bundleFile(this.ctx.config.dataDir, bundle.id)
    if (bundle.status !== 'success' || !fs.existsSync(file)) throw notFound(`Support bundle ${id} is not ready to download`)
    return { bundle, file }
  }

  async deleteBundle(id: string): Promise<void> {
    const bundle = await getBundle(this.ctx.db.kysely, id)
    if (!bundle) throw notFound(`Unknown support bundle: ${id}`)
    const stillWriting = (await this.list()).find((b) => b.id === id)?.status === 'in_progress'
    if (stillWriting) throw conflict(`Support bundle ${id} is still being written`)
    await this.ctx.db.kysely.deleteFrom('support_bundles').where('id', '=', id).execute()
    await fs.promises.rm(bundleFile(this.ctx.config.dataDir, id), { force: true })
  }
}
