import { format, Messages } from '@trove/contracts/messages'
import type { PolicyActions, SecurityPolicy, Severity } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'

/** The policy form's fields as the screen holds them. */
export interface PolicyDraft {
  name: string
  description: string
  /** '' for none: security findings do not violate the policy */
  minSeverity: Severity | ''
  /** Empty: any licence is allowed */
  allowedLicenses: string[]
  deniedLicenses: string[]
  actions: PolicyActions
}

export type PolicyField = 'name' | 'description' | 'minSeverity' | 'allowedLicenses' | 'deniedLicenses'
export const POLICY_FIELDS: readonly PolicyField[] = ['name', 'description', 'minSeverity', 'allowedLicenses', 'deniedLicenses']

export const emptyPolicy = (): PolicyDraft => ({
  name: '',
  description: '',
  minSeverity: 'high',
  allowedLicenses: [],
  deniedLicenses: [],
  actions: { notify: true, failBuild: false, blockDownload: false },
})

export const draftOf = (p: SecurityPolicy): PolicyDraft => ({
  name: p.name,
  description: p.description,
  minSeverity: p.minSeverity ?? '',
  allowedLicenses: p.allowedLicenses ?? [],
  deniedLicenses: p.deniedLicenses,
  actions: { ...p.actions },
})

/** The policy sent to the server: an empty allow-list means any licence (null), names and ids trimmed. */
export function policyOf(d: PolicyDraft): SecurityPolicy {
  const ids = (list: string[]) => [...new Set(list.map((l) => l.trim()).filter(Boolean))]
  const allowed = ids(d.allowedLicenses)
  return {
    name: d.name.trim(),
    description: d.description.trim(),
    minSeverity: d.minSeverity || null,
    allowedLicenses: allowed.length > 0 ? allowed : null,
    deniedLicenses: ids(d.deniedLicenses),
    actions: d.actions,
  }
}

/** What the form can tell before asking the server (which alone knows the SPDX ids and the names taken). */
export function validatePolicy(d: PolicyDraft): Partial<Record<PolicyField, string>> {
  const errors: Partial<Record<PolicyField, string>> = {}
  const p = policyOf(d)
  if (!p.name) errors.name = Messages.fieldMandatory
  else if (p.name.length > 128) errors.name = 'At most 128 characters'
  if (p.description.length > 1000) errors.description = 'At most 1000 characters'
  if (!p.minSeverity && !p.allowedLicenses && p.deniedLicenses.length === 0)
    errors.minSeverity = ScreenMessages.scannerPolicyNeedsRule
  const both = p.deniedLicenses.filter((l) => p.allowedLicenses?.includes(l))
  if (both.length > 0) errors.deniedLicenses = format(ScreenMessages.scannerLicenceAllowedAndDenied, { ids: both.join(', ') })
  return errors
}
