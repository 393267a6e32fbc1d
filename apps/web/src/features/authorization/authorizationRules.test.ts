import { ScreenMessages } from '@trove/contracts/screenMessages'
import { describe, expect, it } from 'vitest'
import { actionMarks, actionsSummary, capabilityLabel, emptyRepositoriesText, roleLabel } from './authorizationRules'

describe('the authorization screen’s rules', () => {
  it('marks every action of the model in its order, held or not', () => {
    expect(actionMarks(['deploy', 'read'])).toEqual([
      { action: 'read', label: 'Read', held: true },
      { action: 'annotate', label: 'Annotate', held: false },
      { action: 'deploy', label: 'Deploy/Cache', held: true },
      { action: 'delete', label: 'Delete/Overwrite', held: false },
      { action: 'manage', label: 'Manage', held: false },
    ])
  })

  it('says through which group a role is held', () => {
    expect(roleLabel({ role: 'Developer', via: 'group', group: 'readers' })).toBe('Developer (through the group readers)')
    expect(roleLabel({ role: 'Viewer', via: 'user', group: null })).toBe('Viewer')
  })

  it('sums up a project’s actions in the model’s order, or None', () => {
    expect(actionsSummary(['manage', 'read'])).toBe('Read, Manage')
    expect(actionsSummary([])).toBe('None')
  })

  it('names capabilities, and keeps an unknown one as it is', () => {
    expect(capabilityLabel('manage_members')).toBe('Manage members')
    expect(capabilityLabel('something_new')).toBe('something_new')
  })

  it('tells nothing held from nothing matching', () => {
    expect(emptyRepositoriesText('')).toBe(ScreenMessages.noRepositoryPermissions)
    expect(emptyRepositoriesText('  ')).toBe(ScreenMessages.noRepositoryPermissions)
    expect(emptyRepositoriesText('libs')).toBe(ScreenMessages.noRepositoryMatches)
  })
})
