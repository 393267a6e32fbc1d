import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Dashboard } from '@trove/contracts/dashboard'
import { apiRequest } from '../../../lib/api'

/** GET /ui/api/v1/ui/dashboard: the Overview's figures, from the server's roll-up. */
export const fetchDashboard = () => apiRequest<Dashboard>('/ui/dashboard')
export const dashboardQuery = () =>
  queryOptions({
    queryKey: ['dashboard'],
    queryFn: fetchDashboard,
    // A dashboard left open stays current.
    refetchInterval: 30_000,
  })
export const useDashboard = () => useQuery(dashboardQuery())
