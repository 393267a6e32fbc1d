import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../../../lib/api'

/** A security switch: its query and its mutation, keyed by the call's path. */
function setting<T>(path: string) {
  const query = () =>
    queryOptions({ queryKey: ['adminConfig', 'security', path], queryFn: () => apiRequest<T>(path), retry: false })
  return {
    query,
    useValue: () => useQuery(query()),
    useSave: () => {
      const queryClient = useQueryClient()
      return useMutation({
        mutationFn: (body: T) => apiRequest<T>(path, { method: 'PUT', body }),
        onSuccess: (saved) => {
          queryClient.setQueryData(query().queryKey, saved ?? undefined)
          void queryClient.invalidateQueries({ queryKey: query().queryKey })
          void queryClient.invalidateQueries({ queryKey: ['shell', 'entitlements'] })
        },
      })
    },
  }
}

export const anonymousAccess = setting<{ enabled: boolean }>('/ui/admin/security/anonymous-access')
export const uiAccess = setting<{ blocked: boolean }>('/ui/admin/security/uiAccess')
export const mfaPolicy = setting<{ required: boolean }>('/ui/admin/security/mfa')
export const registration = setting<{ enabled: boolean }>('/ui/admin/security/registration')
export const passwordPolicy = setting<{ expiryDays: number }>('/ui/admin/security/passwordPolicy')
