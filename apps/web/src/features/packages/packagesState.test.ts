import { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { json, stubFetch } from '../../test/fetchStub'
import {
  INITIAL_PACKAGES_STATE,
  initPackageList,
  loadPackage,
  loadVersion,
  packagesState,
  resetPackagesState,
} from './packagesState'

const MDS = '/ui/api/v1/mds/packages'
const count = { graphQL: { query: 'count' } }
const search = { graphQL: { query: 'list', variables: { filter: { lowercase_name: 'a*' } } } }
let client: QueryClient

beforeEach(() => {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  resetPackagesState()
})
afterEach(() => vi.unstubAllGlobals())

describe('package browser state (packages §3, §4, §8)', () => {
  it('starts with the count not computed (-1) and no flags', () => {
    expect(packagesState()).toEqual(INITIAL_PACKAGES_STATE)
    expect(packagesState().packageCount).toBe(-1)
  })

  it('runs a count-only fetch for a non-administrator without a search, once', async () => {
    const fetch = stubFetch({ [MDS]: () => json(200, { data: { packages: { totalCount: 42 } } }) })
    await initPackageList(client, { admin: false, request: null, countRequest: count })
    expect(packagesState().packageCount).toBe(42)
    await initPackageList(client, { admin: false, request: null, countRequest: count })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('does not count for an administrator', async () => {
    const fetch = stubFetch({})
    await initPackageList(client, { admin: true, request: null, countRequest: count })
    expect(fetch).not.toHaveBeenCalled()
    expect(packagesState().packageCount).toBe(-1)
  })

  it('fetches the list with the search, setting the loading and searched flags', async () => {
    let seen: boolean | undefined
    stubFetch({
      [MDS]: () => {
        seen = packagesState().pageLoading
        return json(200, { data: { packages: { edges: [{ node: { id: 'npm://a' } }], pageInfo: { hasNextPage: false } } } })
      },
    })
    await initPackageList(client, { admin: true, request: search, countRequest: count })
    expect(seen).toBe(true)
    expect(packagesState()).toMatchObject({
      pageLoading: false,
      packagesFetched: true,
      packagesSearched: true,
      initializing: null,
    })
  })

  it('the init guard keeps the same initialisation from running twice at once', async () => {
    const fetch = stubFetch({ [MDS]: () => json(200, { data: { packages: { edges: [], pageInfo: {} } } }) })
    await Promise.all([
      initPackageList(client, { admin: true, request: search, countRequest: count }),
      initPackageList(client, { admin: true, request: search, countRequest: count }),
    ])
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('turns a failed list fetch into an empty list, silently', async () => {
    stubFetch({ [MDS]: () => json(500, { errors: [{ status: 500, message: 'boom' }] }) })
    await initPackageList(client, { admin: true, request: search, countRequest: count })
    const data = client.getQueryData<{ pages: { edges: unknown[] }[] }>(['packages', 'list', search])
    expect(data?.pages[0]?.edges).toEqual([])
  })

  it('gives null (→ the 404 route) when the package fetch fails, and sets its flag while fetching', async () => {
    let flag: boolean | undefined
    stubFetch({
      '/ui/api/v1/mds/package': () => {
        flag = packagesState().packageInfoFetching
        return json(500, { errors: [{ status: 500, message: 'x' }] })
      },
      '/ui/api/v1/mds/versions': () => {
        flag = packagesState().versionFetching
        return json(200, { data: { versions: { edges: [] } } })
      },
    })
    expect(await loadPackage(client, 'npm://nope')).toBeNull()
    expect(flag).toBe(true)
    expect(packagesState().packageInfoFetching).toBe(false)
    flag = undefined
    expect(await loadVersion(client, 'npm://a', '1.0.0')).toBeNull()
    expect(flag).toBe(true)
  })

  it('is cleared on logout', async () => {
    stubFetch({ [MDS]: () => json(200, { data: { packages: { totalCount: 3 } } }) })
    await initPackageList(client, { admin: false, request: null, countRequest: count })
    resetPackagesState()
    expect(packagesState()).toEqual(INITIAL_PACKAGES_STATE)
  })
})
