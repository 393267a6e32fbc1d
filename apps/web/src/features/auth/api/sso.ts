import { queryOptions, useQuery } from '@tanstack/react-query'
import type { LoginRelatedData } from '@trove/contracts/auth'
import type { LoginDialogSettings } from '@trove/contracts/sso'
import { apiRequest } from '../../../lib/api'

/** Shell §4.2: whether the login route goes straight to single sign-on. */
export const getAutoRedirectState = () =>
  apiRequest<{ isAutoRedirectLogin: boolean }>('/ui/auth/autoRedirectLogin', { handleAuthErrors: true })

export const getLoginRelatedData = () => apiRequest<LoginRelatedData>('/ui/auth/screen/loginRelatedData')

export const getSamlRegistrationId = () =>
  apiRequest<{ samlRegistrationId: string }>('/ui/auth/saml/registrationId', { handleAuthErrors: true })

/** Shell §7.1: GET SAML logout URL, answer logoutUrl. */
export const getSamlLogoutUrl = () =>
  apiRequest<{ logoutUrl: string | null }>('/ui/auth/saml/logoutUrl', { handleAuthErrors: true })

/** Shell §4.4: a login redirectTo is resolved through the redirect call. */
export const resolveRedirectTo = (redirectTo: string) =>
  apiRequest<{ url: string }>('/ui/auth/redirect', { query: { redirectTo }, handleAuthErrors: true })

export const loginDialogSettingsQuery = () =>
  queryOptions({
    queryKey: ['auth', 'login-dialog-settings'],
    queryFn: () => apiRequest<LoginDialogSettings>('/ui/auth/screen/loginDialogSettings', { handleAuthErrors: true }),
    staleTime: 60_000,
  })
export const useLoginDialogSettings = () => useQuery(loginDialogSettingsQuery())
