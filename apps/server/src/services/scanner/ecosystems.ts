/**
 * The ecosystems the scanner knows: reading OSV's ecosystem names, normalising package names
 * the way advisories spell them, and ordering versions the way each ecosystem does. Range
 * evaluation (`isAffected`, `fixedVersions`) lives in ranges.ts and is re-exported here.
 */
import { ECOSYSTEMS, type Ecosystem } from './types.js'
import { schemeFor } from './versionSchemes.js'

export { fixedVersions, isAffected } from './ranges.js'

const KNOWN = new Set<string>(ECOSYSTEMS)

/** Ecosystems whose OSV name may carry a `:suffix`: a release for the distributions, a repository URL for Maven. */
const WITH_RELEASE = new Set<Ecosystem>(['Debian', 'Alpine'])

/**
 * "npm" → npm, "Debian:12" → Debian release "12", "Alpine:v3.19" → Alpine release "v3.19";
 * null for an ecosystem Trove does not scan. "Maven:https://maven.google.com" (an advisory
 * naming another Maven repository) is Maven: coordinates name the same artifact wherever it is
 * mirrored, so no release is kept for it.
 */
export function parseEcosystem(osvName: string): { ecosystem: Ecosystem; release: string } | null {
  const colon = osvName.indexOf(':')
  const name = colon === -1 ? osvName : osvName.slice(0, colon)
  const suffix = colon === -1 ? '' : osvName.slice(colon + 1)
  if (!KNOWN.has(name)) return null
  const ecosystem = name as Ecosystem
  if (WITH_RELEASE.has(ecosystem)) return { ecosystem, release: suffix }
  if (ecosystem === 'Maven') return { ecosystem, release: '' }
  return suffix === '' ? { ecosystem, release: '' } : null
}

/**
 * The name as advisories write it: PyPI names normalised by PEP 503 (lower case, every run of
 * `-`, `_` and `.` one `-`); Packagist's `vendor/name` and NuGet ids in lower case (both compare
 * them regardless of case, and a push need not spell them as OSV does); Maven's `group:artifact`
 * and every other ecosystem's names as given (npm, Go, crates and gem names are matched exactly
 * as OSV records them).
 */
export function normalizeName(ecosystem: Ecosystem, name: string): string {
  if (ecosystem === 'PyPI') return name.toLowerCase().replace(/[-_.]+/g, '-')
  return ecosystem === 'Packagist' || ecosystem === 'NuGet' ? name.toLowerCase() : name
}

/**
 * Orders two versions as their ecosystem does: negative, 0 or positive. A version the ecosystem
 * cannot read sorts before every readable one, and unreadable ones among themselves by their text,
 * so the order stays total (sorting a list of versions never throws).
 */
export function compareVersions(ecosystem: Ecosystem, a: string, b: string): number {
  const scheme = schemeFor(ecosystem)
  const left = scheme.parse(a)
  const right = scheme.parse(b)
  if (left !== null && right !== null) return scheme.compare(left, right)
  if (left !== null) return 1
  if (right !== null) return -1
  return a < b ? -1 : a > b ? 1 : 0
}
