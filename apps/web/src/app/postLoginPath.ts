import { Limits } from '@trove/contracts/limits'

/**
 * Shell §4.4 and §5: the page asked for before sign-in is kept in session storage for 8 hours and
 * opened after sign-in. Expired paths, admin paths for non-admins and sign-in routes are ignored
 * (then / is used); the CLI login path is the one sign-in route that is kept.
 */
export interface SavedPath {
  path: string
  savedAt: number
}

const KEY = 'trove.postLoginPath'
const LOGIN_ROUTES = /^\/(login|auth|logout)(\/|$|\?)/
const CLI_PATH = /^\/plugs\/extension\/cli(\/|$|\?)/

export function isLoginRoute(path: string): boolean {
  return LOGIN_ROUTES.test(path)
}

/** The path to open after sign-in. */
export function resolvePostLoginPath(saved: SavedPath | null, user: { admin: boolean }, now = Date.now()): string {
  const fallback = Limits.postLoginPathFallback
  if (!saved) return fallback
  if (now - saved.savedAt > Limits.postLoginPathLifetimeMs) return fallback
  if (saved.path.includes('/admin/') && !user.admin) return fallback
  if (isLoginRoute(saved.path) && !CLI_PATH.test(saved.path)) return fallback
  return saved.path
}

export function savePostLoginPath(path: string, storage: Storage = sessionStorage, now = Date.now()): void {
  if (path === '/' || isLoginRoute(path)) return
  storage.setItem(KEY, JSON.stringify({ path, savedAt: now } satisfies SavedPath))
}

/** Takes the saved path out of storage: it is used once. */
export function takePostLoginPath(storage: Storage = sessionStorage): SavedPath | null {
  const raw = storage.getItem(KEY)
  storage.removeItem(KEY)
  try {
    const value = JSON.parse(raw ?? 'null') as SavedPath | null
    return value && typeof value.path === 'string' && typeof value.savedAt === 'number' ? value : null
  } catch {
    return null
  }
}
