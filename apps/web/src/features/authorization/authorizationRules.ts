import { ACTION_LABELS, ACTIONS, type Action, type HeldRole } from '@trove/contracts/access'
import { ScreenMessages } from '@trove/contracts/screenMessages'

/** Each action in the model's order, with its label and whether it is held. */
export function actionMarks(held: readonly Action[]): { action: Action; label: string; held: boolean }[] {
  return ACTIONS.map((action) => ({ action, label: ACTION_LABELS[action], held: held.includes(action) }))
}

/** "Developer (through the group readers)" or "Viewer" for a role held directly. */
export function roleLabel(role: HeldRole): string {
  return role.via === 'group' ? `${role.role} (through the group ${role.group ?? '?'})` : role.role
}

const CAPABILITY_LABELS: Record<string, string> = {
  manage_members: 'Manage members',
  manage_resources: 'Manage resources',
}
export const capabilityLabel = (capability: string) => CAPABILITY_LABELS[capability] ?? capability

/** What the repositories table says when it has no rows: nothing held, or nothing matching the filter. */
export const emptyRepositoriesText = (search: string) =>
  search.trim() ? ScreenMessages.noRepositoryMatches : ScreenMessages.noRepositoryPermissions

/** A summary of the actions held, for a project row: "Read, Annotate" or "None". */
export function actionsSummary(held: readonly Action[]): string {
  const labels = actionMarks(held)
    .filter((m) => m.held)
    .map((m) => m.label)
  return labels.length > 0 ? labels.join(', ') : 'None'
}
