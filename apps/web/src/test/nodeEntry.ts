import type { NodeStatus, NodeStatusList } from '@trove/contracts/operations'

/** One node of GET /system/status/nodes, running `services`, at an address made from its id. */
export const nodeEntry = (node_id: string, services: string[], status: NodeStatus = 'Online'): NodeStatusList[number] => ({
  node_id,
  url: `http://${node_id}:8080`,
  status,
  services,
  last_heartbeat: 0,
})
