/**
 * Whether a version falls in an OSV `affected[]` entry, by the OSV schema's evaluation rules:
 * a version is affected when it is listed in `versions`, or when it lies in any SEMVER or
 * ECOSYSTEM range. A range's events are sorted by version and walked in order: `introduced`
 * (or `introduced: "0"`, the start of time) opens, `fixed` closes before the version it names,
 * `last_affected` closes after it; `limit` events bound the whole range from above (exclusive).
 * GIT ranges name commits, not versions, and never match.
 *
 * A version that its ecosystem cannot parse is outside every range (it can still be listed in
 * `versions`). An event whose version cannot be parsed is ignored, which errs towards reporting:
 * an unreadable `fixed` leaves the range open rather than hiding the vulnerability.
 *
 * Sorted events are prepared once per range object and kept (weakly) with it, so evaluating many
 * versions against the same advisories parses and sorts each range once.
 */
import type { AffectedPackage, AffectedRange } from './types.js'
import { schemeFor, semverScheme, type VersionScheme } from './versionSchemes.js'

type Kind = 'introduced' | 'fixed' | 'last_affected'

interface PreparedEvent {
  kind: Kind
  /** null for `introduced: "0"`, which sorts before every version. */
  version: unknown
  text: string
}

interface PreparedRange {
  scheme: VersionScheme
  events: PreparedEvent[]
  /** Parsed `limit` versions; null when there is none, or one is `*` (infinity) or unreadable. */
  limits: unknown[] | null
}

const prepared = new WeakMap<AffectedRange, PreparedRange>()
const listed = new WeakMap<string[], Set<string>>()

/** At one version, closing events come before opening ones, so `fixed: X` then `introduced: X` leaves X affected. */
const KIND_ORDER: Record<Kind, number> = { fixed: 0, last_affected: 0, introduced: 1 }

function prepare(range: AffectedRange, scheme: VersionScheme): PreparedRange {
  const known = prepared.get(range)
  if (known && known.scheme === scheme) return known
  const events: PreparedEvent[] = []
  const limits: unknown[] = []
  let unbounded = false
  for (const event of range.events) {
    if ('limit' in event) {
      // "*" is infinity: below it every version is, whatever the other limits say.
      const version = event.limit.includes('*') ? null : scheme.parse(event.limit)
      if (version === null) unbounded = true
      else limits.push(version)
      continue
    }
    const kind: Kind = 'introduced' in event ? 'introduced' : 'fixed' in event ? 'fixed' : 'last_affected'
    const text = 'introduced' in event ? event.introduced : 'fixed' in event ? event.fixed : event.last_affected
    if (kind === 'introduced' && text === '0') {
      events.push({ kind, version: null, text })
      continue
    }
    const version = scheme.parse(text)
    if (version !== null) events.push({ kind, version, text })
  }
  events.sort((a, b) => {
    if (a.version === null || b.version === null) return a.version === null ? (b.version === null ? 0 : -1) : 1
    return scheme.compare(a.version, b.version) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
  })
  const result = { scheme, events, limits: unbounded || limits.length === 0 ? null : limits }
  prepared.set(range, result)
  return result
}

function schemeOf(pkg: AffectedPackage, range: AffectedRange): VersionScheme | null {
  if (range.type === 'SEMVER') return semverScheme
  if (range.type === 'ECOSYSTEM') return schemeFor(pkg.ecosystem)
  return null
}

/**
 * Walks one range for a parsed version. Returns whether it is inside, and the `fixed` event that
 * ends the interval it is in (if a `fixed` ends it).
 */
function walk(range: PreparedRange, version: unknown): { affected: boolean; fixedBy: string | null } {
  const { scheme, events, limits } = range
  if (limits && !limits.some((limit) => scheme.compare(version, limit) < 0)) return { affected: false, fixedBy: null }
  let affected = false
  let i = 0
  for (; i < events.length; i++) {
    const event = events[i] as PreparedEvent
    if (event.version === null) {
      affected = true
      continue
    }
    const order = scheme.compare(version, event.version)
    // Events are sorted: once one lies above the version, no later one can apply.
    if (order < 0) break
    if (event.kind === 'introduced') affected = true
    else if (event.kind === 'fixed') affected = false
    else if (order > 0) affected = false
  }
  if (!affected) return { affected, fixedBy: null }
  const closing = events.slice(i).find((event) => event.kind !== 'introduced')
  return { affected, fixedBy: closing?.kind === 'fixed' ? closing.text : null }
}

function listedIn(versions: string[], version: string): boolean {
  if (versions.length === 0) return false
  let set = listed.get(versions)
  if (!set) {
    set = new Set(versions)
    listed.set(versions, set)
  }
  return set.has(version)
}

export function isAffected(pkg: AffectedPackage, version: string): boolean {
  if (listedIn(pkg.versions, version)) return true
  for (const range of pkg.ranges) {
    const scheme = schemeOf(pkg, range)
    if (!scheme) continue
    const parsed = scheme.parse(version)
    if (parsed !== null && walk(prepare(range, scheme), parsed).affected) return true
  }
  return false
}

/** The `fixed` versions that end the intervals holding `version`, lowest first: what to upgrade to. */
export function fixedVersions(pkg: AffectedPackage, version: string): string[] {
  const found: string[] = []
  for (const range of pkg.ranges) {
    const scheme = schemeOf(pkg, range)
    const parsed = scheme?.parse(version) ?? null
    if (!scheme || parsed === null) continue
    const { fixedBy } = walk(prepare(range, scheme), parsed)
    if (fixedBy !== null && !found.includes(fixedBy)) found.push(fixedBy)
  }
  const ecosystem = schemeFor(pkg.ecosystem)
  const order = (a: string, b: string) => {
    const left = ecosystem.parse(a)
    const right = ecosystem.parse(b)
    return left !== null && right !== null ? ecosystem.compare(left, right) : a < b ? -1 : 1
  }
  return found.sort(order)
}
