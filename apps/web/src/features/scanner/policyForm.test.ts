import { format, Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { describe, expect, it } from 'vitest'
import { draftOf, emptyPolicy, policyOf, validatePolicy } from './policyForm'

describe('the policy form', () => {
  it('sends an empty allow-list as "any licence" and trims names and ids', () => {
    const policy = policyOf({ ...emptyPolicy(), name: '  no-high ', deniedLicenses: [' GPL-3.0-only', 'GPL-3.0-only'] })
    expect(policy).toEqual({
      name: 'no-high',
      description: '',
      minSeverity: 'high',
      allowedLicenses: null,
      deniedLicenses: ['GPL-3.0-only'],
      actions: { notify: true, failBuild: false, blockDownload: false },
    })
    expect(policyOf({ ...emptyPolicy(), minSeverity: '' }).minSeverity).toBeNull()
  })

  it('reads a saved policy back into the form unchanged', () => {
    const saved = {
      name: 'licences',
      description: 'copyleft out',
      minSeverity: null,
      allowedLicenses: ['MIT', 'Apache-2.0'],
      deniedLicenses: [],
      actions: { notify: false, failBuild: true, blockDownload: true },
    }
    expect(policyOf(draftOf(saved))).toEqual(saved)
  })

  it('needs a name, and a rule that can be violated', () => {
    expect(validatePolicy({ ...emptyPolicy(), name: ' ' })).toEqual({ name: Messages.fieldMandatory })
    expect(validatePolicy({ ...emptyPolicy(), name: 'p', minSeverity: '' })).toEqual({
      minSeverity: ScreenMessages.scannerPolicyNeedsRule,
    })
    expect(validatePolicy({ ...emptyPolicy(), name: 'p', minSeverity: '', deniedLicenses: ['AGPL-3.0-only'] })).toEqual({})
  })

  it('refuses a licence both allowed and denied', () => {
    expect(
      validatePolicy({ ...emptyPolicy(), name: 'p', allowedLicenses: ['MIT', 'BSD-3-Clause'], deniedLicenses: ['MIT'] }),
    ).toEqual({
      deniedLicenses: format(ScreenMessages.scannerLicenceAllowedAndDenied, { ids: 'MIT' }),
    })
  })
})
