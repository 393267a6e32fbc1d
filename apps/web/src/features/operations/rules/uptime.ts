import { Messages } from '@trove/contracts/messages'

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
] as const

/**
 * Uptime as a human duration of at most 2 units (spec §3, §9): the largest unit and the one right
 * below it when not zero ('1d 4h', '3m 12s', '2h'), or 'unavailable' when there is none.
 */
export function formatUptime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return Messages.uptimeUnavailable
  const i = UNITS.findIndex(([, size]) => ms >= size)
  if (i < 0) return '0s'
  const [unit, size] = UNITS[i] as (typeof UNITS)[number]
  const n = Math.floor(ms / size)
  const next = UNITS[i + 1]
  if (!next) return `${n}${unit}`
  const m = Math.floor((ms - n * size) / next[1])
  return m > 0 ? `${n}${unit} ${m}${next[0]}` : `${n}${unit}`
}
