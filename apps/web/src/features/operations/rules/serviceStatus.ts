import { type HealthItem, type NodeStatusList, SERVICE_TYPES, type ServiceStatus } from '@trove/contracts/operations'

const rank = (service: string) => {
  const i = (SERVICE_TYPES as readonly string[]).indexOf(service)
  return i < 0 ? SERVICE_TYPES.length : i
}

/** Services in the product's order (the artifact repository first), unknown ones last. */
export const byServiceOrder = <T>(entries: [string, T][]): [string, T][] =>
  [...entries].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))

/** The /ha answer as the log viewer reads it: per service only Online nodes' ids; services with none dropped (spec §7). */
export function onlineNodesByService(status: ServiceStatus): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [service, { nodes }] of byServiceOrder(Object.entries(status))) {
    const online = nodes.filter((n) => n.status === 'Online').map((n) => n.node_id)
    if (online.length > 0) out[service] = online
  }
  return out
}

/** The same from the node status source (freemium licences): services of Online nodes. */
export function onlineNodesFromNodeList(nodes: NodeStatusList): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const node of nodes) {
    if (node.status !== 'Online') continue
    for (const service of node.services) out[service] = [...(out[service] ?? []), node.node_id]
  }
  return Object.fromEntries(byServiceOrder(Object.entries(out)))
}

/** The distinct mission-control service ids: more than one means several instances (spec §4). */
export function missionControlInstances(status: ServiceStatus): string[] {
  return [...new Set((status['mission-control']?.nodes ?? []).map((n) => n.service_id))]
}

export const hasSeveralMissionControls = (status: ServiceStatus) => missionControlInstances(status).length > 1

/** A health item is healthy when its state is HEALTHY (spec §3); per service: how many of its items are. */
export const isHealthy = (item: Pick<HealthItem, 'state'>) => item.state === 'HEALTHY'
export function serviceHealth(items: HealthItem[], service: string): { healthy: number; total: number } {
  const mine = items.filter((i) => i.service_id.split('@')[0] === service)
  return { healthy: mine.filter(isHealthy).length, total: mine.length }
}
