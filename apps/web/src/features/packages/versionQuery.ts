import type { VersionFilter, VersionOrder, VersionsVariables } from '@trove/contracts/packages'
import { PACKAGE_PAGE_SIZE } from '@trove/contracts/searchConstants'

/** What a version list asks for besides its package (the search model's version part, §3, §5). */
export interface VersionQuery {
  filter: Omit<VersionFilter, 'packageId'>
  orderBy?: VersionOrder
}

/** The versions call's variables for one package (§7); the release-only switch asks for semver releases. */
export function versionsVariablesOf(
  packageId: string,
  query: VersionQuery,
  ignorePreRelease: boolean,
  after: string | null,
): VersionsVariables {
  const variables: VersionsVariables = {
    filter: { ...query.filter, packageId, ...(ignorePreRelease ? { ignorePreRelease: true } : {}) },
    first: PACKAGE_PAGE_SIZE,
    after,
  }
  if (query.orderBy) variables.orderBy = query.orderBy
  return variables
}
