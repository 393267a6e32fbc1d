/**
 * Alpine's package version order, as apk-tools compares versions (no maintained npm library
 * does): `digits{.digits}...{letter}{_suffix{digits}}...{~hash}{-r{digits}}`.
 *
 * - Numbers compare numerically, except that a dotted part with a leading zero compares as text
 *   against the other ("1.02" < "1.2", "1.0" < "1.00"), as apk-tools does.
 * - One lower-case letter may follow the numbers ("1.2a" > "1.2").
 * - Suffixes `_alpha` < `_beta` < `_pre` < `_rc` < (none) < `_cvs` < `_svn` < `_git` < `_hg` < `_p`,
 *   each with an optional number; several may follow one another.
 * - `~hash` is a commit hash (compared as text), `-rN` the package revision.
 * - When one version is a prefix of the other, the longer is newer unless it goes on with a
 *   pre-release suffix.
 *
 * A version is parsed once into its tokens, so comparing two parsed versions walks two arrays.
 */

enum Token {
  InitialDigit = 0,
  Digit = 1,
  Letter = 2,
  Suffix = 3,
  SuffixNo = 4,
  CommitHash = 5,
  RevisionNo = 6,
  End = 7,
}

/** Suffix ranks; "none" (a version without a suffix at that point) sits between pre- and post-releases. */
const SUFFIX_RANK: Record<string, number> = { alpha: 1, beta: 2, pre: 3, rc: 4, cvs: 6, svn: 7, git: 8, hg: 9, p: 10 }
const SUFFIX_NONE = 5

interface Part {
  token: Token
  /** The part as written: digits, the letter, the suffix name or the hash. */
  text: string
  /** Digits without leading zeros, for numeric comparison of any length; the suffix rank for suffixes. */
  number: string
  rank: number
}

export interface ApkVersion {
  /** The parts in order, the last one always End. */
  parts: Part[]
}

const isDigit = (c: string) => c >= '0' && c <= '9'
const isLower = (c: string) => c >= 'a' && c <= 'z'
const isHex = (c: string) => isDigit(c) || (c >= 'a' && c <= 'f')

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** Digit strings without leading zeros: the longer is larger, else the first differing digit decides. */
const compareNumber = (a: string, b: string) => (a.length !== b.length ? Math.sign(a.length - b.length) : compareText(a, b))

function span(text: string, from: number, accept: (c: string) => boolean): number {
  let end = from
  while (end < text.length && accept(text.charAt(end))) end++
  return end
}

const part = (token: Token, text: string, rank = 0): Part => ({
  token,
  text,
  number: token === Token.Letter || token === Token.Suffix || token === Token.CommitHash ? '' : text.replace(/^0+/, '') || '0',
  rank,
})

/** Tokenizes an apk version; null when apk-tools would not accept it as a version. */
export function parseApk(version: string): ApkVersion | null {
  let pos = span(version, 0, isDigit)
  if (pos === 0) return null
  const parts: Part[] = [part(Token.InitialDigit, version.slice(0, pos))]
  let token: Token = Token.InitialDigit
  while (pos < version.length) {
    const c = version.charAt(pos)
    if (isLower(c)) {
      if (token > Token.Digit) return null
      token = Token.Letter
      parts.push(part(token, c))
      pos++
    } else if (c === '.' || isDigit(c)) {
      if (c === '.') {
        if (token > Token.Digit) return null
        pos++
      }
      if (token === Token.InitialDigit || token === Token.Digit) token = Token.Digit
      else if (token === Token.Suffix) token = Token.SuffixNo
      else return null
      const end = span(version, pos, isDigit)
      if (end === pos) return null
      parts.push(part(token, version.slice(pos, end)))
      pos = end
    } else if (c === '_') {
      if (token > Token.SuffixNo) return null
      const end = span(version, pos + 1, isLower)
      const name = version.slice(pos + 1, end)
      const rank = SUFFIX_RANK[name]
      if (rank === undefined) return null
      token = Token.Suffix
      parts.push(part(token, name, rank))
      pos = end
    } else if (c === '~') {
      if (token >= Token.CommitHash) return null
      const end = span(version, pos + 1, isHex)
      if (end === pos + 1) return null
      token = Token.CommitHash
      parts.push(part(token, version.slice(pos + 1, end)))
      pos = end
    } else if (c === '-') {
      if (token >= Token.RevisionNo || version.charAt(pos + 1) !== 'r') return null
      const end = span(version, pos + 2, isDigit)
      if (end === pos + 2) return null
      token = Token.RevisionNo
      parts.push(part(token, version.slice(pos + 2, end)))
      pos = end
    } else {
      return null
    }
  }
  parts.push(part(Token.End, ''))
  return { parts }
}

function compareParts(a: Part, b: Part): number {
  switch (a.token) {
    case Token.Digit:
      // A leading zero makes both sides compare as text (the Gentoo rule apk-tools follows).
      if (a.text.startsWith('0') || b.text.startsWith('0')) return compareText(a.text, b.text)
      return compareNumber(a.number, b.number)
    case Token.InitialDigit:
    case Token.SuffixNo:
    case Token.RevisionNo:
      return compareNumber(a.number, b.number)
    case Token.Letter:
    case Token.CommitHash:
      return compareText(a.text, b.text)
    case Token.Suffix:
      return Math.sign(a.rank - b.rank)
    default:
      return 0
  }
}

/** apk-tools' version comparison over two parsed versions: negative, 0 or positive. */
export function compareApk(a: ApkVersion, b: ApkVersion): number {
  let i = 0
  let pa = a.parts[0] as Part
  let pb = b.parts[0] as Part
  while (pa.token === pb.token && pa.token !== Token.End) {
    const result = compareParts(pa, pb)
    if (result !== 0) return result
    i++
    pa = a.parts[i] as Part
    pb = b.parts[i] as Part
  }
  if (pa.token === pb.token) return 0
  // Equal so far and one goes on: the longer one is newer, unless it goes on with a pre-release suffix.
  if (pa.token === Token.Suffix && pa.rank < SUFFIX_NONE) return -1
  if (pb.token === Token.Suffix && pb.rank < SUFFIX_NONE) return 1
  return pa.token > pb.token ? -1 : 1
}
