/**
 * How each ecosystem orders its versions. A scheme parses a version once (null when it is not a
 * version of that ecosystem) and compares parsed versions; parses are cached, because range
 * evaluation meets the same few versions hundreds of thousands of times.
 */
import pep440, { type Pep440Version } from '@renovatebot/pep440'
import { Version as GemVersion } from '@renovatebot/ruby-semver/dist/ruby/version.js'
import debCompare from 'deb-version-compare'
import semver from 'semver'
import { versionOrderOf } from '../../formats/index.js'
import { compareApk, parseApk } from './apkVersion.js'
import { compareComposer, parseComposer } from './composerVersion.js'
import { compareMaven, parseMaven } from './mavenVersion.js'
import type { Ecosystem } from './types.js'

export interface VersionScheme<T = unknown> {
  parse(version: string): T | null
  compare(a: T, b: T): number
}

/** Parses are kept until this many distinct strings were seen, then the cache starts afresh. */
const CACHE_LIMIT = 50_000

function cached<T>(scheme: VersionScheme<T>): VersionScheme<T> {
  const parses = new Map<string, T | null>()
  return {
    parse(version) {
      let parsed = parses.get(version)
      if (parsed === undefined) {
        parsed = scheme.parse(version)
        if (parses.size >= CACHE_LIMIT) parses.clear()
        parses.set(version, parsed)
      }
      return parsed
    },
    compare: scheme.compare,
  }
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0)

/**
 * Semantic versions (npm, crates.io, Go, and every SEMVER range). Loose parsing takes a leading
 * `v` (Go's `v1.2.3`) and `=`; Go pseudo-versions (`v0.0.0-20210101000000-abcdef123456`) are
 * prereleases and `+incompatible` is build metadata, so both order as Go orders them.
 */
export const semverScheme: VersionScheme<semver.SemVer> = cached({
  parse: (version) => semver.parse(version, { loose: true }),
  compare: (a, b) => a.compare(b),
})

/**
 * PEP 440 (PyPI), parsed by @renovatebot/pep440. Its own compare takes strings and re-parses both
 * on every call, so the ordering key it computes internally is computed here from the cached parse.
 */
type PyTerm = number | string | PyTerm[]
const NEG = Number.NEGATIVE_INFINITY
const POS = Number.POSITIVE_INFINITY

function pep440Key(v: Pep440Version): PyTerm[] {
  const release = [...v.release]
  while (release.length > 0 && release[release.length - 1] === 0) release.pop()
  // 1.0.dev0 sorts before 1.0a0; a release without a pre-release after its pre-releases.
  const pre: PyTerm = v.pre ? v.pre : !v.post && v.dev ? NEG : POS
  const post: PyTerm = v.post ? v.post : NEG
  const dev: PyTerm = v.dev ? v.dev : POS
  const local: PyTerm = v.local
    ? (v.local as unknown as (string | number)[]).map((part) => (typeof part === 'number' ? [part, ''] : [NEG, part]))
    : NEG
  return [v.epoch, release, pre, post, dev, local]
}

/** Python's tuple ordering over the key's terms. */
function comparePyTerm(a: PyTerm, b: PyTerm): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const result = comparePyTerm(a[i] as PyTerm, b[i] as PyTerm)
      if (result !== 0) return result
    }
    return sign(a.length - b.length)
  }
  // A bare infinity against a tuple: -inf sorts before any tuple, +inf after.
  if (Array.isArray(a)) return b === NEG ? 1 : -1
  if (Array.isArray(b)) return a === NEG ? -1 : 1
  return a === b ? 0 : a < b ? -1 : 1
}

export const pypiScheme: VersionScheme<PyTerm> = cached<PyTerm>({
  parse: (version) => {
    const parsed = pep440.parse(version)
    return parsed ? pep440Key(parsed) : null
  },
  compare: comparePyTerm,
})

/**
 * RubyGems, parsed and canonicalised by @renovatebot/ruby-semver. Its compare re-derives the
 * segments and compares each through localeCompare on every call (slow), so Gem::Version#<=> runs
 * here over the cached segments: numbers numerically, strings (pre-release parts) byte-wise and
 * below numbers, missing segments as 0.
 */
type GemSegments = (string | number)[]

function compareGem(a: GemSegments, b: GemSegments): number {
  const length = Math.max(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const left = a[i] ?? 0
    const right = b[i] ?? 0
    if (left === right) continue
    if (typeof left === 'string' && typeof right === 'number') return -1
    if (typeof left === 'number' && typeof right === 'string') return 1
    return left < right ? -1 : 1
  }
  return 0
}

export const rubyGemsScheme: VersionScheme<GemSegments> = cached({
  parse: (version) => {
    if (version.trim() === '' || !GemVersion.isCorrect(version)) return null
    return GemVersion.create(version)?.canonicalSegments() ?? null
  },
  compare: compareGem,
})

/**
 * Debian (dpkg order), compared by deb-version-compare. Two of that library's slips are kept
 * away from it by handing it dpkg-equivalent spellings: it compares digit runs as text before
 * numbers (1.01 older than 1.1; 1.00 and 1.0 each older than the other), so leading zeros are
 * dropped from every digit run, which dpkg ignores; and it calls a version without a Debian
 * revision equal to any with one (1.0 = 1.0-1), so a missing revision is written as "-0", which
 * dpkg treats the same as none.
 */
const DEBIAN_VERSION = /^(?:\d+:)?[0-9][A-Za-z0-9.+~-]*$/

function debianSpelling(version: string): string | null {
  if (!DEBIAN_VERSION.test(version) || version.endsWith('-')) return null
  const digits = version.replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, ''))
  return digits.includes('-') ? digits : `${digits}-0`
}

export const debianScheme: VersionScheme<string> = cached({
  parse: debianSpelling,
  compare: (a, b) => sign(debCompare(a, b)),
})

export const alpineScheme = cached({ parse: parseApk, compare: compareApk })

/** Composer (Packagist): normalised by VersionParser's rules, compared as PHP's version_compare (composerVersion.ts). */
export const packagistScheme = cached({ parse: parseComposer, compare: compareComposer })

export const mavenScheme = cached({
  // Maven orders any string; only an empty or spaced one is not a version.
  parse: (version: string) => (version.length > 0 && !/\s/.test(version) ? parseMaven(version) : null),
  compare: compareMaven,
})

/** NuGet versions: normalised as NuGet does (1 to 4 numbers, SemVer 2 labels compared without case). */
const nuget = versionOrderOf('nuget')
export const nugetScheme = cached({
  parse: (version: string) => nuget.parse(version) ?? null,
  compare: (a, b) => nuget.compare(a, b),
})

const SCHEMES: Record<Ecosystem, VersionScheme> = {
  npm: semverScheme,
  'crates.io': semverScheme,
  Go: semverScheme,
  PyPI: pypiScheme,
  RubyGems: rubyGemsScheme,
  Packagist: packagistScheme,
  NuGet: nugetScheme,
  Debian: debianScheme,
  Alpine: alpineScheme,
  Maven: mavenScheme,
} as Record<Ecosystem, VersionScheme>

export function schemeFor(ecosystem: Ecosystem): VersionScheme {
  return SCHEMES[ecosystem]
}
