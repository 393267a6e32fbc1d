import { SEARCH_QUERY_KEYS } from '@trove/contracts/searchConstants'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildSearchQuery,
  formatDate,
  isEmptyModel,
  normalizeModel,
  parseSearchQuery,
  parseSortType,
  type SearchModel,
  withWildcard,
} from './searchModel'

describe('the query string (packages §3, §5)', () => {
  it('reads known keys and leaves other text as the name', () => {
    expect(parseSearchQuery('lodash pkg:npm,maven repo:npm-local')).toEqual({
      name: 'lodash',
      filters: { packageTypes: ['npm', 'maven'], repositories: ['npm-local'] },
    })
    expect(parseSearchQuery('colour:red lodash').name).toBe('colour:red lodash')
  })

  it('uses the exact keys of the table', () => {
    const model: SearchModel = {
      name: 'x',
      filters: {
        archiveSearchType: 'Class',
        artifactsSearchType: 'Quick',
        packageType: 'npm',
        packageSpecificQuery: 'q',
        propertySets: 'ps',
      },
    }
    expect(buildSearchQuery(model)).toBe('x archive:Class propertySets:ps searchType:Quick pkgType:npm packageQuery:q')
    expect(SEARCH_QUERY_KEYS.packageTypes).toBe('pkg')
    expect(SEARCH_QUERY_KEYS.repositories).toBe('repo')
  })

  it('supports quoted values with spaces, and quotes a value with spaces', () => {
    expect(parseSearchQuery('description:"a tiny lib" name:"my pkg"')).toEqual({
      name: 'my pkg',
      filters: { description: 'a tiny lib' },
    })
    expect(buildSearchQuery({ name: 'my pkg', filters: { description: 'a tiny lib' } })).toBe('"my pkg" description:"a tiny lib"')
  })

  it('ignores empty filter values', () => {
    expect(parseSearchQuery('pkg: repo:"" name:')).toEqual({ name: '', filters: {} })
    expect(buildSearchQuery({ name: '', filters: { description: '', packageTypes: [] } })).toBe('')
  })

  it('appends a trailing * to a name filter when absent', () => {
    expect(withWildcard('lod')).toBe('lod*')
    expect(withWildcard('lod*')).toBe('lod*')
  })

  it('reads every spelling of the sort direction, ASC by default', () => {
    for (const s of ['asc', 'ASC', 'ascend', 'Ascending', 'nonsense', undefined]) expect(parseSortType(s)).toBe('ASC')
    for (const s of ['desc', 'DESC', 'descend', 'Descending', 'DESCEND']) expect(parseSortType(s)).toBe('DESC')
    expect(parseSearchQuery('sort_by:name sort_type:descend').filters).toEqual({ sortBy: 'name', sortType: 'DESC' })
  })

  it('writes dates as YYYY-MM-DD and drops bad ones', () => {
    expect(parseSearchQuery('after:2024-02-29 before:2024-13-45').filters).toEqual({ after: '2024-02-29' })
    expect(formatDate(new Date(Date.UTC(2025, 0, 5, 22)))).toBe('2025-01-05')
  })

  it('knows an empty model', () => {
    expect(isEmptyModel({ name: ' ', filters: { tags: [''] } })).toBe(true)
    expect(isEmptyModel({ name: '', filters: { tags: ['a'] } })).toBe(false)
  })
})

// Property: any model → query string → the same model (after dropping empty values).
const text = fc.string({
  minLength: 0,
  maxLength: 12,
  unit: fc.constantFrom('a', 'Z', '9', ' ', '"', '\\', ':', '-', '.', '*', 'é', '\t'),
})
const item = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', 'b', '-', '.', ' ', '"', ':', '_') })
const list = fc.option(fc.array(item, { maxLength: 3 }), { nil: undefined })
const date = fc.option(
  fc
    .date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  { nil: undefined },
)
const opt = fc.option(text, { nil: undefined })
const flag = fc.option(fc.boolean(), { nil: undefined })
const modelArb: fc.Arbitrary<SearchModel> = fc.record({
  name: text,
  filters: fc.record({
    packageTypes: list,
    repositories: list,
    licenses: list,
    severities: list,
    tags: list,
    description: opt,
    checksum: opt,
    cve: opt,
    properties: opt,
    before: date,
    after: date,
    archiveSearchType: opt,
    propertySets: opt,
    artifactsSearchType: opt,
    isChecksum: flag,
    path: opt,
    excludeInnerClasses: flag,
    searchClassOnly: flag,
    packageType: opt,
    packageSpecificQuery: opt,
    version: opt,
    scope: opt,
    branch: opt,
    sortBy: opt,
    sortType: fc.option(fc.constantFrom('ASC' as const, 'DESC' as const), { nil: undefined }),
  }),
})

describe('round trip', () => {
  it('model → query string → model keeps every filter', () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        const expected = normalizeModel(model)
        expect(parseSearchQuery(buildSearchQuery(model))).toEqual(expected)
      }),
      { numRuns: 2000 },
    )
  })

  it('query string → model → query string is stable', () => {
    fc.assert(
      fc.property(modelArb, (model) => {
        const once = buildSearchQuery(model)
        expect(buildSearchQuery(parseSearchQuery(once))).toBe(once)
      }),
    )
  })
})
