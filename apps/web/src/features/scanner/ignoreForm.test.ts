import type { Violation } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { describe, expect, it } from 'vitest'
import { emptyIgnore, ignoreRuleOf, validateIgnore } from './ignoreForm'

const violation: Violation = {
  watch: 'npm',
  policy: 'no-high',
  type: 'security',
  issue: 'GHSA-35jh-r3h4-6jhm',
  severity: 'high',
  component: 'lodash',
  componentVersion: '4.17.20',
  packageId: 'npm://lodash',
  version: '4.17.20',
  repo: 'npm-local',
  blocksDownload: true,
  failsBuild: false,
}
const today = new Date(2026, 10, 25, 15, 30)

describe('the ignore form', () => {
  it('names the advisory and narrows the rule to the version, the package, or nothing', () => {
    const draft = { ...emptyIgnore(), reason: ' not reachable ' }
    expect(ignoreRuleOf(violation, draft)).toEqual({
      advisoryId: 'GHSA-35jh-r3h4-6jhm',
      license: null,
      packageId: 'npm://lodash',
      version: '4.17.20',
      reason: 'not reachable',
      expiresAt: null,
    })
    expect(ignoreRuleOf(violation, { ...draft, scope: 'package' })).toMatchObject({ packageId: 'npm://lodash', version: null })
    expect(ignoreRuleOf(violation, { ...draft, scope: 'everywhere' })).toMatchObject({ packageId: null, version: null })
  })

  it('names the licence of a licence violation', () => {
    const rule = ignoreRuleOf(
      { ...violation, type: 'license', issue: 'GPL-3.0-only', severity: null },
      { ...emptyIgnore(), reason: 'r' },
    )
    expect(rule).toMatchObject({ advisoryId: null, license: 'GPL-3.0-only' })
  })

  it('holds to the end of the expiry day, in local time', () => {
    const rule = ignoreRuleOf(violation, { ...emptyIgnore(), reason: 'r', expires: '2027-01-31' })
    expect(rule.expiresAt).toBe(new Date(2027, 0, 31, 23, 59, 59).toISOString())
  })

  it('needs a reason, and an expiry after today', () => {
    expect(validateIgnore(emptyIgnore(), today)).toEqual({ reason: ScreenMessages.scannerIgnoreNeedsReason })
    expect(validateIgnore({ ...emptyIgnore(), reason: 'r', expires: '2026-11-25' }, today)).toEqual({
      expiresAt: ScreenMessages.scannerIgnoreExpiryPast,
    })
    expect(validateIgnore({ ...emptyIgnore(), reason: 'r', expires: '2026-11-26' }, today)).toEqual({})
  })
})
