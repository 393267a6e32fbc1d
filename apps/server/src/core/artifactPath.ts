import { RepoPath } from '@trove/contracts/artifacts'
import { HttpError } from './errors.js'

/**
 * The one grammar of a path inside a repository, for every format and every way in (client
 * protocols, the console, the REST API) and for the store itself: no backslash, no control
 * character, no `.` or `..` segment; empty segments and outer slashes dropped (`a//b/` is
 * `a/b`). A path is made canonical before anything is decided on it, and the store takes only
 * canonical paths, so one file has one name (`a\..\x` and `a//b` are refused or the same file).
 */
export function canonicalPath(decoded: string): string {
  const parsed = RepoPath.safeParse(decoded)
  if (!parsed.success) throw new HttpError(400, `path: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  return parsed.data
}

/** True when a path is already in the one form the store keeps. */
export function isCanonicalPath(path: string): boolean {
  const parsed = RepoPath.safeParse(path)
  return parsed.success && parsed.data === path && path !== ''
}
