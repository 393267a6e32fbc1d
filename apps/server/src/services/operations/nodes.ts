import type { HealthItem, NodeStatus, NodeStatusList, ServiceStatus, ServiceType } from '@trove/contracts/operations'
import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'

/** A node is Offline once it missed this many heartbeats in a row. */
export const MISSED_HEARTBEATS_OFFLINE = 3

export interface NodeIdentity {
  nodeId: string
  clusterId: string
  version: string
  modules: readonly ServiceType[]
  heartbeatMs: number
  startedAt: number
}

/** The service id of a service of this cluster, as nodes, health items and topology calls name it. */
export const serviceId = (service: string, clusterId: string) => `${service}@${clusterId}`

/**
 * Registers this process as a node and beats for each module it runs. The row is upserted on
 * every beat, so a node removed by mistake while it runs comes back on its next beat.
 */
export class NodeRegistry {
  private timer: NodeJS.Timeout | undefined
  private beating: Promise<void> | undefined
  url = ''

  constructor(
    private readonly db: Kysely<Database>,
    readonly identity: NodeIdentity,
    private readonly log: { warn: (obj: object, msg: string) => void },
  ) {}

  /** Beats one after another: a beat reads the node's URL when it writes, so the last one written is current. */
  private lastBeat: Promise<void> = Promise.resolve()

  /**
   * Writes this node's row and its services' rows. Beats run one at a time, in order: a beat begun
   * before the node knew its URL (at start, before listening) could otherwise commit after the one
   * that wrote the URL, and put the empty one back until the next beat.
   */
  beat(now?: number): Promise<void> {
    const run = this.lastBeat.catch(() => {}).then(() => this.write(now ?? Date.now()))
    this.lastBeat = run
    return run
  }

  private async write(now: number): Promise<void> {
    const { nodeId, version, heartbeatMs, startedAt, modules } = this.identity
    const row = { node_id: nodeId, url: this.url, version, started_at: startedAt, heartbeat_ms: heartbeatMs, last_heartbeat: now }
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('nodes')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('node_id')
            .doUpdateSet({ url: row.url, version, started_at: startedAt, heartbeat_ms: heartbeatMs, last_heartbeat: now }),
        )
        .execute()
      for (const service of modules) {
        await trx
          .insertInto('node_services')
          .values({ node_id: nodeId, service, started_at: startedAt, last_heartbeat: now })
          .onConflict((oc) => oc.columns(['node_id', 'service']).doUpdateSet({ started_at: startedAt, last_heartbeat: now }))
          .execute()
      }
      // A module switched off since the last start no longer shows under its service.
      await trx
        .deleteFrom('node_services')
        .where('node_id', '=', nodeId)
        .where('service', 'not in', [...modules])
        .execute()
      await observePeers(trx, nodeId, now)
    })
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.beating) return
      this.beating = this.beat()
        .catch((error: unknown) => this.log.warn({ err: error }, 'node heartbeat failed'))
        .finally(() => {
          this.beating = undefined
        })
    }, this.identity.heartbeatMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.beating
  }
}

interface NodeRow {
  node_id: string
  url: string
  version: string
  started_at: number
  heartbeat_ms: number
  last_heartbeat: number
}

export const isFresh = (lastHeartbeat: number, heartbeatMs: number, now: number) =>
  now - lastHeartbeat <= heartbeatMs * MISSED_HEARTBEATS_OFFLINE

export const nodeStatus = (node: Pick<NodeRow, 'last_heartbeat' | 'heartbeat_ms'>, now: number): NodeStatus =>
  isFresh(node.last_heartbeat, node.heartbeat_ms, now) ? 'Online' : 'Offline'

export async function readTopology(db: Kysely<Database>) {
  const [nodes, services] = await Promise.all([
    db.selectFrom('nodes').selectAll().orderBy('node_id').execute(),
    db.selectFrom('node_services').selectAll().orderBy('service').execute(),
  ])
  return { nodes, services }
}

