import { AccessMessages, NAME_PATTERN, PROJECT_KEY_PATTERN, PROJECT_KEY_START } from '@trove/contracts/access'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'

/** Shell §5: a required name of letters, digits, dashes, underscores and periods. */
export function nameError(value: string): string | null {
  if (!value.trim()) return Messages.fieldMandatory
  if (!NAME_PATTERN.test(value)) return Messages.invalidName
  return null
}
export const requiredError = (value: string): string | null => (value.trim() ? null : Messages.fieldMandatory)

/** Shell §3/§5/§9: required, starts with a lowercase letter, at most 128 characters. */
export function projectKeyError(key: string): string | null {
  if (!key) return Messages.fieldMandatory
  if (!PROJECT_KEY_START.test(key)) return Messages.projectKeyLowercase
  if (key.length > Limits.projectKeyMaxLength) return `Project key must be at most ${Limits.projectKeyMaxLength} characters`
  if (!PROJECT_KEY_PATTERN.test(key)) return AccessMessages.projectKeyCharacters
  return null
}

export const formatQuota = (bytes: number | null) =>
  bytes === null ? 'No limit' : `${Math.round((bytes / 1024 ** 3) * 100) / 100} GB`
