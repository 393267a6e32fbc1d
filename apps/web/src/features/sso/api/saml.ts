import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SamlSettingsInput } from '@trove/contracts/sso'
import { apiRequest } from '../../../lib/api'

const PATH = '/ui/admin/security/saml'

export interface SamlView {
  settings: Required<SamlSettingsInput> | null
  metadataUrl: string
  acsUrl: string
  registrationId: string
}

export const getSamlSettings = () => apiRequest<SamlView>(PATH)
export const samlSettingsQuery = () => queryOptions({ queryKey: ['sso', 'saml'], queryFn: getSamlSettings })
export const useSamlSettings = () => useQuery(samlSettingsQuery())

export const saveSamlSettings = (settings: SamlSettingsInput) => apiRequest<SamlView>(PATH, { method: 'PUT', body: settings })

export function useSaveSamlSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveSamlSettings,
    onSuccess: (saved) => queryClient.setQueryData(samlSettingsQuery().queryKey, saved),
  })
}
