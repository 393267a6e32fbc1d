import { describe, expect, it } from 'vitest'
import { Limits } from './limits.js'
import { format, Messages } from './messages.js'

describe('format', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(format(Messages.chunkLoadFailed, { id: 42 })).toBe('Loading chunk 42 failed')
    expect(format(Messages.retentionFetchFailed, { message: 'timeout' })).toBe(
      'There was an error while trying to fetch retention feature status: timeout',
    )
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}')
  })
})

describe('the constants', () => {
  it('hold the specification texts verbatim', () => {
    expect(Messages.errorHeader).toBe('Oops!')
    expect(Messages.notAuthorized).toBe('You are not authorized to view this page')
    expect(Messages.invalidName).toBe('Name can only contain alphanumeric characters, dashes and periods')
  })

  it('hold the specification limits', () => {
    expect(Limits.chunkScriptTimeoutMs).toBe(120000)
    expect(Limits.uploadLimitBytes).toBe(13 * 1024 * 1024)
    expect(Limits.postLoginPathLifetimeMs).toBe(8 * 3600 * 1000)
  })
})
