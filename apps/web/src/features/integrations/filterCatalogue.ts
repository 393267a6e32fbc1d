import { Limits } from '@trove/contracts/limits'
import type { CloudVendor, IntegrationCategory } from '@trove/contracts/messages'
import type { CatalogueItem } from './catalogueTypes'

export interface CatalogueFilter {
  search: string
  categories: readonly IntegrationCategory[]
  vendors: readonly CloudVendor[]
}

export const NO_FILTER: CatalogueFilter = { search: '', categories: [], vendors: [] }

/** An item's rank, 1 to 10; absent or outside that range, the default (packages §9). */
export function rankOf(item: CatalogueItem): number {
  const { rank } = item
  return rank !== undefined && Number.isInteger(rank) && rank >= Limits.integrationRankMin && rank <= Limits.integrationRankMax
    ? rank
    : Limits.integrationDefaultRank
}

/** Ascending rank; items of one rank keep the data module's order. */
export const byRank = (items: readonly CatalogueItem[]): CatalogueItem[] =>
  items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rankOf(a.item) - rankOf(b.item) || a.index - b.index)
    .map(({ item }) => item)

const sharesAny = <T>(selected: readonly T[], values: readonly T[]) =>
  selected.length === 0 || selected.some((v) => values.includes(v))

/**
 * Packages §5: a category or vendor filter matches when the item shares any selected value (none
 * selected matches all), the search is a case-insensitive substring of the label; all three hold.
 */
export function filterCatalogue(items: readonly CatalogueItem[], filter: CatalogueFilter): CatalogueItem[] {
  const needle = filter.search.toLowerCase()
  return byRank(
    items.filter(
      (item) =>
        sharesAny(filter.categories, item.categories) &&
        sharesAny(filter.vendors, item.vendors) &&
        item.label.toLowerCase().includes(needle),
    ),
  )
}

/** The categories and vendors the items carry, in the given order (the side panel lists these). */
export function usedValues<T extends string>(
  all: readonly T[],
  items: readonly CatalogueItem[],
  of: (i: CatalogueItem) => readonly string[],
): T[] {
  const used = new Set(items.flatMap(of))
  return all.filter((v) => used.has(v))
}
