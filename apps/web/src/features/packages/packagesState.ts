import type { QueryClient } from '@tanstack/react-query'
import type { MdsRequest, PackageNode, VersionNode } from '@trove/contracts/packages'
import { useSyncExternalStore } from 'react'
import { fetchPackagesCount, packageQuery, packagesQuery, versionQuery } from './api/packagesApi'

/** The package browser's state (packages §3 "Package browser state"). */
export interface PackagesState {
  pageLoading: boolean
  packageInfoFetching: boolean
  versionFetching: boolean
  packagesFetched: boolean
  packagesSearched: boolean
  /** -1: not computed yet. */
  packageCount: number
  /** The initialisation under way (its request), or null: the init guard. */
  initializing: string | null
}

export const INITIAL_PACKAGES_STATE: PackagesState = {
  pageLoading: false,
  packageInfoFetching: false,
  versionFetching: false,
  packagesFetched: false,
  packagesSearched: false,
  packageCount: -1,
  initializing: null,
}

let state: PackagesState = INITIAL_PACKAGES_STATE
const listeners = new Set<() => void>()
function set(patch: Partial<PackagesState>) {
  state = { ...state, ...patch }
  for (const listener of listeners) listener()
}

export const packagesState = () => state
export function usePackagesState(): PackagesState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => state,
  )
}

/** §4: the state is cleared on logout. */
export function resetPackagesState(): void {
  set(INITIAL_PACKAGES_STATE)
}

/**
 * The list level's initialisation (§4): with a packages search (search enabled) the list is fetched
 * with the search model; otherwise a non-administrator whose count is unknown gets a count-only
 * fetch. The init guard: the same initialisation never runs twice at once (a newer search does run).
 */
export async function initPackageList(
  queryClient: QueryClient,
  input: { admin: boolean; request: MdsRequest | null; countRequest: MdsRequest },
): Promise<void> {
  const key = JSON.stringify(input.request ?? 'count')
  if (state.initializing === key) return
  set({ initializing: key })
  try {
    if (input.request) {
      set({ pageLoading: true })
      await queryClient.fetchInfiniteQuery(packagesQuery(input.request))
      if (state.initializing === key) set({ packagesFetched: true, packagesSearched: true })
    } else if (!input.admin && state.packageCount === -1) {
      const count = await fetchPackagesCount(input.countRequest)
      if (count !== null) set({ packageCount: count })
    }
  } finally {
    if (state.initializing === key) set({ initializing: null, pageLoading: false })
  }
}

/** Fetching a package sets its loading flag (§4); null when there is no such package or the fetch failed. */
export async function loadPackage(queryClient: QueryClient, pkgid: string, fields = ''): Promise<PackageNode | null> {
  set({ packageInfoFetching: true })
  try {
    return await queryClient.fetchQuery(packageQuery(pkgid, fields))
  } catch {
    return null
  } finally {
    set({ packageInfoFetching: false })
  }
}

/** Fetching a version sets its loading flag (§4). */
export async function loadVersion(queryClient: QueryClient, packageId: string, name: string): Promise<VersionNode | null> {
  set({ versionFetching: true })
  try {
    return await queryClient.fetchQuery(versionQuery(packageId, name))
  } catch {
    return null
  } finally {
    set({ versionFetching: false })
  }
}
