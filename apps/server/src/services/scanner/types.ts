/**
 * The scanner's shared vocabulary: the ecosystems it knows (spelled as OSV spells them), a
 * component found in a package or an image, and an advisory as stored after import.
 */

/** OSV ecosystem names. Debian and Alpine advisories carry a release suffix ("Debian:12", "Alpine:v3.19"). */
export const ECOSYSTEMS = [
  'npm',
  'PyPI',
  'Maven',
  'Go',
  'crates.io',
  'RubyGems',
  'Packagist',
  'NuGet',
  'Debian',
  'Alpine',
] as const
export type Ecosystem = (typeof ECOSYSTEMS)[number]

/** A package found inside what was scanned: the package itself, a dependency, or an OS package of an image. */
export interface Component {
  ecosystem: Ecosystem
  /**
   * The name advisories use: npm and Maven ("group:artifact") as written, PyPI normalised (PEP 503),
   * Debian the *source* package (what Debian's advisories name), Alpine the origin package.
   */
  name: string
  version: string
  /** Where it was found: "" for the package itself, a lockfile or database path inside an image. */
  path: string
  /** The binary package name when it differs from `name` (Debian, Alpine). */
  binary?: string
  /**
   * The Debian or Alpine release it belongs to ("12"), when the component itself says so (a .deb
   * in a Debian repository's distribution); otherwise the scanned image's OS decides.
   */
  release?: string
  /** Declared licences as written (normalised to SPDX later). */
  licenses?: string[]
}

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'unknown'
export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'unknown']

/** One OSV `affected[]` entry reduced to what evaluation needs. */
export interface AffectedRange {
  /** OSV `type`: SEMVER, ECOSYSTEM or GIT (GIT ranges are kept but never match a version). */
  type: 'SEMVER' | 'ECOSYSTEM' | 'GIT'
  events: ({ introduced: string } | { fixed: string } | { last_affected: string } | { limit: string })[]
}

export interface AffectedPackage {
  ecosystem: Ecosystem
  /** The release suffix of Debian/Alpine ecosystems ("12", "v3.19"), or "" */
  release: string
  name: string
  ranges: AffectedRange[]
  /** Explicitly listed affected versions (OSV `versions`). */
  versions: string[]
}

export interface Advisory {
  id: string
  modified: string
  published: string | null
  withdrawn: string | null
  aliases: string[]
  /**
   * Ids of the upstream vulnerabilities this advisory covers (OSV `upstream`): where distribution
   * advisories (ALPINE-CVE-…, DSA-…) name the CVE they are about. Optional for advisories built by hand.
   */
  upstream?: string[]
  /** Ids of related but distinct vulnerabilities (OSV `related`). */
  related?: string[]
  summary: string
  details: string
  severity: Severity
  /** The highest CVSS base score found (any version), or null */
  cvssScore: number | null
  cvssVector: string | null
  references: { type: string; url: string }[]
  affected: AffectedPackage[]
}
