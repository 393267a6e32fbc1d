import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { License, LicenseType } from '@trove/contracts/shell'
import { apiRequest } from '../../../lib/api'

export const getLicense = () => apiRequest<License>('/ui/admin/license')
export const licenseQuery = () => queryOptions({ queryKey: ['adminConfig', 'license'], queryFn: getLicense })
export const useLicense = () => useQuery(licenseQuery())

export interface LicenseInput {
  type: Exclude<LicenseType, 'N/A'>
  licensedTo: string
  validThrough: number | null
}
export const installLicense = (body: LicenseInput) => apiRequest<License>('/ui/admin/license', { method: 'PUT', body })
export const removeLicense = () => apiRequest<License>('/ui/admin/license', { method: 'DELETE' })

/** Installing or removing changes what the whole console shows: the entitlements are fetched again. */
export function useChangeLicense() {
  const queryClient = useQueryClient()
  const onSuccess = (license: License) => {
    queryClient.setQueryData(licenseQuery().queryKey, license)
    void queryClient.invalidateQueries({ queryKey: ['shell', 'entitlements'] })
  }
  return {
    install: useMutation({ mutationFn: installLicense, onSuccess }),
    remove: useMutation({ mutationFn: removeLicense, onSuccess }),
  }
}
