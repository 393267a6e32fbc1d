import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { GeneralConfig, GeneralConfigUpdate } from '@trove/contracts/shell'
import { apiRequest } from '../../../lib/api'

export const getGeneralConfig = () => apiRequest<GeneralConfig>('/ui/generalConfig')
export const generalConfigQuery = () => queryOptions({ queryKey: ['adminConfig', 'general'], queryFn: getGeneralConfig })
export const useGeneralConfig = () => useQuery(generalConfigQuery())

export const saveGeneralConfig = (body: GeneralConfigUpdate) =>
  apiRequest<GeneralConfig>('/ui/generalConfig', { method: 'PUT', body })

export function useSaveGeneralConfig() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveGeneralConfig,
    onSuccess: (saved) => {
      queryClient.setQueryData(generalConfigQuery().queryKey, saved)
      // The server name shows in page titles; read-only mode in the entitlements.
      void queryClient.invalidateQueries({ queryKey: ['auth', 'footer'] })
      void queryClient.invalidateQueries({ queryKey: ['shell', 'entitlements'] })
    },
  })
}

/** The logo: uploaded as the image itself. */
export const LOGO_URL = '/ui/api/v1/ui/generalConfig/logo'

export const uploadLogo = (file: File) => apiRequest<void>('/ui/generalConfig/logo', { method: 'POST', body: file })

export const removeLogo = () => apiRequest<void>('/ui/generalConfig/logo', { method: 'DELETE' })
