import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ContactAccepted, ContactRequest, ContactRequestPage, ContactSettings } from '@trove/contracts/contact'
import { CONTACT_PATHS } from '@trove/contracts/contactConstants'
import { apiRequest } from '../../../lib/api'

/** POST /ui/api/v1/marketing/contact (shell §7.2): the contact-us form. */
export const sendContactRequest = (request: ContactRequest) =>
  apiRequest<ContactAccepted>(CONTACT_PATHS.submit, { method: 'POST', body: request })

/** GET …/ui/admin/contact/requests: newest first, a page at a time (administrators). */
export const listContactRequests = (page: number) => apiRequest<ContactRequestPage>(CONTACT_PATHS.requests, { query: { page } })
export const contactRequestsQuery = (page: number) =>
  queryOptions({
    queryKey: ['contact', 'requests', page],
    queryFn: () => listContactRequests(page),
    placeholderData: keepPreviousData,
  })
export const useContactRequests = (page: number) => useQuery(contactRequestsQuery(page))

/** GET/PUT …/ui/admin/configuration/contact: where requests are mailed. */
export const contactSettingsQuery = () =>
  queryOptions({
    queryKey: ['contact', 'settings'],
    queryFn: () => apiRequest<ContactSettings>(CONTACT_PATHS.settings),
  })
export const useContactSettings = () => useQuery(contactSettingsQuery())
export function useSaveContactSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (settings: ContactSettings) =>
      apiRequest<ContactSettings>(CONTACT_PATHS.settings, { method: 'PUT', body: settings }),
    onSuccess: (saved) => queryClient.setQueryData(contactSettingsQuery().queryKey, saved),
  })
}
