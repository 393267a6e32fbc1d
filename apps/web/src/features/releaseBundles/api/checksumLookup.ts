import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ChecksumLookup } from '@trove/contracts/distribution'
import { distributionRequest } from './distributionRequest'

/** How many matches the lookup asks for. */
export const LOOKUP_ROWS = 50

/** GET /release_bundle/checksum/{checksum}?num_of_rows: the bundles holding a file with it; `data` is the list (§7). */
export const lookupChecksum = (checksum: string) =>
  distributionRequest<ChecksumLookup>(`/release_bundle/checksum/${encodeURIComponent(checksum)}`, {
    query: { num_of_rows: LOOKUP_ROWS },
  })

export const checksumLookupQuery = (checksum: string) =>
  queryOptions({
    queryKey: ['releaseBundles', 'checksum', checksum],
    queryFn: () => lookupChecksum(checksum),
    select: (d) => d.data,
  })
/** Runs once a checksum is given (null: nothing asked yet). */
export const useChecksumLookup = (checksum: string | null) =>
  useQuery({ ...checksumLookupQuery(checksum ?? ''), enabled: checksum !== null })
