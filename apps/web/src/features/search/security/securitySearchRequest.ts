import type { Severity } from '@trove/contracts/scanner'
import { parseSearchQuery } from '../searchModel'

/** The body of the security-compliance search (packages §2): the top bar's query with its key:value filters. */
export interface SecuritySearchRequest {
  query: string
  cve: string[]
  severities: Severity[]
  licenses: string[]
  repositories: string[]
}

const SEVERITIES: readonly string[] = ['critical', 'high', 'medium', 'low', 'unknown']

/**
 * Reads the query string the search bar wrote ("CVE-2021-23337", "lodash severities:high",
 * "licenses:GPL-3.0 repo:npm-local") into the search call's body. A severity the scanner does not
 * know is dropped rather than refused, as the other filters' unknown values are.
 */
export function securitySearchRequest(query: string): SecuritySearchRequest {
  const model = parseSearchQuery(query)
  const f = model.filters
  return {
    query: model.name.trim(),
    cve: f.cve ? [f.cve] : [],
    severities: (f.severities ?? []).map((s) => s.toLowerCase()).filter((s): s is Severity => SEVERITIES.includes(s)),
    licenses: f.licenses ?? [],
    repositories: f.repositories ?? [],
  }
}

export const isEmptyRequest = (r: SecuritySearchRequest) =>
  r.query === '' && r.cve.length === 0 && r.severities.length === 0 && r.licenses.length === 0
