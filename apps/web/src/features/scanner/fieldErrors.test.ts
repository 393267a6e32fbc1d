import { describe, expect, it } from 'vitest'
import { ApiError } from '../../lib/api'
import { fieldErrors } from './fieldErrors'

const FIELDS = ['name', 'minSeverity', 'deniedLicenses', 'allowedLicenses'] as const

describe('fieldErrors', () => {
  it('puts schema refusals on their fields, items of a list on the list', () => {
    const error = new ApiError(
      400,
      'Invalid request: body.deniedLicenses.1: unknown SPDX licence id NOT-A-LICENCE; body.minSeverity: expected one of critical, high, medium, low, unknown',
    )
    expect(fieldErrors(error, FIELDS)).toEqual({
      fields: {
        deniedLicenses: 'unknown SPDX licence id NOT-A-LICENCE',
        minSeverity: 'expected one of critical, high, medium, low, unknown',
      },
      other: null,
    })
  })

  it("reads the service's own refusals, which name the field without body.", () => {
    const error = new ApiError(409, 'name: a policy named no-high already exists')
    expect(fieldErrors(error, FIELDS).fields).toEqual({ name: 'a policy named no-high already exists' })
  })

  it('joins two refusals of one field and keeps what names no known field apart', () => {
    const error = new ApiError(
      400,
      'Invalid request: body.allowedLicenses.0: unknown SPDX licence id A; body.allowedLicenses.2: unknown SPDX licence id B; body: too big',
    )
    expect(fieldErrors(error, FIELDS)).toEqual({
      fields: { allowedLicenses: 'unknown SPDX licence id A; unknown SPDX licence id B' },
      other: 'body: too big',
    })
    const conflict = new ApiError(409, 'The policy p is applied by the watches w')
    expect(fieldErrors(conflict, FIELDS)).toEqual({ fields: {}, other: 'The policy p is applied by the watches w' })
  })
})
