import { Messages } from '@trove/contracts/messages'
import { describe, expect, it } from 'vitest'
import { searchContext } from '../../test/searchContext'
import { emptyModel } from './searchModel'
import {
  availableSearchTypes,
  downgradeArchive,
  resetForType,
  type SearchContext,
  searchDisabledReason,
  searchTarget,
  searchTypeById,
  searchTypeForPath,
} from './searchTypes'

const ctx = searchContext
const ids = (c: SearchContext) => availableSearchTypes(c).map((t) => t.id)

describe('search types (packages §4)', () => {
  it('are filtered by service and licence', () => {
    expect(ids(ctx())).toEqual(['packages', 'artifacts', 'builds'])
    expect(ids(ctx({ services: new Set(['distribution']), license: 'ENTERPRISE_PLUS' }))).toContain('releaseBundles')
    expect(ids(ctx({ services: new Set(['distribution']), license: 'PRO' }))).not.toContain('releaseBundles')
    expect(ids(ctx({ services: new Set(['scanner']) }))).toContain('securityCompliance')
  })

  it('shows the security search to anonymous users only when the scanner allows it', () => {
    const xray = new Set(['scanner'])
    expect(ids(ctx({ services: xray, anonymous: true }))).not.toContain('securityCompliance')
    expect(ids(ctx({ services: xray, anonymous: true, scannerAnonymous: true }))).toContain('securityCompliance')
  })

  it('disables the search on empty text', () => {
    const packages = searchTypeById('packages')
    expect(searchDisabledReason(packages, emptyModel(), ctx())).toBe(Messages.searchDisabledEmpty)
    expect(searchDisabledReason(packages, emptyModel('lodash'), ctx())).toBeNull()
    expect(searchDisabledReason(packages, { name: '', filters: { packageTypes: ['npm'] } }, ctx())).toBeNull()
  })

  it('a type-specific rule replaces it and needs an administrator, a project administrator or the tour', () => {
    const security = searchTypeById('securityCompliance')
    expect(searchDisabledReason(security, emptyModel(), ctx())).toBe(Messages.searchTypeNeedsRole)
    expect(searchDisabledReason(security, emptyModel('x'), ctx())).toBe(Messages.searchTypeNeedsRole)
    for (const role of [{ admin: true }, { projectAdmin: true }, { tour: true }])
      expect(searchDisabledReason(security, emptyModel(), ctx(role))).toBeNull()
  })

  it('disables (not hides) types without context support in a project', () => {
    const c = ctx({ projectKey: 'p1' })
    expect(ids(c)).toContain('builds')
    expect(searchDisabledReason(searchTypeById('builds'), emptyModel('x'), c)).toBe(Messages.searchTypeNoContext)
    expect(searchDisabledReason(searchTypeById('packages'), emptyModel('x'), c)).toBeNull()
  })

  it('downgrades an Archive search to Quick without archive search', () => {
    const model = { name: 'a', filters: { artifactsSearchType: 'Archive' } }
    expect(downgradeArchive(model, ctx()).filters.artifactsSearchType).toBe('Quick')
    expect(downgradeArchive(model, ctx({ features: { archiveSearch: true } })).filters.artifactsSearchType).toBe('Archive')
  })

  it('resets the model but keeps the name when the type changes', () => {
    expect(resetForType({ name: 'a', filters: { tags: ['x'] } })).toEqual({ name: 'a', filters: {} })
  })

  it('routes results by path, else result route name, else route name; security from admin goes to /', () => {
    expect(searchTarget(searchTypeById('packages'), '/packages')).toEqual({ path: '/packages' })
    expect(searchTarget(searchTypeById('artifacts'), '/packages')).toEqual({ path: '/artifacts/browse/tree/General' })
    expect(searchTarget(searchTypeById('securityCompliance'), '/admin/x')).toEqual({ path: '/' })
    expect(searchTarget(searchTypeById('securityCompliance'), '/packages')).toEqual({ routeName: 'security-compliance' })
  })

  it('follows the route; a bundles path switches to release bundles', () => {
    expect(searchTypeForPath('/bundles/x')).toBe('releaseBundles')
    expect(searchTypeForPath('/packages/npm%3A%2F%2Fa')).toBe('packages')
  })
})
