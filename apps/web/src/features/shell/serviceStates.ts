import type { NodeStatusList } from '@trove/contracts/operations'
import { isModuleType, modulesSetting, SERVICE_TYPES, type ServiceTypeName } from '@trove/contracts/services'

export type ServiceState =
  /** An Online node beats for it. */
  | { kind: 'running'; nodes: string[] }
  /**
   * One of Trove's modules that no Online node runs: the setting that turns it on at `node` (the
   * first Online node, else the first registered; null when there is none), and the nodes set up
   * for it that are offline.
   */
  | { kind: 'off'; node: string | null; setting: string; offline: string[] }
  /** Not a module of Trove: nothing to turn on. */
  | { kind: 'notInTrove'; offline: string[] }

/**
 * Each of the console's services as the nodes answer it, in the product's order. A service runs
 * while an Online node beats for it (as the server's start-up answer counts it). For a module
 * that is off, the setting keeps what the chosen node runs and adds the module: restarted with
 * it, that node runs both.
 */
export function serviceStates(nodes: NodeStatusList): { name: ServiceTypeName; state: ServiceState }[] {
  const online = nodes.filter((n) => n.status === 'Online')
  const target = online[0] ?? nodes[0]
  return SERVICE_TYPES.map((name) => {
    const on = online.filter((n) => n.services.includes(name)).map((n) => n.node_id)
    if (on.length > 0) return { name, state: { kind: 'running', nodes: on } }
    const offline = nodes.filter((n) => n.status !== 'Online' && n.services.includes(name)).map((n) => n.node_id)
    if (!isModuleType(name)) return { name, state: { kind: 'notInTrove', offline } }
    return {
      name,
      state: {
        kind: 'off',
        node: target?.node_id ?? null,
        setting: modulesSetting([...(target?.services ?? []), name]),
        offline,
      },
    }
  })
}
