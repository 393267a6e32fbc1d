import { Messages } from '@trove/contracts/messages'
import { ARTIFACTS_BROWSE_PATH, ARTIFACTS_DEFAULT_TREE } from '@trove/contracts/searchConstants'
import type { SearchModel } from './searchModel'
import { isEmptyModel } from './searchModel'

export type SearchTypeId = 'packages' | 'artifacts' | 'builds' | 'releaseBundles' | 'securityCompliance'

/** What the search rules read about the user and the instance (packages §4, §6). */
export interface SearchContext {
  admin: boolean
  projectAdmin: boolean
  tour: boolean
  anonymous: boolean
  services: ReadonlySet<string>
  license: string
  features: Partial<Record<string, boolean>>
  /** The project the console is in; null: all projects. */
  projectKey: string | null
  /** The scanner lets anonymous users search it. */
  scannerAnonymous: boolean
}

export interface SearchTypeDef {
  id: SearchTypeId
  label: string
  placeholder: string
  /** Where results go (§2): the type's own path, else its result route name, else its route name. */
  path?: string
  resultRouteName?: string
  routeName: string
  requiredService?: string
  licenses?: readonly string[]
  featureFlag?: string
  /** Usable in a specific-project context. */
  supportsContext: boolean
  /** A type-specific rule replacing "disabled on empty text"; it needs one of these roles (§4, §6). */
  restricted?: boolean
  /** Shown to anonymous users only when the scanner allows anonymous access (§6). */
  scannerAnonymousOnly?: boolean
}

const ENTERPRISE_PLUS = ['ENTERPRISE_PLUS', 'TRIAL']

export const SEARCH_TYPES: readonly SearchTypeDef[] = [
  {
    id: 'packages',
    label: 'Packages',
    placeholder: 'Search packages',
    path: '/packages',
    routeName: 'packages',
    supportsContext: true,
  },
  {
    id: 'artifacts',
    label: 'Artifacts',
    placeholder: 'Search artifacts',
    path: `${ARTIFACTS_BROWSE_PATH}${ARTIFACTS_DEFAULT_TREE}`,
    resultRouteName: 'artifacts.search',
    routeName: 'artifacts',
    supportsContext: true,
  },
  { id: 'builds', label: 'Builds', placeholder: 'Search builds', path: '/builds', routeName: 'builds', supportsContext: false },
  {
    id: 'releaseBundles',
    label: 'Release Bundles',
    placeholder: 'Search release bundles',
    path: '/release-bundles',
    routeName: 'release-bundles',
    requiredService: 'distribution',
    licenses: ENTERPRISE_PLUS,
    supportsContext: false,
  },
  {
    id: 'securityCompliance',
    label: 'Security',
    placeholder: 'Search vulnerabilities and licences',
    resultRouteName: 'security-compliance',
    routeName: 'xray',
    requiredService: 'scanner',
    supportsContext: false,
    restricted: true,
    scannerAnonymousOnly: true,
  },
]

export const searchTypeById = (id: SearchTypeId): SearchTypeDef =>
  SEARCH_TYPES.find((t) => t.id === id) ?? (SEARCH_TYPES[0] as SearchTypeDef)

/** §4: types are filtered by required service, licence type and feature flags (and the scanner's anonymous permission). */
export function availableSearchTypes(ctx: SearchContext): SearchTypeDef[] {
  return SEARCH_TYPES.filter(
    (t) =>
      (!t.requiredService || ctx.services.has(t.requiredService)) &&
      (!t.licenses || t.licenses.includes(ctx.license)) &&
      (!t.featureFlag || ctx.features[t.featureFlag] === true) &&
      (!t.scannerAnonymousOnly || !ctx.anonymous || ctx.scannerAnonymous),
  )
}

/**
 * The selector's options: the available types, and the type of the screen the user is on even
 * when the rules leave it out (a release-bundle page without the distribution service), so the
 * selector never shows blank.
 */
export function searchTypeOptions(ctx: SearchContext, routeType: SearchTypeId): SearchTypeDef[] {
  const types = availableSearchTypes(ctx)
  if (types.some((t) => t.id === routeType)) return types
  const order = SEARCH_TYPES.map((t) => t.id)
  return [...types, searchTypeById(routeType)].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
}

/** §4: in a specific-project context a type without context support is disabled (not hidden); the reason, or null. */
export function typeDisabledReason(type: SearchTypeDef, ctx: SearchContext): string | null {
  if (ctx.projectKey && !type.supportsContext) return Messages.searchTypeNoContext
  return null
}

/** §4, §6: who may use a restricted type's own rule. */
export const mayUseRestricted = (ctx: SearchContext) => ctx.admin || ctx.projectAdmin || ctx.tour

/**
 * §4: the search is disabled when the query text is empty; a type-specific rule replaces this and
 * needs an administrator, a project administrator or the tour environment. Returns the reason, or null.
 */
export function searchDisabledReason(type: SearchTypeDef, model: SearchModel, ctx: SearchContext): string | null {
  const context = typeDisabledReason(type, ctx)
  if (context) return context
  if (type.restricted) return mayUseRestricted(ctx) ? null : Messages.searchTypeNeedsRole
  return isEmptyModel(model) ? Messages.searchDisabledEmpty : null
}

/** §4: an Archive artifacts search becomes Quick when archive search is not enabled. */
export function downgradeArchive(model: SearchModel, ctx: SearchContext): SearchModel {
  if (model.filters.artifactsSearchType !== 'Archive' || ctx.features.archiveSearch === true) return model
  return { ...model, filters: { ...model.filters, artifactsSearchType: 'Quick' } }
}

/** §4: changing the type resets the model but keeps the name. */
export const resetForType = (model: SearchModel): SearchModel => ({ name: model.name, filters: {} })

/**
 * §2: where a search goes. The security-compliance type goes to the root path when started from an
 * admin screen. Route names are turned into paths by the caller (the router knows them).
 */
export function searchTarget(type: SearchTypeDef, fromPath: string): { path: string } | { routeName: string } {
  if (type.id === 'securityCompliance' && fromPath.startsWith('/admin')) return { path: '/' }
  if (type.path) return { path: type.path }
  return { routeName: type.resultRouteName ?? type.routeName }
}

/** §2: the search type a path belongs to; a bundles path switches to release bundles. */
export function searchTypeForPath(path: string): SearchTypeId {
  if (path.startsWith('/release-bundles') || path.startsWith('/bundles')) return 'releaseBundles'
  if (path.startsWith('/artifacts') || path.startsWith('/repos')) return 'artifacts'
  if (path.startsWith('/builds')) return 'builds'
  if (path.startsWith('/security-compliance')) return 'securityCompliance'
  return 'packages'
}
