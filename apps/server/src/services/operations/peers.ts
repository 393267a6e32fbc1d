import type { PeerList } from '@trove/contracts/operations'
import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'
import { isFresh, nodeStatus, readTopology } from './nodes.js'

/**
 * GET /system/status/peers: every registered node with its address, state and last heartbeat, and
 * what it last saw of each other node on its own heartbeat (`node_peers`). A sighting is Online
 * when the peer's heartbeat was fresh at the moment it was read.
 */
export async function peerList(db: Kysely<Database>, selfId: string, now = Date.now()): Promise<PeerList> {
  const [{ nodes, services }, sightings] = await Promise.all([
    readTopology(db),
    db.selectFrom('node_peers').selectAll().orderBy('observer_id').orderBy('peer_id').execute(),
  ])
  const byId = new Map(nodes.map((n) => [n.node_id, n]))
  return {
    now,
    nodes: nodes.map((n) => ({
      nodeId: n.node_id,
      url: n.url,
      version: n.version,
      status: nodeStatus(n, now),
      startedAt: n.started_at,
      lastHeartbeat: n.last_heartbeat,
      heartbeatMs: n.heartbeat_ms,
      services: services.filter((s) => s.node_id === n.node_id).map((s) => s.service),
      self: n.node_id === selfId,
      sees: sightings
        .filter((s) => s.observer_id === n.node_id && byId.has(s.peer_id))
        .map((s) => {
          const peer = byId.get(s.peer_id)
          const fresh = peer ? isFresh(s.peer_last_heartbeat, peer.heartbeat_ms, s.observed_at) : false
          return {
            peerId: s.peer_id,
            peerLastHeartbeat: s.peer_last_heartbeat,
            observedAt: s.observed_at,
            status: fresh ? ('Online' as const) : ('Offline' as const),
          }
        }),
    })),
  }
}
