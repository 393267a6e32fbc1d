import { Messages } from '@trove/contracts/messages'
import { ALL_REPOSITORIES, type SecurityWatch } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'

/** The watch form's fields: what it covers (repositories or all, projects, builds) and the policies applied. */
export interface WatchDraft {
  name: string
  allRepositories: boolean
  repositories: string[]
  policies: string[]
  builds: string[]
  projects: string[]
}

export type WatchField = 'name' | 'repositories' | 'policies'
export const WATCH_FIELDS: readonly WatchField[] = ['name', 'repositories', 'policies']

export const emptyWatch = (): WatchDraft => ({
  name: '',
  allRepositories: false,
  repositories: [],
  policies: [],
  builds: [],
  projects: [],
})

export const watchDraftOf = (w: SecurityWatch): WatchDraft => ({
  name: w.name,
  allRepositories: w.repositories.includes(ALL_REPOSITORIES),
  repositories: w.repositories.filter((r) => r !== ALL_REPOSITORIES),
  policies: [...w.policies],
  builds: [...w.builds],
  projects: [...w.projects],
})

export const watchOf = (d: WatchDraft): SecurityWatch => ({
  name: d.name.trim(),
  repositories: d.allRepositories ? [ALL_REPOSITORIES] : d.repositories,
  builds: d.builds,
  projects: d.projects,
  policies: d.policies,
})

export function validateWatch(d: WatchDraft): Partial<Record<WatchField, string>> {
  const errors: Partial<Record<WatchField, string>> = {}
  const name = d.name.trim()
  if (!name) errors.name = Messages.fieldMandatory
  else if (name.length > 128) errors.name = 'At most 128 characters'
  if (!d.allRepositories && d.repositories.length === 0 && d.projects.length === 0 && d.builds.length === 0)
    errors.repositories = ScreenMessages.scannerWatchNeedsRepository
  if (d.policies.length === 0) errors.policies = ScreenMessages.scannerWatchNeedsPolicy
  return errors
}
