import { beforeEach, describe, expect, it } from 'vitest'
import { clearCliLogin, saveCliLogin, storedCliLogin } from './cliLogin'

beforeEach(() => sessionStorage.clear())

describe('the stored command-line sign-in', () => {
  it('keeps the values the sign-in URL carries', () => {
    saveCliLogin({ jfClientSession: 'abc-123-session-xyz9', jfClientName: 'trove-cli', jfClientCode: 1 })
    expect(storedCliLogin()).toEqual({ session: 'abc-123-session-xyz9', name: 'trove-cli', code: '1' })
    clearCliLogin()
    expect(storedCliLogin()).toBeNull()
  })

  it('keeps nothing without a client session, and survives garbage', () => {
    saveCliLogin({ jfClientName: 'trove-cli' })
    expect(storedCliLogin()).toBeNull()
    sessionStorage.setItem('trove.cliLogin', '{not json')
    expect(storedCliLogin()).toBeNull()
  })
})
