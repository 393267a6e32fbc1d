import { describe, expect, it } from 'vitest'
import { DEMO_ADMIN_PREFIX, DEMO_ADMIN_TEASERS, demoAdminTeaser, MODULE_TEASERS, type Teaser } from './teasers'

/** Shell §2.3's demo admin modules, by their admin path. */
const SPEC_DEMO_PATHS = {
  'projects list': 'projects/list',
  'LDAP security': 'configuration/security/ldap',
  environments: 'environments',
  'users management': 'management/users',
  'general security': 'configuration/security/general',
  'general configuration': 'configuration/general',
  'platform monitoring': 'monitoring/service-status',
}

const wellFormed = (t: Teaser) => {
  expect(t.label.trim()).not.toBe('')
  expect(t.description.trim()).not.toBe('')
  expect(new URL(t.learnMoreUrl).protocol).toBe('https:')
  // Either bullets (a header and a content list) or cards (a label and a description), never both.
  expect(Boolean(t.bullets) !== Boolean(t.cards)).toBe(true)
  for (const b of t.bullets ?? []) {
    expect(b.header.trim()).not.toBe('')
    expect(b.content.length).toBeGreaterThan(0)
  }
  for (const c of t.cards ?? []) {
    expect(c.label.trim()).not.toBe('')
    expect(c.description.trim()).not.toBe('')
  }
}

describe('the demo teaser table (§2.3)', () => {
  it('has exactly the admin modules the spec names', () => {
    expect(Object.keys(DEMO_ADMIN_TEASERS).sort()).toEqual(Object.values(SPEC_DEMO_PATHS).sort())
    expect(DEMO_ADMIN_PREFIX).toBe('/demo/admin')
  })

  it.each(Object.entries(SPEC_DEMO_PATHS))('%s has a label, a description, a learn-more link and bullets or cards', (_, path) => {
    const teaser = demoAdminTeaser(path)
    expect(teaser).toBeDefined()
    if (teaser) wellFormed(teaser)
  })

  it('finds a path with slashes around it, and nothing for an unknown path', () => {
    expect(demoAdminTeaser('/projects/list/')).toBe(DEMO_ADMIN_TEASERS['projects/list'])
    expect(demoAdminTeaser('no/such/page')).toBeUndefined()
    expect(demoAdminTeaser('')).toBeUndefined()
    expect(demoAdminTeaser('toString')).toBeUndefined()
    // Module teasers have routes of their own, not demo paths.
    expect(demoAdminTeaser('pipelines')).toBeUndefined()
  })

  it('keeps the module teasers well formed too', () => {
    for (const teaser of Object.values(MODULE_TEASERS)) wellFormed(teaser)
  })
})
