import { queryOptions } from '@tanstack/react-query'
import { CONSOLE_API_BASE } from '@trove/contracts/http'
import {
  type AdvisoryDetails,
  type ComponentFindingsPage,
  SCANNER_PAGE_ROWS,
  SCANNER_PATHS,
  type ScannedVersionRef,
  type ScanSummary,
} from '@trove/contracts/scanner'
import { apiRequest } from '../../../lib/api'

/** POST component/summary: where the version's scan stands, with its counts by severity. */
export const scanSummaryQuery = (ref: ScannedVersionRef) =>
  queryOptions({
    queryKey: ['scanner', 'summary', ref],
    queryFn: () => apiRequest<ScanSummary>(SCANNER_PATHS.summary, { method: 'POST', body: ref }),
    // A version stored a moment ago is scanned within a second or two: look again until it is.
    refetchInterval: (query) => (query.state.data?.state === 'waiting' || query.state.data?.state === 'scanning' ? 1500 : false),
  })

/** POST component/paginatedsearch (§7): 20 rows, newest advisory first. */
export const componentFindingsQuery = (ref: ScannedVersionRef, page: number) =>
  queryOptions({
    queryKey: ['scanner', 'components', ref, page],
    queryFn: () =>
      apiRequest<ComponentFindingsPage>(SCANNER_PATHS.components, {
        method: 'POST',
        query: { direction: 'desc', num_of_rows: String(SCANNER_PAGE_ROWS), order_by: 'last_updated', page_num: String(page) },
        body: { ...ref, all_components: false },
      }),
  })

/** POST component/details/general: one advisory. */
export const advisoryDetailsQuery = (id: string) =>
  queryOptions({
    queryKey: ['scanner', 'advisory', id],
    queryFn: () => apiRequest<AdvisoryDetails>(SCANNER_PATHS.details, { method: 'POST', body: { id } }),
  })

/** GET component/sbom: the version's SBOM as an attachment, downloaded by following the link (the session's cookie goes along). */
export const sbomUrl = (ref: ScannedVersionRef, format: 'cyclonedx' | 'spdx') =>
  `${CONSOLE_API_BASE}${SCANNER_PATHS.sbom}?${new URLSearchParams({
    package_id: ref.package_id,
    version: ref.version,
    ...(ref.repo ? { repo: ref.repo } : {}),
    format,
  })}`
