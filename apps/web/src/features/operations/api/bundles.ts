import { queryOptions, useQuery } from '@tanstack/react-query'
import { CONSOLE_API_BASE } from '@trove/contracts/http'
import { BUNDLE_CREATE_PATHS, type CreateBundleRequest, type ServiceType, type SupportBundle } from '@trove/contracts/operations'
import { apiRequest } from '../../../lib/api'

/**
 * Support bundle actions swallow their errors and answer false (spec §7, §8): the screen then
 * shows what the server has, and the error is only logged.
 */
async function orFalse<T>(what: string, call: () => Promise<T>): Promise<T | false> {
  try {
    return await call()
  } catch (error) {
    console.error(`Support bundle: ${what} failed`, error)
    return false
  }
}

export const listBundles = () => orFalse('list', () => apiRequest<SupportBundle[]>('/ui/userSupport/listBundles'))
export const bundlesQuery = () =>
  queryOptions({
    queryKey: ['operations', 'bundles'],
    queryFn: async () => (await listBundles()) || [],
    // While the server still writes a bundle, look again until it is done.
    refetchInterval: (query) => (query.state.data?.some((b) => b.status === 'in_progress') ? 3000 : false),
  })
export const useBundles = () => useQuery(bundlesQuery())

/** Creates a bundle of one service on its own path; mission control's body goes without the service field. */
export function createBundle(service: ServiceType, request: CreateBundleRequest) {
  const path = BUNDLE_CREATE_PATHS[service]
  if (!path) return Promise.resolve(false as const)
  const body = service === 'mission-control' ? { ...request, service: undefined } : { ...request, service }
  return orFalse('create', () => apiRequest<SupportBundle>(`/${path}`, { method: 'POST', body }))
}

export const deleteBundle = (id: string) =>
  orFalse('delete', async () => {
    await apiRequest<void>(`/ui/userSupport/deleteBundle/${encodeURIComponent(id)}`, { method: 'DELETE' })
    return true
  })

export const downloadUrl = (id: string) => `${CONSOLE_API_BASE}/ui/userSupport/downloadBundle/${encodeURIComponent(id)}`

/** Opens the download in a new window (spec §7). */
export function downloadBundle(id: string): boolean {
  return window.open(downloadUrl(id), '_blank') !== null
}
