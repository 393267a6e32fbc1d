import { queryOptions, useQuery } from '@tanstack/react-query'
import type { NodeStatusList } from '@trove/contracts/operations'
import { apiRequest } from '../../../lib/api'

/** As often as the status screens ask: a node coming, going or restarted with other modules shows without a reload. */
const TOPOLOGY_REFRESH_MS = 5000

/** Every node with its address, state and the services it beats for (admins only). */
export const getTopologyNodes = () => apiRequest<NodeStatusList>('/system/status/nodes')
export const topologyNodesQuery = () =>
  queryOptions({ queryKey: ['shell', 'topology', 'nodes'], queryFn: getTopologyNodes, refetchInterval: TOPOLOGY_REFRESH_MS })
export const useTopologyNodes = () => useQuery(topologyNodesQuery())
