import fs from 'node:fs'
import { Readable } from 'node:stream'
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
import { type ClusterIdentity, NODE_SIGNATURE_HEADER, signNodeCall } from '../../core/cluster.js'
import type { AppContext } from '../../core/context.js'
import { conflict, HttpError, notFound } from '../../core/errors.js'
import { bundleDir, bundleFile, getBundle, listBundles, newBundleId, writeBundle } from './bundles.js'
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
    this.cluster = ctx.cluster
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
    const swept = await this.sweepBundles()
    if (swept > 0) this.log.info({ files: swept }, 'removed the files of support bundles deleted through other nodes')
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
    const res = await this.peerCall(node, 'GET', pathAndQuery)
    const body = (await res.json().catch(() => null)) as { errors?: { message?: string }[] } | null
    if (!res.ok) throw new HttpError(res.status, body?.errors?.[0]?.message ?? `Node ${node.node_id} answered ${res.status}`)
    return body
  }

  /** A call to a peer, signed with the cluster's key; 502 when the peer does not answer in time. */
  private async peerCall(
    node: { node_id: string; url: string },
    method: 'GET' | 'DELETE',
    pathAndQuery: string,
  ): Promise<Response> {
    if (!node.url) throw new HttpError(502, `Node ${node.node_id} has no address its peers can reach`)
    // The time limit is for the answer to start: a bundle's body may take longer to stream.
    const answer = new AbortController()
    const timer = setTimeout(() => answer.abort(), PEER_TIMEOUT_MS)
    try {
      return await fetch(`${node.url}${pathAndQuery}`, {
        method,
        headers: { [NODE_SIGNATURE_HEADER]: signNodeCall(this.cluster.secret, method, pathAndQuery), accept: 'application/json' },
        signal: answer.signal,
      })
    } catch (error) {
      this.log.warn({ err: error, node: node.node_id }, 'peer node did not answer')
      throw new HttpError(502, `Node ${node.node_id} did not answer`)
    } finally {
      clearTimeout(timer)
    }
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

  /**
   * A bundle ready to download: its file here, or on the node that wrote it (nodes need not share
   * a data dir), streamed through from that node.
   */
  async bundleForDownload(
    id: string,
  ): Promise<{ bundle: NonNullable<Awaited<ReturnType<typeof getBundle>>>; size: number; open: () => Readable }> {
    const bundle = await getBundle(this.ctx.db.kysely, id)
    if (!bundle) throw notFound(`Unknown support bundle: ${id}`)
    if (bundle.status !== 'success') throw notFound(`Support bundle ${id} is not ready to download`)
    const file = bundleFile(this.ctx.config.dataDir, bundle.id)
    const stat = await fs.promises.stat(file).catch(() => undefined)
    if (stat) return { bundle, size: stat.size, open: () => fs.createReadStream(file) }
    if (bundle.node_id === this.nodeId) throw notFound(`Support bundle ${id} is not ready to download`)
    const node = await findNode(this.ctx.db.kysely, bundle.node_id)
    if (!node) throw notFound(`Support bundle ${id} was written by node ${bundle.node_id}, which is no longer in the cluster`)
    const res = await this.peerCall(node, 'GET', `/ui/api/v1/system/cluster/bundles/${encodeURIComponent(id)}`)
    if (!res.ok || !res.body) {
      await res.body?.cancel()
      throw new HttpError(
        res.status === 404 ? 404 : 502,
        `Node ${node.node_id} could not send support bundle ${id} (${res.status})`,
      )
    }
    const body = res.body
    return {
      bundle,
      size: Number(res.headers.get('content-length')),
      open: () => Readable.fromWeb(body as import('node:stream/web').ReadableStream),
    }
  }

  /** This node's own file of a bundle (what a peer asks for). */
  async localBundleFile(id: string): Promise<{ file: string; size: number }> {
    const file = bundleFile(this.ctx.config.dataDir, id)
    const stat = await fs.promises.stat(file).catch(() => undefined)
    if (!stat) throw notFound(`Node ${this.nodeId} holds no support bundle ${id}`)
    return { file, size: stat.size }
  }

  /** Removes this node's file of a bundle whose record is gone (what a peer asks after a delete). */
  async removeLocalBundle(id: string): Promise<void> {
    if (await getBundle(this.ctx.db.kysely, id)) throw conflict(`Support bundle ${id} still exists`)
    await fs.promises.rm(bundleFile(this.ctx.config.dataDir, id), { force: true })
  }

  /**
   * Start-up: removes bundle files this node holds whose record is gone (deleted through another
   * node while this one was down). Files of bundles still listed stay, whichever node wrote them.
   */
  async sweepBundles(): Promise<number> {
    const dir = bundleDir(this.ctx.config.dataDir)
    const names = await fs.promises.readdir(dir).catch(() => [] as string[])
    const ids = names.flatMap((n) => /^([\w-]{1,40})\.zip$/.exec(n)?.[1] ?? [])
    if (ids.length === 0) return 0
    const listed = new Set(
      (await this.ctx.db.kysely.selectFrom('support_bundles').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
    )
    const gone = ids.filter((bundleId) => !listed.has(bundleId))
    for (const bundleId of gone) await fs.promises.rm(bundleFile(this.ctx.config.dataDir, bundleId), { force: true })
    return gone.length
  }

  async deleteBundle(id: string): Promise<void> {
    const bundle = await getBundle(this.ctx.db.kysely, id)
    if (!bundle) throw notFound(`Unknown support bundle: ${id}`)
    const stillWriting = (await this.list()).find((b) => b.id === id)?.status === 'in_progress'
    if (stillWriting) throw conflict(`Support bundle ${id} is still being written`)
    await this.ctx.db.kysely.deleteFrom('support_bundles').where('id', '=', id).execute()
    await fs.promises.rm(bundleFile(this.ctx.config.dataDir, id), { force: true })
    if (bundle.node_id === this.nodeId) return
    // The file is on the node that wrote it: that node removes it now, or at its next start.
    const node = await findNode(this.ctx.db.kysely, bundle.node_id)
    if (!node) return
    try {
      const res = await this.peerCall(node, 'DELETE', `/ui/api/v1/system/cluster/bundles/${encodeURIComponent(id)}`)
      await res.body?.cancel()
      if (!res.ok)
        this.log.warn({ bundle: id, node: node.node_id, status: res.status }, 'peer node kept a deleted support bundle')
    } catch (error) {
      this.log.warn(
        { err: error, bundle: id, node: node.node_id },
        'peer node kept a deleted support bundle; it removes it at its next start',
      )
    }
  }
}
