/**
 * Composer's (Packagist's) version order, as Composer compares versions (no maintained npm library
 * does): a version is first normalised as `composer/semver`'s VersionParser::normalize does, then
 * two normalised versions are compared as PHP's `version_compare` compares them, which is what
 * Composer's Comparator calls.
 *
 * Normalising: a leading `v`, build metadata (`+…`), an alias (` as …`) and a stability flag
 * (`@dev`) go; classical versions get four numbers (`1.2` → `1.2.0.0`) and their stability one
 * spelling (`-a1`/`alpha.1` → `-alpha1`, `b` → `beta`, `rc` → `RC`, `p`/`pl` → `patch`, then
 * `-dev`); date versions (`20100102-203040`) keep their numbers; numbered branches (`1.x-dev`)
 * become `1.9999999.9999999.9999999-dev`. Named branches (`dev-main`, `master`) are no version:
 * Composer never orders them against versions, so they fall in no range.
 *
 * Comparing (PHP's rules): the version is cut into numbers and words at every `.`, `-`, `_`, `+`
 * and between digits and letters; numbers compare numerically, words by rank — anything else <
 * `dev` < `alpha`/`a…` < `beta`/`b…` < `RC`/`rc` < a number < `pl`/`p…` — so `-dev` < `-alpha1` <
 * `-beta` < `-RC1` < the release < `-patch1`. When one version runs out, a number left on the
 * other makes it newer, a word is ranked against a number.
 */

// Composer's `((?:[.-]?\d+)*+)` is possessive; JavaScript has no possessive quantifier, and
// `((?:[.-]?\d)*)` takes the same strings with one way to match each (no backtracking blow-up).
const MODIFIER = String.raw`[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)((?:[.-]?\d)*))?([.-]?dev)?`
const CLASSICAL = new RegExp(String.raw`^v?(\d{1,5})(\.\d+)?(\.\d+)?(\.\d+)?${MODIFIER}$`, 'i')
const DATE = new RegExp(String.raw`^v?(\d{4}(?:[.:-]?\d{2}){1,6}(?:[.:-]?\d{1,3}){0,2})${MODIFIER}$`, 'i')
/** Longer strings are no version (and never reach the expressions). */
const MAX_LENGTH = 256
const BRANCH = /^v?(\d+)(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?$/
const STABILITY_FLAG = /@(?:stable|RC|beta|alpha|dev)$/i

function expandStability(stability: string): string {
  const s = stability.toLowerCase()
  if (s === 'a') return 'alpha'
  if (s === 'b') return 'beta'
  if (s === 'p' || s === 'pl') return 'patch'
  if (s === 'rc') return 'RC'
  return s
}

function withModifier(version: string, m: RegExpExecArray, index: number): string {
  let out = version
  const stability = m[index]
  if (stability) {
    if (stability.toLowerCase() === 'stable') return out
    out += `-${expandStability(stability)}${(m[index + 1] ?? '').replace(/^[.-]+/, '')}`
  }
  if (m[index + 2]) out += '-dev'
  return out
}

/**
 * A version as Composer's VersionParser normalises it (`v1.2` → `1.2.0.0`, `1.0-rc1` →
 * `1.0.0.0-RC1`, `master` → `dev-master`), or null when Composer would refuse it.
 */
export function normalizeComposer(input: string): string | null {
  let version = input.trim()
  if (version.length > MAX_LENGTH) return null
  const alias = /^([^,\s]+) +as +[^,\s]+$/.exec(version)
  if (alias) version = alias[1] as string
  version = version.replace(STABILITY_FLAG, '')
  if (version === '') return null
  if (/^(?:dev-)?(?:master|trunk|default)$/i.test(version)) return `dev-${version.replace(/^dev-/i, '')}`
  if (/^dev-/i.test(version)) return `dev-${version.slice(4)}`
  version = version.replace(/\+[0-9A-Za-z.-]+$/, '')
  const classical = CLASSICAL.exec(version)
  if (classical) {
    const numbers = `${classical[1]}${classical[2] || '.0'}${classical[3] || '.0'}${classical[4] || '.0'}`
    return withModifier(numbers, classical, 5)
  }
  const date = DATE.exec(version)
  if (date) return withModifier((date[1] as string).replace(/\D/g, '.'), date, 2)
  const dev = /^(.*?)[.-]?dev$/i.exec(version)
  if (dev) {
    const branch = BRANCH.exec(dev[1] as string)
    if (branch) {
      const parts = [1, 2, 3, 4].map((i) => (branch[i] ?? '.x').replace(/^\./, '').replace(/^[xX*]$/, '9999999'))
      return `${parts.join('.')}-dev`
    }
  }
  return null
}

/** One piece of a canonical version: a number, or a word with its rank. */
type Piece = number | string

/** PHP's canonical form cut into pieces: separators and digit/letter changes split. */
function pieces(normalized: string): Piece[] {
  const out: Piece[] = []
  for (const m of normalized.matchAll(/\d+|[A-Za-z]+/g)) {
    const text = m[0]
    out.push(/^\d/.test(text) ? Number(text) : text)
  }
  return out
}

/** PHP's special forms, matched as prefixes in this order: dev, alpha, a, beta, b, RC, rc, #, pl, p. */
function rank(word: string | '#'): number {
  if (word === '#') return 4
  if (word.startsWith('dev')) return 0
  if (word.startsWith('alpha') || word.startsWith('a')) return 1
  if (word.startsWith('beta') || word.startsWith('b')) return 2
  if (word.startsWith('RC') || word.startsWith('rc')) return 3
  if (word.startsWith('pl') || word.startsWith('p')) return 5
  return -1
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0)

function comparePiece(a: Piece, b: Piece): number {
  if (typeof a === 'number' && typeof b === 'number') return sign(a - b)
  return sign(rank(typeof a === 'number' ? '#' : a) - rank(typeof b === 'number' ? '#' : b))
}

export interface ComposerVersion {
  normalized: string
  pieces: Piece[]
}

/** A Composer version ready to compare; null for a branch (`dev-…`) or what Composer refuses. */
export function parseComposer(version: string): ComposerVersion | null {
  const normalized = normalizeComposer(version)
  if (normalized === null || normalized.startsWith('dev-')) return null
  return { normalized, pieces: pieces(normalized) }
}

/** PHP's version_compare over two parsed versions: negative, 0 or positive. */
export function compareComposer(a: ComposerVersion, b: ComposerVersion): number {
  const left = a.pieces
  const right = b.pieces
  const common = Math.min(left.length, right.length)
  for (let i = 0; i < common; i++) {
    const result = comparePiece(left[i] as Piece, right[i] as Piece)
    if (result !== 0) return result
  }
  if (left.length > common) {
    const next = left[common] as Piece
    return typeof next === 'number' ? 1 : comparePiece(next, 0)
  }
  if (right.length > common) {
    const next = right[common] as Piece
    return typeof next === 'number' ? -1 : comparePiece(0, next)
  }
  return 0
}
