import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ReverseProxy, WebServerType } from '@trove/contracts/shell'
import { apiRequest } from '../../../lib/api'

const base = '/ui/admin/reverseProxies'

export const listReverseProxies = () => apiRequest<{ proxies: ReverseProxy[] }>(base)
export const reverseProxiesQuery = () =>
  queryOptions({ queryKey: ['adminConfig', 'reverseProxies'], queryFn: listReverseProxies })
export const useReverseProxies = () => useQuery(reverseProxiesQuery())

export const getReverseProxy = (name: string) => apiRequest<ReverseProxy>(`${base}/${encodeURIComponent(name)}`)
export const reverseProxyQuery = (name: string) =>
  queryOptions({ queryKey: ['adminConfig', 'reverseProxies', name], queryFn: () => getReverseProxy(name) })
export const useReverseProxy = (name: string | undefined) => useQuery({ ...reverseProxyQuery(name ?? ''), enabled: !!name })

/** The configuration file a proxy's settings make for one web server (nginx or haproxy). */
export const getProxyConfig = (name: string, webServer: WebServerType) =>
  apiRequest<{ config: string }>(`${base}/${encodeURIComponent(name)}/${webServer}`)
export const proxyConfigQuery = (name: string, webServer: WebServerType) =>
  queryOptions({
    queryKey: ['adminConfig', 'reverseProxies', name, webServer],
    queryFn: () => getProxyConfig(name, webServer),
  })
export const useProxyConfig = (name: string | undefined, webServer: WebServerType) =>
  useQuery({ ...proxyConfigQuery(name ?? '', webServer), enabled: !!name })

export const saveReverseProxy = ({ original, proxy }: { original: string | null; proxy: ReverseProxy }) =>
  original
    ? apiRequest<ReverseProxy>(`${base}/${encodeURIComponent(original)}`, { method: 'PUT', body: proxy })
    : apiRequest<ReverseProxy>(base, { method: 'POST', body: proxy })
export const deleteReverseProxy = (name: string) => apiRequest<void>(`${base}/${encodeURIComponent(name)}`, { method: 'DELETE' })

export function useSaveReverseProxy() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveReverseProxy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reverseProxiesQuery().queryKey }),
  })
}

export function useDeleteReverseProxy() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteReverseProxy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reverseProxiesQuery().queryKey }),
  })
}
