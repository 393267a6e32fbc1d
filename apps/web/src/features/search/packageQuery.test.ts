import { PACKAGES_COUNT_QUERY, PACKAGES_QUERY } from '@trove/contracts/packages'
import { describe, expect, it } from 'vitest'
import { canonicalPackageType, packageFilterOf, packagesCountRequest, packagesRequestOf, versionQueryOf } from './packageQuery'
import { parseSearchQuery } from './searchModel'

describe('package search query building (packages §5)', () => {
  it('sends typed text as a search for any part of a name; a name with a wildcard as the lowercased glob', () => {
    expect(packageFilterOf(parseSearchQuery('hello'))).toEqual({ search: 'hello', versionCountMin: 1 })
    expect(packageFilterOf(parseSearchQuery('LoDash')).lowercase_name).toBeUndefined()
    expect(packageFilterOf(parseSearchQuery('Lo*Dash')).lowercase_name).toBe('lo*dash*')
    expect(packageFilterOf(parseSearchQuery('lo?dash')).lowercase_name).toBe('lo?dash*')
  })

  it('lists the most recently updated first when there is no name (on arrival, or by type and repository)', () => {
    const arrival = packagesRequestOf(parseSearchQuery(''), '')
    expect(arrival.graphQL.variables).toMatchObject({ orderBy: { field: 'MODIFIED', direction: 'DESC' } })
    expect(arrival.graphQL.variables?.filter).toEqual({ versionCountMin: 1 })
    const filtered = packagesRequestOf(parseSearchQuery('pkg:npm repo:npm-local'), 'pkg:npm repo:npm-local')
    expect(filtered.graphQL.variables).toMatchObject({
      filter: { package_type: 'npm', repositories: ['npm-local'] },
      orderBy: { field: 'MODIFIED', direction: 'DESC' },
    })
    const searched = packagesRequestOf(parseSearchQuery('hello'), 'hello')
    expect(searched.graphQL.variables?.orderBy).toBeUndefined()
    expect(searched.sort_by).toBe('relevance')
  })

  it('wraps the description in wildcards', () => {
    expect(packageFilterOf(parseSearchQuery('description:"tiny lib"')).description).toBe('*tiny lib*')
  })

  it("sends the type All as '*'", () => {
    expect(packageFilterOf(parseSearchQuery('pkg:All')).package_type).toBe('*')
    expect(packageFilterOf(parseSearchQuery('pkg:npm')).package_type).toBe('npm')
    expect(packageFilterOf(parseSearchQuery('pkg:npm,gav')).packageTypeIn).toEqual(['npm', 'maven'])
  })

  it('sends repositories only when non-empty, and asks for at least one version', () => {
    expect(packageFilterOf(parseSearchQuery('a'))).toEqual({ search: 'a', versionCountMin: 1 })
    expect(packageFilterOf(parseSearchQuery('a repo:npm-local')).repositories).toEqual(['npm-local'])
  })

  it('follows the type aliases', () => {
    expect(canonicalPackageType('golang')).toBe('go')
    expect(canonicalPackageType('deb')).toBe('debian')
    expect(canonicalPackageType('rubygems')).toBe('gems')
    expect(canonicalPackageType('hfdataset')).toBe('huggingfacemldataset')
  })

  it('builds the list body with limit, query and sort; the count body without them', () => {
    const body = packagesRequestOf(parseSearchQuery('a sort_by:downloads sort_type:descending'), 'a sort_by:downloads')
    expect(body.graphQL.query).toBe(PACKAGES_QUERY)
    expect(body.graphQL.variables).toMatchObject({ first: 100, orderBy: { field: 'DOWNLOADS', direction: 'DESC' } })
    expect(body).toMatchObject({ limit: 100, query: 'a sort_by:downloads', sort_by: 'downloads', sort_type: 'DESC' })
    const count = packagesCountRequest()
    expect(count.graphQL.query).toBe(PACKAGES_COUNT_QUERY)
    expect(Object.keys(count)).toEqual(['graphQL'])
  })

  it('asks for licences and operational risk only when the caller allows them (§3)', () => {
    expect(packagesRequestOf(parseSearchQuery('a'), 'a').graphQL.query).not.toContain('licenses')
    const withLicences = packagesRequestOf(parseSearchQuery('a'), 'a', 'licenses { name source }').graphQL.query
    expect(withLicences).toContain('licenses { name source }')
  })

  it('orders versions by semantic version on a name sort; severities need a count of 1', () => {
    expect(versionQueryOf(parseSearchQuery('x sort_by:name sort_type:desc')).orderBy).toEqual({
      field: 'NAME_SEMVER',
      direction: 'DESC',
    })
    expect(versionQueryOf(parseSearchQuery('version:1.2 severities:High')).filter).toEqual({
      name: '1.2*',
      severities: ['high'],
    })
  })
})
