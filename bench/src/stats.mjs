/** @typedef {(name: string, value: string, unit: string, target: string, ok: boolean | null, note?: string) => void} Row  (ok null: a figure with no target) */

/** The middle value of a list of numbers. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}
