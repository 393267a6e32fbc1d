import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { SCANNER_PATHS, type Violation, type ViolationFilter } from '@trove/contracts/scanner'
import { apiRequest } from '../../../lib/api'

/** Every violations query starts with this key: whatever changes them invalidates it. */
export const violationsKey = ['scanner-admin', 'violations'] as const

/** GET admin/violations with the server's filters (repository, type, severity). */
export const violationsQuery = (filter: ViolationFilter) =>
  queryOptions({
    queryKey: [...violationsKey, filter],
    queryFn: () => apiRequest<Violation[]>(SCANNER_PATHS.violations, { query: { ...filter } }),
    // A filter change keeps the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  })
export const useViolations = (filter: ViolationFilter) => useQuery(violationsQuery(filter))
