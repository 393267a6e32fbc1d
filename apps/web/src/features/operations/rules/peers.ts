import type { NodeStatus, PeerList } from '@trove/contracts/operations'
import { formatUptime } from './uptime'

/** "12s ago" (the server's clock, so a browser clock that is off changes nothing). */
export function formatAgo(at: number, now: number): string {
  return `${formatUptime(Math.max(0, now - at))} ago`
}

export type PeerCell =
  | { kind: 'self' }
  | { kind: 'never' }
  | { kind: 'seen'; status: NodeStatus; observedAgo: string; heartbeatAgo: string }

/**
 * The cluster as its nodes see each other: one row per observing node, one cell per node in the
 * same order. A cell holds the observer's last sighting of that node — Online or Offline as it was
 * then, when it looked, and how old the heartbeat it read was — or says it never saw it.
 */
export function peerGrid(list: PeerList): { observer: string; cells: { peer: string; cell: PeerCell }[] }[] {
  const ids = list.nodes.map((n) => n.nodeId)
  return list.nodes.map((node) => ({
    observer: node.nodeId,
    cells: ids.map((peer) => {
      if (peer === node.nodeId) return { peer, cell: { kind: 'self' } as const }
      const seen = node.sees.find((s) => s.peerId === peer)
      if (!seen) return { peer, cell: { kind: 'never' } as const }
      return {
        peer,
        cell: {
          kind: 'seen' as const,
          status: seen.status,
          observedAgo: formatAgo(seen.observedAt, list.now),
          heartbeatAgo: formatUptime(Math.max(0, seen.observedAt - seen.peerLastHeartbeat)),
        },
      }
    }),
  }))
}
