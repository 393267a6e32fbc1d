import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { OAuthProvider, OAuthProviderInput, OAuthProviderList } from '@trove/contracts/sso'
import { apiRequest } from '../../../lib/api'

const PATH = '/ui/admin/security/oauth'

export const listOAuthProviders = () => apiRequest<OAuthProviderList>(PATH)
export const oauthProvidersQuery = () => queryOptions({ queryKey: ['sso', 'oauth-providers'], queryFn: listOAuthProviders })
export const useOAuthProviders = () => useQuery(oauthProvidersQuery())

/** Creates a provider, or changes the one named `previousName`. */
export const saveOAuthProvider = ({ previousName, input }: { previousName: string | null; input: OAuthProviderInput }) =>
  previousName
    ? apiRequest<OAuthProvider>(`${PATH}/${encodeURIComponent(previousName)}`, { method: 'PUT', body: input })
    : apiRequest<OAuthProvider>(PATH, { method: 'POST', body: input })

export const deleteOAuthProvider = (name: string) => apiRequest<void>(`${PATH}/${encodeURIComponent(name)}`, { method: 'DELETE' })

function useInvalidating<T, R>(fn: (input: T) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: oauthProvidersQuery().queryKey }),
  })
}
export const useSaveOAuthProvider = () => useInvalidating(saveOAuthProvider)
export const useDeleteOAuthProvider = () => useInvalidating(deleteOAuthProvider)
