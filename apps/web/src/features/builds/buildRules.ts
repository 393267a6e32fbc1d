import type { BuildRunSummary, BuildSummary } from '@trove/contracts/builds'

/** The list's filter: every word must appear (case-insensitively) in the name, last number or status. */
export function filterBuilds(builds: readonly BuildSummary[], text: string): BuildSummary[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...builds]
  return builds.filter((b) => {
    const hay = `${b.name} ${b.lastNumber} ${b.status ?? ''}`.toLowerCase()
    return words.every((w) => hay.includes(w))
  })
}

/**
 * The two runs picked for a diff, the older one (by start) as the base. Runs come newest first;
 * null until exactly two known runs are picked.
 */
export function diffPair(runs: readonly BuildRunSummary[], picked: readonly string[]): { number: string; base: string } | null {
  if (picked.length !== 2) return null
  const [a, b] = picked.map((n) => runs.find((r) => r.number === n))
  if (!a || !b) return null
  const newerFirst =
    Date.parse(a.started) > Date.parse(b.started) || (a.started === b.started && runs.indexOf(a) < runs.indexOf(b))
  return newerFirst ? { number: a.number, base: b.number } : { number: b.number, base: a.number }
}

/** Picking a run: a third pick replaces the earlier of the two already picked. */
export function togglePick(picked: readonly string[], number: string): string[] {
  if (picked.includes(number)) return picked.filter((n) => n !== number)
  return [...picked, number].slice(-2)
}

/** `1 h 2 min`, `3 min 5 s`, `850 ms`: a run's duration as people read it. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const s = Math.round(ms / 1000)
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
  if (h > 0) return `${h} h ${m} min`
  if (m > 0) return sec > 0 ? `${m} min ${sec} s` : `${m} min`
  return `${sec} s`
}

/** A checksum shortened for a table cell (the whole one goes in its title). */
export const shortSum = (sum: string | null) => (sum ? sum.slice(0, 12) : '—')

/**
 * Where an old builds link goes (shell §2.4: `#/builds/…` arrives as `/builds/…?jenkinsRedirect=true`).
 * The old console's run links went on after the number (`{name}/{number}/{started}/{tab}/…`): the
 * build and run are the first two segments; anything after them is dropped.
 */
export function legacyBuildTarget(segments: readonly string[]): { name?: string; number?: string } {
  const [name, number] = segments.filter((s) => s !== '')
  return { ...(name ? { name } : {}), ...(name && number ? { number } : {}) }
}
