import { RECENT_SEARCH_LIMIT } from '@trove/contracts/searchConstants'
import { describe, expect, it } from 'vitest'
import {
  addRecentSearch,
  loadRecentSearches,
  memoryKeyStore,
  type RecentSearch,
  rememberSearch,
  STORAGE_KEY,
} from './recentSearches'

const search = (queryString: string, context: string | null = null): Omit<RecentSearch, 'id'> => ({
  type: 'packages',
  queryString,
  searchModel: { name: queryString, filters: {} },
  context,
})

describe('recent searches (packages §3, §4)', () => {
  it('are kept per user, or under anonymous, newest first', () => {
    let all = addRecentSearch({}, 'alice', search('a'))
    all = addRecentSearch(all, 'alice', search('b'))
    all = addRecentSearch(all, undefined, search('c'))
    expect(all.alice?.map((s) => s.queryString)).toEqual(['b', 'a'])
    expect(all.anonymous?.map((s) => s.queryString)).toEqual(['c'])
    expect(all.alice?.[0]?.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('move a repeated search to the front, keeping its id', () => {
    let all = addRecentSearch({}, 'alice', search('a'))
    const id = all.alice?.[0]?.id
    all = addRecentSearch(all, 'alice', search('b'))
    all = addRecentSearch(all, 'alice', search('a'))
    expect(all.alice?.map((s) => s.queryString)).toEqual(['a', 'b'])
    expect(all.alice?.[0]?.id).toBe(id)
    // The same text in another project is another search.
    all = addRecentSearch(all, 'alice', search('a', 'p1'))
    expect(all.alice).toHaveLength(3)
  })

  it('are capped', () => {
    let all = {}
    for (let i = 0; i < RECENT_SEARCH_LIMIT + 5; i++) all = addRecentSearch(all, 'bob', search(`q${i}`))
    expect((all as Record<string, unknown[]>).bob).toHaveLength(RECENT_SEARCH_LIMIT)
  })

  it('are stored encrypted (AES-GCM) and read back', async () => {
    const keys = memoryKeyStore()
    await rememberSearch('alice', search('secret-package-name'), localStorage, keys)
    const list = await rememberSearch('alice', search('other'), localStorage, keys)
    expect(list.map((s) => s.queryString)).toEqual(['other', 'secret-package-name'])
    const stored = localStorage.getItem(STORAGE_KEY) ?? ''
    expect(stored).not.toContain('secret-package-name')
    expect(stored).not.toContain('alice')
    expect((await loadRecentSearches(localStorage, keys)).alice).toHaveLength(2)
    // Another key (or tampering) reads as nothing, not as an error.
    expect(await loadRecentSearches(localStorage, memoryKeyStore())).toEqual({})
  })
})
