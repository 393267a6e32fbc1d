import { linesOf } from './components.js'

/**
 * The string keys of each `[[package]]` table of a TOML lockfile (Cargo.lock, poetry.lock). Both
 * write one `key = "value"` per line, so a line reader is enough; other tables end a package, and
 * text inside multi-line strings is never read as a key.
 */
export function tomlPackages(text: string): Record<string, string>[] {
  const packages: Record<string, string>[] = []
  let current: Record<string, string> | null = null
  let inMultiline = false
  for (const raw of linesOf(text)) {
    const line = raw.trim()
    const fences = line.split('"""').length - 1 + (line.split("'''").length - 1)
    if (inMultiline) {
      if (fences % 2 === 1) inMultiline = false
      continue
    }
    if (fences % 2 === 1) {
      inMultiline = true
      continue
    }
    if (line.startsWith('[')) {
      current = line === '[[package]]' ? {} : null
      if (current) packages.push(current)
      continue
    }
    if (!current) continue
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*(?:#.*)?$/.exec(line)
    const key = pair?.[1]
    if (key) current[key] = pair[3] ?? unescapeBasic(pair[2] ?? '')
  }
  return packages
}

/** Undoes a TOML basic string's escapes (the few a package name or version could hold). */
function unescapeBasic(value: string): string {
  return value.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (whole, sequence: string) => {
    if (sequence.length > 1) {
      const codePoint = Number.parseInt(sequence.slice(1), 16)
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole
    }
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[sequence] ?? sequence
  })
}
