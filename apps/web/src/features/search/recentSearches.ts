import { ANONYMOUS_RECENT_SEARCH_USER, RECENT_SEARCH_LIMIT } from '@trove/contracts/searchConstants'
import type { SearchModel } from './searchModel'
import type { SearchTypeId } from './searchTypes'

/** A recent search (packages §3): its type, query string, model, context and a random id. */
export interface RecentSearch {
  id: string
  type: SearchTypeId
  queryString: string
  searchModel: SearchModel
  /** The project the search ran in; null: all projects. */
  context: string | null
}

/** Recent searches per user name ('anonymous' when nobody is signed in), newest first. */
export type RecentSearches = Record<string, RecentSearch[]>

export const userKey = (username: string | null | undefined) => username || ANONYMOUS_RECENT_SEARCH_USER

const sameSearch = (a: RecentSearch, b: Omit<RecentSearch, 'id'>) =>
  a.type === b.type && a.queryString === b.queryString && a.context === b.context

/** §4: the new search goes first; a repeated one is moved to the front; the list is capped. */
export function addRecentSearch(
  all: RecentSearches,
  username: string | null | undefined,
  search: Omit<RecentSearch, 'id'>,
): RecentSearches {
  const key = userKey(username)
  const list = all[key] ?? []
  const existing = list.find((s) => sameSearch(s, search))
  const entry: RecentSearch = existing ? { ...existing, searchModel: search.searchModel } : { ...search, id: crypto.randomUUID() }
  return { ...all, [key]: [entry, ...list.filter((s) => s !== existing)].slice(0, RECENT_SEARCH_LIMIT) }
}

// ---------------------------------------------------------------------------------------------
// Secure local storage: the list is encrypted with AES-GCM under a key that cannot be exported,
// kept in IndexedDB, so what lies in localStorage is unreadable on its own.

export const STORAGE_KEY = 'trove.recentSearches'
const DB_NAME = 'trove-keys'
const KEY_ID = 'recentSearches'

export interface KeyStore {
  load(): Promise<CryptoKey | undefined>
  save(key: CryptoKey): Promise<void>
}

function idb<T>(run: (store: IDBObjectStore) => IDBRequest<T>, mode: IDBTransactionMode): Promise<T> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1)
    open.onupgradeneeded = () => open.result.createObjectStore('keys')
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const tx = open.result.transaction('keys', mode)
      const request = run(tx.objectStore('keys'))
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
      tx.oncomplete = () => open.result.close()
    }
  })
}

export const indexedDbKeyStore: KeyStore = {
  load: () => idb<CryptoKey | undefined>((s) => s.get(KEY_ID), 'readonly'),
  save: (key) => idb((s) => s.put(key, KEY_ID), 'readwrite').then(() => undefined),
}

/** A key kept in memory only (where IndexedDB is missing, e.g. some private windows): lost on reload. */
export function memoryKeyStore(): KeyStore {
  let kept: CryptoKey | undefined
  return {
    load: async () => kept,
    save: async (key) => {
      kept = key
    },
  }
}

async function storageKey(keys: KeyStore): Promise<CryptoKey> {
  const existing = await keys.load()
  if (existing) return existing
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
  await keys.save(key)
  return key
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

export async function encrypt(value: unknown, keys: KeyStore): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = new TextEncoder().encode(JSON.stringify(value))
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await storageKey(keys), data))
  return `${toBase64(iv)}.${toBase64(sealed)}`
}

export async function decrypt<T>(text: string, keys: KeyStore): Promise<T> {
  const [iv, sealed] = text.split('.')
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(iv ?? '') },
    await storageKey(keys),
    fromBase64(sealed ?? ''),
  )
  return JSON.parse(new TextDecoder().decode(plain)) as T
}

function defaultKeys(): KeyStore {
  return typeof indexedDB === 'undefined' ? fallbackKeys : indexedDbKeyStore
}
const fallbackKeys = memoryKeyStore()

/** Loads every user's recent searches; anything unreadable (another key, tampering) counts as none. */
export async function loadRecentSearches(
  storage: Storage = localStorage,
  keys: KeyStore = defaultKeys(),
): Promise<RecentSearches> {
  const text = storage.getItem(STORAGE_KEY)
  if (!text) return {}
  try {
    return await decrypt<RecentSearches>(text, keys)
  } catch {
    return {}
  }
}

export async function saveRecentSearches(
  all: RecentSearches,
  storage: Storage = localStorage,
  keys: KeyStore = defaultKeys(),
): Promise<void> {
  storage.setItem(STORAGE_KEY, await encrypt(all, keys))
}

/** Runs a search's bookkeeping (§4): store it first, then the caller navigates. */
export async function rememberSearch(
  username: string | null | undefined,
  search: Omit<RecentSearch, 'id'>,
  storage: Storage = localStorage,
  keys: KeyStore = defaultKeys(),
): Promise<RecentSearch[]> {
  const next = addRecentSearch(await loadRecentSearches(storage, keys), username, search)
  await saveRecentSearches(next, storage, keys)
  return next[userKey(username)] ?? []
}
