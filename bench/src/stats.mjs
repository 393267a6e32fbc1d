/** @typedef {(name: string, value: string, unit: string, target: string, ok: boolean | null, note?: string) => void} Row  (ok null: a figure with no target) */

/** The middle value of a list of numbers. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** The value below which `p` percent of the values lie (nearest rank). */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
