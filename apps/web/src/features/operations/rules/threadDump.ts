import { THREAD_DUMP_LIMITS } from '@trove/contracts/operations'

/** A form value as a whole number, the way it is sent (spec §4, §5): '3' → 3, '3.7' → 3, 'x' → NaN. */
export function toWholeNumber(value: string | number): number {
  return typeof value === 'number' ? Math.trunc(value) : Number.parseInt(value.trim(), 10)
}

/** The error of a thread-dump field, or null when it may be sent. */
export function threadDumpError(field: 'count' | 'interval', value: string | number): string | null {
  const n = toWholeNumber(value)
  const max = field === 'count' ? THREAD_DUMP_LIMITS.countMax : THREAD_DUMP_LIMITS.intervalMaxMs
  if (Number.isNaN(n)) return 'Enter a whole number'
  if (n < 0 || n > max) return `Between 0 and ${max}`
  return null
}
