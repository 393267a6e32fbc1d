import path from 'node:path'
import { isManifestPath } from '../lockfiles/index.js'

/** What a file in a layer is to the scanner. */
export type Interest = 'os-release' | 'dpkg' | 'apk' | 'manifest' | 'jar' | 'executable'

export const OS_RELEASE_PATHS = ['etc/os-release', 'usr/lib/os-release'] as const
const DPKG_STATUS = 'var/lib/dpkg/status'
const DPKG_STATUS_DIR = 'var/lib/dpkg/status.d'
const APK_INSTALLED = 'lib/apk/db/installed'
/** Executables this large are not read for Go build information (no real Go binary comes near it). */
export const MAX_EXECUTABLE_BYTES = 200 * 1024 * 1024

/**
 * A tar entry's name as a path from the image's root: no leading "./" or "/", no trailing "/",
 * "." segments folded. Null for the root itself and for names that climb out of it.
 */
export function normalizeEntryPath(name: string): string | null {
  const normal = path.posix.normalize(name.replace(/^\/+/, '')).replace(/\/+$/, '')
  if (normal === '' || normal === '.' || normal === '..' || normal.startsWith('../')) return null
  return normal
}

/**
 * Why a regular file is worth reading, or null. Executables of any name are read for Go build
 * information: Go images put their binary anywhere (/app, /ko-app, the root), and looking for the
 * magic costs one byte search over data that is being decompressed anyway.
 */
export function interestOf(filePath: string, mode: number, size: number): Interest | null {
  if ((OS_RELEASE_PATHS as readonly string[]).includes(filePath)) return 'os-release'
  if (filePath === DPKG_STATUS) return 'dpkg'
  if (path.posix.dirname(filePath) === DPKG_STATUS_DIR && !filePath.endsWith('.md5sums')) return 'dpkg'
  if (filePath === APK_INSTALLED) return 'apk'
  if (isManifestPath(filePath)) return 'manifest'
  if (/\.(jar|war)$/i.test(filePath)) return 'jar'
  if ((mode & 0o111) !== 0 && size > 0 && size < MAX_EXECUTABLE_BYTES) return 'executable'
  return null
}
