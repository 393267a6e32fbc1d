import type {
  MdsRequest,
  PackageFilter,
  PackageOrder,
  PackagesVariables,
  VersionFilter,
  VersionOrder,
} from '@trove/contracts/packages'
import { PACKAGE_FIELDS, PACKAGES_COUNT_QUERY, PACKAGES_QUERY } from '@trove/contracts/packages'
import { PACKAGE_PAGE_SIZE, PACKAGE_TYPE_ALIASES, VERSION_COUNT_MIN } from '@trove/contracts/searchConstants'
import { normalizeModel, parseSortType, type SearchModel, withWildcard } from './searchModel'

/**
 * A package type as the metadata names it (§3 aliases). Trove's go format is named `go`, so the
 * go ↔ golang pair resolves to `go`; every other alias is followed once.
 */
export function canonicalPackageType(type: string): string {
  const t = type.trim()
  if (t === 'go' || t === 'golang') return 'go'
  return PACKAGE_TYPE_ALIASES[t.toLowerCase()] ?? t
}

const PACKAGE_SORT: Record<string, PackageOrder['field']> = {
  name: 'NAME',
  created: 'CREATED',
  modified: 'MODIFIED',
  downloads: 'DOWNLOADS',
}

/**
 * §5 package search query building: the name is lowercased (and gets its trailing *), the
 * description is wrapped in wildcards, the type All becomes '*', repositories go only when
 * non-empty, and at least one version is asked for.
 */
export function packageFilterOf(input: SearchModel): PackageFilter {
  const { name, filters } = normalizeModel(input)
  const filter: PackageFilter = { versionCountMin: VERSION_COUNT_MIN }
  // Typed text matches any part of a name, scope, description or keyword (the server ranks it);
  // a name with a wildcard stays the §5 glob on the lowercased name.
  if (name && /[*?]/.test(name)) filter.lowercase_name = withWildcard(name.toLowerCase())
  else if (name) filter.search = name
  if (filters.description) filter.description = `*${filters.description}*`
  const types = (filters.packageTypes ?? []).map((t) => (t === 'All' ? '*' : canonicalPackageType(t)))
  if (types.includes('*') || types.length === 0) {
    if (types.length > 0) filter.package_type = '*'
  } else if (types.length === 1) filter.package_type = types[0]
  else filter.packageTypeIn = types
  if (filters.repositories && filters.repositories.length > 0) filter.repositories = filters.repositories
  if (filters.tags && filters.tags.length > 0) filter.tags = filters.tags
  if (filters.scope) filter.scope = filters.scope
  if (filters.before) filter.before = filters.before
  if (filters.after) filter.after = filters.after
  return filter
}

/**
 * The list's order: the sort the query asks for; else, without a name, the most recently updated
 * first (the list on arrival, or filtered by type or repository); else the server's (a text search
 * is ranked, a glob by name).
 */
export function packageOrderOf(model: SearchModel): PackageOrder | undefined {
  const field = model.filters.sortBy ? PACKAGE_SORT[model.filters.sortBy.toLowerCase()] : undefined
  if (field) return { field, direction: parseSortType(model.filters.sortType) }
  if (!normalizeModel(model).name) return { field: 'MODIFIED', direction: 'DESC' }
  return undefined
}

/** The list call's body (§7): the GraphQL query with filter, first, after and orderBy, plus limit, query, sort_by and sort_type. */
export function packagesRequestOf(model: SearchModel, queryString: string, fields = ''): MdsRequest {
  const variables: PackagesVariables = { filter: packageFilterOf(model), first: PACKAGE_PAGE_SIZE, after: null }
  const orderBy = packageOrderOf(model)
  if (orderBy) variables.orderBy = orderBy
  return {
    graphQL: {
      query: fields ? PACKAGES_QUERY.replace(PACKAGE_FIELDS, `${PACKAGE_FIELDS} ${fields}`) : PACKAGES_QUERY,
      variables,
    },
    limit: PACKAGE_PAGE_SIZE,
    query: queryString,
    sort_by: orderBy?.field.toLowerCase() ?? (variables.filter?.search ? 'relevance' : 'name'),
    sort_type: orderBy?.direction ?? 'ASC',
  }
}

/** §7: the count-only call carries no limit, query or sort. */
export function packagesCountRequest(): MdsRequest {
  return { graphQL: { query: PACKAGES_COUNT_QUERY, variables: { filter: { versionCountMin: VERSION_COUNT_MIN } } } }
}

/** What a version list asks for besides its package (§3 version filter, §5). */
export interface VersionQuery {
  filter: Omit<VersionFilter, 'packageId'>
  orderBy?: VersionOrder
}

/**
 * The search model's part that applies to a package's versions: version name (with its trailing
 * *), repositories, licences, severities (each needs a count of at least 1), dates, and the sort;
 * a name sort on versions is a semantic-version sort (§5).
 */
export function versionQueryOf(input: SearchModel): VersionQuery {
  const { filters } = normalizeModel(input)
  const filter: VersionQuery['filter'] = {}
  if (filters.version) filter.name = withWildcard(filters.version)
  if (filters.repositories?.length) filter.repos = filters.repositories
  if (filters.licenses?.length) filter.licenses = filters.licenses
  if (filters.severities?.length) filter.severities = filters.severities.map((s) => s.toLowerCase())
  if (filters.before) filter.before = filters.before
  if (filters.after) filter.after = filters.after
  const by = filters.sortBy?.toLowerCase()
  const field: VersionOrder['field'] | undefined =
    by === 'name' ? 'NAME_SEMVER' : by === 'created' ? 'CREATED' : by === 'modified' ? 'MODIFIED' : undefined
  return field ? { filter, orderBy: { field, direction: parseSortType(filters.sortType) } } : { filter }
}
