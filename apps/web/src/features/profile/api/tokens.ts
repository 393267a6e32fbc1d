import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AccessTokenCreated, TokenInfo, TokenScope } from '@trove/contracts/tokens'
import { apiRequest } from '../../../lib/api'

export const listTokens = () => apiRequest<TokenInfo[]>('/ui/userIdentifyToken')
export const tokensQuery = () => queryOptions({ queryKey: ['profile', 'tokens'], queryFn: listTokens })
export const useTokens = () => useQuery(tokensQuery())

export const createToken = ({
  user,
  expiresIn,
  description,
  scope = 'full',
}: {
  user: string
  expiresIn: number
  description: string
  scope?: TokenScope
}) =>
  apiRequest<AccessTokenCreated>(`/ui/userIdentifyToken/${encodeURIComponent(user)}`, {
    method: 'POST',
    body: { expiresIn, description: description || undefined, scope },
  })

export const revokeToken = (id: string) =>
  apiRequest<void>(`/ui/userIdentifyToken/id/${encodeURIComponent(id)}`, { method: 'DELETE' })

export function useCreateToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQuery().queryKey }),
  })
}

export function useRevokeToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQuery().queryKey }),
  })
}
