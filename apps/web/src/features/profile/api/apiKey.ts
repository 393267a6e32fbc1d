import { useMutation } from '@tanstack/react-query'
import type { ApiKeyResponse } from '@trove/contracts/tokens'
import { apiRequest, basicAuth } from '../../../lib/api'

export interface Reauth {
  user: string
  password: string
}

const withPassword = (auth: Reauth) => ({
  headers: { authorization: basicAuth(auth.user, auth.password) },
  handleAuthErrors: true,
})

export const showApiKey = (auth: Reauth) =>
  apiRequest<ApiKeyResponse>(`/ui/userApiKey/${encodeURIComponent(auth.user)}`, withPassword(auth))
export const createApiKey = (auth: Reauth) =>
  apiRequest<ApiKeyResponse>('/ui/userApiKey', { method: 'POST', ...withPassword(auth) })
export const regenerateApiKey = (auth: Reauth) =>
  apiRequest<ApiKeyResponse>('/ui/userApiKey', { method: 'PUT', ...withPassword(auth) })
export const revokeApiKey = async (_auth: Reauth): Promise<ApiKeyResponse> => {
  await apiRequest<void>('/ui/userApiKey', { method: 'DELETE' })
  return { apiKey: null }
}

/** One mutation per action; each answers the key to show (or null). */
export const useApiKeyAction = (action: (auth: Reauth) => Promise<ApiKeyResponse>) => useMutation({ mutationFn: action })
