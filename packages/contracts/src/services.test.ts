import { describe, expect, it } from 'vitest'
import { MODULE_TYPES, modulesSetting } from './services.js'

describe('modulesSetting', () => {
  it('names the services in the product order, without repeats', () => {
    expect(modulesSetting(['scanner', 'repository'])).toBe('TROVE_MODULES=repository,scanner')
    expect(modulesSetting(['distribution', 'repository', 'distribution'])).toBe('TROVE_MODULES=repository,distribution')
    expect(modulesSetting(['insight', 'scanner'])).toBe('TROVE_MODULES=scanner,insight')
  })

  it('unsets the variable when the services are every module and nothing else', () => {
    expect(modulesSetting([...MODULE_TYPES].reverse())).toBe('unset TROVE_MODULES')
    // Unset would drop the insight heartbeat: the list is written out instead.
    expect(modulesSetting([...MODULE_TYPES, 'insight'])).toBe('TROVE_MODULES=repository,scanner,distribution,insight')
  })
})
