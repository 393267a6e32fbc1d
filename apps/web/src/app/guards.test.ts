import type { UserData } from '@trove/contracts/auth'
import { Messages } from '@trove/contracts/messages'
import { describe, expect, it } from 'vitest'
import { afterPassword, cliGuard, internalErrorGuard, landingGuard, POST_LOGIN_PATH, sessionGuard } from './guards'

const anonymous: UserData = { name: 'anonymous', realm: 'anonymous', admin: false, anonymous: true, mfaStatus: 'none' }
const alice: UserData = { name: 'alice', realm: 'internal', admin: false, anonymous: false, mfaStatus: 'none' }
const closed = { anonymousAccess: false }
const open = { anonymousAccess: true }
const page = { public: false, login: false }
const loginPage = { public: true, login: true }
const errorPage = { public: true, login: false }

describe('sessionGuard', () => {
  it('sends a signed-in user who opens a sign-in route to the post-login route', () => {
    expect(sessionGuard(loginPage, alice, closed)).toEqual({ kind: 'redirect', to: POST_LOGIN_PATH })
  })

  it('lets an anonymous user reach sign-in routes and public pages', () => {
    expect(sessionGuard(loginPage, anonymous, closed)).toEqual({ kind: 'allow' })
    expect(sessionGuard(errorPage, anonymous, closed)).toEqual({ kind: 'allow' })
  })

  it('sends an anonymous user on a non-public page to login with logout and the not-authorized notice', () => {
    expect(sessionGuard(page, anonymous, closed)).toEqual({
      kind: 'redirect',
      to: '/login',
      search: { logout: true },
      notice: Messages.notAuthorized,
      logout: true,
    })
  })

  it('lets anonymous users through when anonymous access is allowed', () => {
    expect(sessionGuard(page, anonymous, open)).toEqual({ kind: 'allow' })
  })

  it('lets a signed-in user through', () => {
    expect(sessionGuard(page, alice, closed)).toEqual({ kind: 'allow' })
  })
})

describe('internalErrorGuard', () => {
  it('redirects the 500 page to / when there is no previous route', () => {
    expect(internalErrorGuard(undefined)).toEqual({ kind: 'redirect', to: '/' })
    expect(internalErrorGuard('/overview')).toEqual({ kind: 'allow' })
  })
})

describe('landingGuard', () => {
  it('lands anonymous users on login and signed-in users on the overview', () => {
    expect(landingGuard(anonymous, closed)).toEqual({ kind: 'redirect', to: '/login' })
    expect(landingGuard(alice, closed)).toEqual({ kind: 'redirect', to: '/overview' })
  })
})

describe('afterPassword', () => {
  it('sends enroll to MFA enrolment, verify to the one-time-code screen, the rest on', () => {
    expect(afterPassword('enroll')).toBe('/login/mfa-enroll')
    expect(afterPassword('verify')).toBe('/login/otp-login')
    expect(afterPassword('none')).toBe(POST_LOGIN_PATH)
  })
})

describe('the command-line sign-in', () => {
  it('comes first after sign-in when a client is waiting', () => {
    expect(landingGuard(alice, closed, true)).toEqual({ kind: 'redirect', to: '/plugs/extension/cli/verify' })
    expect(landingGuard(anonymous, closed, true)).toEqual({ kind: 'redirect', to: '/login' })
  })

  it('sends the CLI routes without a stored client session to login with logout', () => {
    expect(cliGuard(alice, false)).toEqual({ kind: 'redirect', to: '/login', search: { logout: true }, logout: true })
    expect(cliGuard(anonymous, true)).toEqual({ kind: 'redirect', to: '/login' })
    expect(cliGuard(alice, true)).toEqual({ kind: 'allow' })
  })
})
