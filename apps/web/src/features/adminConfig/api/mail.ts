import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MailSettings } from '@trove/contracts/passwords'
import { apiRequest } from '../../../lib/api'

export type MailSettingsView = Omit<MailSettings, 'password'> & { passwordSet: boolean }

export const getMailSettings = () => apiRequest<MailSettingsView | null>('/ui/admin/configuration/mail')
export const mailSettingsQuery = () => queryOptions({ queryKey: ['adminConfig', 'mail'], queryFn: getMailSettings })
export const useMailSettings = () => useQuery(mailSettingsQuery())

export const saveMailSettings = (body: MailSettings) =>
  apiRequest<MailSettingsView>('/ui/admin/configuration/mail', { method: 'PUT', body })

export function useSaveMailSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveMailSettings,
    onSuccess: (saved) => queryClient.setQueryData(mailSettingsQuery().queryKey, saved),
  })
}
