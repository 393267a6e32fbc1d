import { queryOptions, useQuery } from '@tanstack/react-query'
import type { PeerList } from '@trove/contracts/operations'
import { apiRequest } from '../../../lib/api'
import { STATUS_REFRESH_MS } from './serviceStatus'

/** Every node, its address and state, and what it last saw of the others. */
export const getPeers = () => apiRequest<PeerList>('/system/status/peers')
export const peersQuery = () =>
  queryOptions({ queryKey: ['operations', 'status', 'peers'], queryFn: getPeers, refetchInterval: STATUS_REFRESH_MS })
export const usePeers = () => useQuery(peersQuery())
