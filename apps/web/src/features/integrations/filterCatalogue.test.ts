import { PACKAGE_TYPES } from '@trove/contracts/repositoryConstants'
import { describe, expect, it } from 'vitest'
import { CATALOGUE } from './catalogue'
import type { CatalogueItem } from './catalogueTypes'
import { byRank, filterCatalogue, NO_FILTER, rankOf } from './filterCatalogue'

const item = (id: string, extra: Partial<CatalogueItem> = {}): CatalogueItem => ({
  id,
  label: id,
  icon: 'package',
  categories: [],
  vendors: [],
  documentationLink: `https://docs.test/${id}`,
  ...extra,
})

describe('catalogue ranks', () => {
  it('take 10 when absent or outside 1 to 10', () => {
    expect(rankOf(item('a'))).toBe(10)
    expect(rankOf(item('a', { rank: 0 }))).toBe(10)
    expect(rankOf(item('a', { rank: 11 }))).toBe(10)
    expect(rankOf(item('a', { rank: 2.5 }))).toBe(10)
    expect(rankOf(item('a', { rank: 1 }))).toBe(1)
  })

  it('sort ascending, keeping the given order within a rank', () => {
    const items = [
      item('ten'),
      item('three', { rank: 3 }),
      item('none'),
      item('one', { rank: 1 }),
      item('also-three', { rank: 3 }),
    ]
    expect(byRank(items).map((i) => i.id)).toEqual(['one', 'three', 'also-three', 'ten', 'none'])
  })
})

describe('catalogue filtering', () => {
  const items = [
    item('GitHub', { categories: ['sourceControl', 'security'] }),
    item('Amazon ECS', { categories: ['cloudNative'], vendors: ['aws'] }),
    item('Azure Pipelines', { categories: ['cicd'], vendors: ['azure'] }),
    item('AKS', { categories: ['cloudNative'], vendors: ['azure'] }),
  ]
  const ids = (filter: Partial<typeof NO_FILTER>) => filterCatalogue(items, { ...NO_FILTER, ...filter }).map((i) => i.id)

  it('matches the search as a case-insensitive substring of the label', () => {
    expect(ids({ search: 'AZURE' })).toEqual(['Azure Pipelines'])
    expect(ids({ search: 'az' })).toEqual(['Amazon ECS', 'Azure Pipelines'])
    expect(ids({ search: 'git' })).toEqual(['GitHub'])
    expect(ids({ search: 'zzz' })).toEqual([])
  })

  it('matches a category or vendor filter when any selected value is shared, and all three together', () => {
    expect(ids({ categories: ['security', 'cicd'] })).toEqual(['GitHub', 'Azure Pipelines'])
    expect(ids({ vendors: ['azure', 'gcp'] })).toEqual(['Azure Pipelines', 'AKS'])
    expect(ids({ categories: ['cloudNative'], vendors: ['azure'] })).toEqual(['AKS'])
    expect(ids({ categories: ['cloudNative'], vendors: ['azure'], search: 'amazon' })).toEqual([])
  })
})

describe('the catalogue', () => {
  it('holds the four git vendors, four developer tools and four CI tools of the spec, and one card per package format', () => {
    const of = (prefix: string) => CATALOGUE.filter((i) => i.id.startsWith(prefix)).map((i) => i.label)
    expect(of('git-')).toEqual(['GitHub', 'GitLab', 'Bitbucket Cloud', 'Bitbucket Server'])
    expect(of('ide-')).toHaveLength(4)
    expect(of('ci-')).toHaveLength(4)
    const packages = CATALOGUE.filter((i) => i.id.startsWith('package-'))
    expect(packages.map((i) => (i.configureAction?.type === 'action' ? i.configureAction.payload : null))).toEqual(
      PACKAGE_TYPES.map((packageType) => ({ packageType })),
    )
  })

  it('sends each git vendor to its vendor table, and has unique ids, valid ranks and https documentation', () => {
    expect(CATALOGUE.find((i) => i.id === 'git-bitbucketServer')?.configureAction).toEqual({
      type: 'redirect',
      payload: { to: '/integrations/vendor/list/bitbucketServer' },
    })
    expect(new Set(CATALOGUE.map((i) => i.id)).size).toBe(CATALOGUE.length)
    for (const i of CATALOGUE) {
      expect(i.rank === undefined || (i.rank >= 1 && i.rank <= 10), i.id).toBe(true)
      expect(i.documentationLink, i.id).toMatch(/^https:\/\//)
    }
  })
})
