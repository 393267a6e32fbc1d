import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { AuditEvent, AuditPage } from '@trove/contracts/access'
import { apiRequest } from '../../../lib/api'

export interface AuditFilter {
  targetType?: AuditEvent['targetType']
  page: number
}
export const listAudit = (filter: AuditFilter) => apiRequest<AuditPage>('/ui/admin/audit', { query: { ...filter } })
export const auditQuery = (filter: AuditFilter) =>
  queryOptions({ queryKey: ['access', 'audit', filter], queryFn: () => listAudit(filter), placeholderData: keepPreviousData })
export const useAudit = (filter: AuditFilter) => useQuery(auditQuery(filter))
