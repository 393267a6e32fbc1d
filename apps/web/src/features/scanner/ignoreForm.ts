import type { IgnoreRuleForm, Violation } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'

/** How widely a violation is accepted: this version, every version of the package, or everywhere. */
export type IgnoreScope = 'version' | 'package' | 'everywhere'

export interface IgnoreDraft {
  scope: IgnoreScope
  reason: string
  /** A day (YYYY-MM-DD), the last the rule holds; '' for until removed */
  expires: string
}

export type IgnoreField = 'reason' | 'expiresAt'
export const IGNORE_FIELDS: readonly IgnoreField[] = ['reason', 'expiresAt']

export const emptyIgnore = (): IgnoreDraft => ({ scope: 'version', reason: '', expires: '' })

/** The day, as an input of type date writes it, in the browser's time zone. */
export const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`

export function validateIgnore(d: IgnoreDraft, today: Date): Partial<Record<IgnoreField, string>> {
  const errors: Partial<Record<IgnoreField, string>> = {}
  if (!d.reason.trim()) errors.reason = ScreenMessages.scannerIgnoreNeedsReason
  else if (d.reason.trim().length > 1000) errors.reason = 'At most 1000 characters'
  if (d.expires && (!/^\d{4}-\d{2}-\d{2}$/.test(d.expires) || d.expires <= dayOf(today)))
    errors.expiresAt = ScreenMessages.scannerIgnoreExpiryPast
  return errors
}

/** The rule for a violation: its advisory or licence, narrowed to the package or version; it holds to the end of the expiry day. */
export function ignoreRuleOf(v: Violation, d: IgnoreDraft): IgnoreRuleForm {
  const [y, m, day] = d.expires.split('-').map(Number)
  return {
    advisoryId: v.type === 'security' ? v.issue : null,
    license: v.type === 'license' ? v.issue : null,
    packageId: d.scope === 'everywhere' ? null : v.packageId,
    version: d.scope === 'version' ? v.version : null,
    reason: d.reason.trim(),
    expiresAt: d.expires ? new Date(y ?? 0, (m ?? 1) - 1, day ?? 1, 23, 59, 59).toISOString() : null,
  }
}
