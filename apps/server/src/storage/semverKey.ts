/**
 * A text key whose plain byte order is the semantic-version order of version names, so the
 * database sorts and pages versions with an index instead of sorting in memory.
 *
 * - Leading dotted numbers (`1`, `1.2`, `1.2.3.4`, an optional `v` before them) compare
 *   numerically, missing parts count as 0 (`1.2` = `1.2.0`), extra parts come after
 *   (`1.2.3` < `1.2.3.1`).
 * - A pre-release (`-alpha.1`, or any other suffix: `rc1`, `-SNAPSHOT`, `.post1`) sorts before
 *   the release; its dot-separated identifiers compare as semver says (numbers numerically and
 *   below words, words in ASCII order, fewer identifiers first). Build metadata (`+…`) is ignored.
 * - Names that do not start with a number (`latest`, `alpine`) sort below every numbered version,
 *   among themselves by name.
 *
 * Byte order: ' ' (pre-release follows) < '-' (release ends) < '.' (another number follows).
 */
const NUMBERED = /^v?(\d+(?:\.\d+)*)(.*)$/i
export const SEMVER_KEY_MAX = 255

const num = (digits: string) => {
  const n = digits.replace(/^0+(?=\d)/, '')
  return `${String(n.length).padStart(2, '0')}${n}`
}

export function semverKey(version: string): string {
  const plain = version.split('+')[0] ?? version
  const m = NUMBERED.exec(plain)
  if (!m) return `!${plain}`.slice(0, SEMVER_KEY_MAX)
  const parts = (m[1] ?? '').split('.')
  while (parts.length < 3) parts.push('0')
  let key = parts.map(num).join('.')
  const rest = (m[2] ?? '').replace(/^[-._]/, '')
  if (rest === '') key += '-'
  else {
    const ids = rest.split(/[.\-_]/).filter((id) => id !== '')
    key += ` ${ids.map((id) => (/^\d+$/.test(id) ? `0${num(id)}` : `1${id}`)).join(' ')}`
  }
  return key.slice(0, SEMVER_KEY_MAX)
}

/** A semver release: `x.y.z` without a pre-release (build metadata allowed). */
export const isSemverRelease = (version: string) => /^v?\d+\.\d+\.\d+(\+[0-9A-Za-z.-]+)?$/.test(version)
