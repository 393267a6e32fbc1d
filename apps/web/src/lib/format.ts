/** A size for people: `512 B`, `1.2 MB`; `missing` when there is none. */
export function formatSize(bytes: number | undefined, missing = ''): string {
  if (bytes === undefined) return missing
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}
