import type { Severity, Violation, ViolationFilter, ViolationType } from '@trove/contracts/scanner'

/** The violations screen's filters: the server's three, and a package or component name it matches here. */
export interface ViolationFilters {
  severity: Severity | ''
  type: ViolationType | ''
  repo: string
  text: string
}

export const noFilters = (): ViolationFilters => ({ severity: '', type: '', repo: '', text: '' })

/** The query the server takes (only what is set). */
export const serverFilter = (f: ViolationFilters): ViolationFilter => ({
  ...(f.severity ? { severity: f.severity } : {}),
  ...(f.type ? { type: f.type } : {}),
  ...(f.repo ? { repo: f.repo } : {}),
})

/** Violations whose package, version, component or issue contains the text (any case). */
export function matchesText(v: Violation, text: string): boolean {
  const t = text.trim().toLowerCase()
  if (!t) return true
  return [v.packageId, `${v.packageId}@${v.version}`, v.component, v.issue].some((s) => s.toLowerCase().includes(t))
}
