import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ReverseProxy } from '@trove/contracts/shell'
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

export const getNginxConfig = (name: string) => apiRequest<{ config: string }>(`${base}/${encodeURIComponent(name)}/nginx`)
export const nginxConfigQuery = (name: string) =>
  queryOptions({ queryKey: ['adminConfig', 'reverseProxies', name, 'nginx'], queryFn: () => getNginxConfig(name) })
export const useNginxConfig = (name: string | undefined) => useQuery({ ...nginxConfigQuery(name ?? ''), enabled: !!name })

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