/** GET /system/status/ha: every service, every node registered for it, Online or Offline. */
export async function serviceStatus(db: Kysely<Database>, clusterId: string, now = Date.now()): Promise<ServiceStatus> {
  const { nodes, services } = await readTopology(db)
  const byId = new Map(nodes.map((n) => [n.node_id, n]))
  const out: ServiceStatus = {}
  for (const s of services) {
    const node = byId.get(s.node_id)
    if (!node) continue
    const status = nodeStatus(node, now)
    const fresh = isFresh(s.last_heartbeat, node.heartbeat_ms, now)
    out[s.service] ??= { nodes: [] }
    out[s.service]?.nodes.push({
      node_id: node.node_id,
      service_id: serviceId(s.service, clusterId),
      status,
      url: node.url,
      version: node.version,
      start_time: node.started_at,
      micro_services: { [s.service]: { last_heartbeat: s.last_heartbeat, uptime: fresh ? now - s.started_at : null } },
    })
  }
  return out
}

/** GET /system/status/nodes: one entry per node, with its address and the services it runs. */
export async function nodeList(db: Kysely<Database>, now = Date.now()): Promise<NodeStatusList> {
  const { nodes, services } = await readTopology(db)
  return nodes.map((n) => ({
    node_id: n.node_id,
    url: n.url,
    status: nodeStatus(n, now),
    services: services.filter((s) => s.node_id === n.node_id).map((s) => s.service),
    last_heartbeat: n.last_heartbeat,
  }))
}

export async function healthItems(db: Kysely<Database>, clusterId: string, now = Date.now()): Promise<HealthItem[]> {
  const { nodes, services } = await readTopology(db)
  const byId = new Map(nodes.map((n) => [n.node_id, n]))
  return services.flatMap((s) => {
    const node = byId.get(s.node_id)
    if (!node) return []
    const healthy = isFresh(s.last_heartbeat, node.heartbeat_ms, now)
    return [
      { service_id: serviceId(s.service, clusterId), node_id: s.node_id, state: healthy ? 'HEALTHY' : 'UNHEALTHY' } as const,
    ]
  })
}

/**
 * The services that run on the cluster right now: those with a fresh heartbeat on an Online node
 * (the console's start-up microservices call and the is-enabled checks answer from this).
 */
export async function runningServices(db: Kysely<Database>, now = Date.now()): Promise<Set<string>> {
  const { nodes, services } = await readTopology(db)
  const byId = new Map(nodes.map((n) => [n.node_id, n]))
  const running = new Set<string>()
  for (const s of services) {
    const node = byId.get(s.node_id)
    if (node && nodeStatus(node, now) === 'Online' && isFresh(s.last_heartbeat, node.heartbeat_ms, now)) running.add(s.service)
  }
  return running
}

export async function findNode(db: Kysely<Database>, nodeId: string) {
  const node = await db.selectFrom('nodes').selectAll().where('node_id', '=', nodeId).executeTakeFirst()
  if (!node) return undefined
  const services = await db.selectFrom('node_services').select('service').where('node_id', '=', nodeId).execute()
  return { ...node, services: services.map((s) => s.service) }
}

/**
 * Records what this node sees of every other registered node: the other's last heartbeat as read
 * now. Nodes share only the database, so this is the contact they have with each other; a node
 * whose view of a peer stops moving has lost it (or stopped itself).
 */
async function observePeers(trx: Kysely<Database>, nodeId: string, now: number): Promise<void> {
  const peers = await trx.selectFrom('nodes').select(['node_id', 'last_heartbeat']).where('node_id', '!=', nodeId).execute()
  for (const peer of peers) {
    await trx
      .insertInto('node_peers')
      .values({ observer_id: nodeId, peer_id: peer.node_id, peer_last_heartbeat: peer.last_heartbeat, observed_at: now })
      .onConflict((oc) =>
        oc.columns(['observer_id', 'peer_id']).doUpdateSet({ peer_last_heartbeat: peer.last_heartbeat, observed_at: now }),
      )
      .execute()
  }
  // A peer removed from the topology is no longer seen.
  await trx
    .deleteFrom('node_peers')
    .where('observer_id', '=', nodeId)
    .where('peer_id', 'not in', [...peers.map((p) => p.node_id), nodeId])
    .execute()
}

export async function deleteNode(db: Kysely<Database>, nodeId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('node_peers')
      .where((eb) => eb.or([eb('observer_id', '=', nodeId), eb('peer_id', '=', nodeId)]))
      .execute()
    await trx.deleteFrom('node_services').where('node_id', '=', nodeId).execute()
    await trx.deleteFrom('nodes').where('node_id', '=', nodeId).execute()
  })
}
