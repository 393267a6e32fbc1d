import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { HealthItem, NodeStatusList, ServiceStatus } from '@trove/contracts/operations'
import { apiRequest } from '../../../lib/api'

/** How often the status screens ask again, so a node coming or going shows without a reload. */
export const STATUS_REFRESH_MS = 5000

export const getServiceStatus = () => apiRequest<ServiceStatus>('/system/status/ha')
export const serviceStatusQuery = () =>
  queryOptions({ queryKey: ['operations', 'status', 'ha'], queryFn: getServiceStatus, refetchInterval: STATUS_REFRESH_MS })
export const useServiceStatus = () => useQuery(serviceStatusQuery())

export const getNodeStatus = () => apiRequest<NodeStatusList>('/system/status/nodes')
export const nodeStatusQuery = () =>
  queryOptions({ queryKey: ['operations', 'status', 'nodes'], queryFn: getNodeStatus, refetchInterval: STATUS_REFRESH_MS })

export const deleteNode = ({ serviceId, nodeId }: { serviceId: string; nodeId: string }) =>
  apiRequest<void>(`/access/api/v1/topology/${encodeURIComponent(serviceId)}/${encodeURIComponent(nodeId)}`, { method: 'DELETE' })

/** Deletes a node, then fetches service status again (spec §4). */
export function useDeleteNode() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteNode,
    onSettled: () => queryClient.invalidateQueries({ queryKey: serviceStatusQuery().queryKey }),
  })
}

export const getHealth = () => apiRequest<HealthItem[]>('/system/status/health')
export const healthQuery = () =>
  queryOptions({ queryKey: ['operations', 'status', 'health'], queryFn: getHealth, refetchInterval: STATUS_REFRESH_MS })
export const useHealth = () => useQuery(healthQuery())
