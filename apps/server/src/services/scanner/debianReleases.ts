/**
 * Debian's release numbers by code name, as OSV's Debian ecosystems name them (`Debian:12`).
 * A distribution of a Debian repository is a code name, maybe with a suite after it
 * (`bookworm-security`, `bookworm-backports`, `bookworm/updates`), or the number itself.
 */
const CODE_NAMES: Record<string, string> = {
  buzz: '1.1',
  rex: '1.2',
  bo: '1.3',
  hamm: '2.0',
  slink: '2.1',
  potato: '2.2',
  woody: '3.0',
  sarge: '3.1',
  etch: '4.0',
  lenny: '5.0',
  squeeze: '6',
  wheezy: '7',
  jessie: '8',
  stretch: '9',
  buster: '10',
  bullseye: '11',
  bookworm: '12',
  trixie: '13',
  forky: '14',
  duke: '15',
}

/**
 * The Debian release a distribution names ("bookworm" → "12", "bookworm-security" → "12",
 * "debian12" or "12" → "12"), or null. Moving names (`stable`, `testing`, `unstable`, `sid`)
 * are null on purpose: which release they mean changes with time and with the mirror, and a
 * guess would report advisories of the wrong release.
 */
export function debianRelease(distribution: string): string | null {
  const head = distribution.toLowerCase().split(/[-/]/)[0] ?? ''
  const named = CODE_NAMES[head]
  if (named) return named
  const number = /^(?:debian)?(\d{1,2})$/.exec(head)?.[1]
  return number ? String(Number(number)) : null
}
