import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { hashPassword } from '../../core/passwords.js'
import { insertUser } from '../users/repo.js'
import { INVALID_CODE, MFA_MAX_FAILURES, SIGN_IN_AGAIN, TOO_MANY_CODES } from './mfa.js'

let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  for (const name of ['bob', 'carol', 'dave']) {
    await insertUser(t.app.db.kysely, { name, email: null, passwordHash: await hashPassword(`${name}-password`), admin: false })
  }
})
afterAll(() => t.close())

const headers = sessionHeaders
const code = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  })

async function login(user: string) {
  const res = await t.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login',
    payload: { user, password: `${user}-password`, type: 'login' },
  })
  const pairs = [res.headers['set-cookie']].flat().map((c) => String(c).split(';')[0])
  const session: Session = {
    cookie: pairs.join('; '),
    csrf: pairs.find((p) => p?.startsWith('trove_csrf='))?.slice(11) ?? '',
    setCookies: [],
  }
  return { status: res.statusCode, user: res.json(), session }
}
const current = (s: Session) =>
  t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/current', headers: { cookie: s.cookie } })
const enrollStart = (s: Session) => t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/mfa/enroll', headers: headers(s) })
const enrollConfirm = (s: Session, otp: string, password?: string) =>
  t.fastify.inject({ method: 'POST', url: '/ui/api/v1/ui/auth/mfa/enroll', headers: headers(s), payload: { otp, password } })
const verify = (s: Session, otp: string, withCsrf = true) =>
  t.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/mfa/verify',
    headers: withCsrf ? headers(s) : { cookie: s.cookie },
    payload: { authenticatorType: 'google', otp },
  })
const requireFor = (name: string, required: boolean) =>
  t.fastify.inject({
    method: 'PUT',
    url: `/ui/api/v1/ui/admin/users/${name}/mfa`,
    headers: headers(admin),
    payload: { required },
  })

describe('MFA required for a user', () => {
  let secret = ''

  it('makes sign-in answer enroll, with a session that grants nothing yet', async () => {
    expect((await requireFor('bob', true)).statusCode).toBe(200)
    const { status, user, session } = await login('bob')
    expect(status).toBe(200)
    expect(user).toMatchObject({ name: 'bob', mfaStatus: 'enroll' })
    expect((await current(session)).json().anonymous).toBe(true)

    const started = await enrollStart(session)
    expect(started.statusCode).toBe(200)
    const enrollment = started.json()
    expect(enrollment.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(enrollment.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Trove:bob\?/)
    expect(enrollment.qrCode).toMatch(/^data:image\/png;base64,/)
    secret = enrollment.secret

    const wrong = await enrollConfirm(session, '000000')
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json().errors[0].message).toBe(INVALID_CODE)

    const confirmed = await enrollConfirm(session, code(secret))
    expect(confirmed.statusCode).toBe(200)
    expect(confirmed.json()).toMatchObject({ name: 'bob', mfaStatus: 'none' })
    expect((await current(session)).json()).toMatchObject({ name: 'bob', anonymous: false })
  })

  it('then asks for a code at every sign-in; a code cannot be used twice', async () => {
    const { user, session } = await login('bob')
    expect(user.mfaStatus).toBe('verify')
    expect((await enrollStart(session)).statusCode).toBe(403)
    // The code of the step used at enrolment is spent.
    expect((await verify(session, code(secret))).statusCode).toBe(401)
    expect((await verify(session, code(secret, 1), false)).statusCode).toBe(403)
    const ok = await verify(session, code(secret, 1))
    expect(ok.statusCode).toBe(200)
    expect((await current(session)).json().name).toBe('bob')

    const again = await login('bob')
    expect((await verify(again.session, code(secret, 1))).statusCode).toBe(401)
  })

  it(`ends a pending sign-in after ${MFA_MAX_FAILURES} wrong codes`, async () => {
    const { session } = await login('bob')
    for (let i = 1; i < MFA_MAX_FAILURES; i++) expect((await verify(session, '123456')).statusCode).toBe(401)
    const last = await verify(session, '123456')
    expect(last.statusCode).toBe(403)
    expect(last.json().errors[0].message).toBe(TOO_MANY_CODES)
    const after = await verify(session, code(secret, -1))
    expect(after.statusCode).toBe(403)
    expect(after.json().errors[0].message).toBe(SIGN_IN_AGAIN)
  })

  it('cannot be verified without a pending sign-in', async () => {
    const res = await verify(admin, '123456')
    expect(res.statusCode).toBe(403)
    expect(res.json().errors[0].message).toBe(SIGN_IN_AGAIN)
  })
})

describe('MFA required for everyone', () => {
  it('is switched by an admin only, and applies to users without MFA', async () => {
    const carol = await signIn(t.fastify, 'carol', 'carol-password')
    const refused = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/mfa',
      headers: headers(carol),
      payload: { required: true },
    })
    expect(refused.statusCode).toBe(403)

    const set = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/mfa',
      headers: headers(admin),
      payload: { required: true },
    })
    expect(set.statusCode).toBe(200)
    expect((await login('carol')).user.mfaStatus).toBe('enroll')

    await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/mfa',
      headers: headers(admin),
      payload: { required: false },
    })
    expect((await login('carol')).user.mfaStatus).toBe('none')
  })
})

describe('enrolling from the profile', () => {
  it('turns MFA on for a signed-in user who was not required to', async () => {
    const dave = await signIn(t.fastify, 'dave', 'dave-password')
    const { secret } = (await enrollStart(dave)).json()
    // From the profile, the current password goes with the code.
    const bare = await enrollConfirm(dave, code(secret, -1))
    expect(bare.statusCode).toBe(400)
    expect(bare.json().errors[0].message).toBe('Enter your current password to turn on two-step verification')
    expect((await enrollConfirm(dave, code(secret, -1), 'not-the-password')).statusCode).toBe(401)
    // One step of clock drift either side is allowed, two are not.
    expect((await enrollConfirm(dave, code(secret, 2), 'dave-password')).statusCode).toBe(401)
    expect((await enrollConfirm(dave, code(secret, -2), 'dave-password')).statusCode).toBe(401)
    expect((await enrollConfirm(dave, code(secret, -1), 'dave-password')).statusCode).toBe(200)
    // Once on, a session cannot replace the secret.
    expect((await enrollStart(dave)).statusCode).toBe(409)
    const next = await login('dave')
    expect(next.user.mfaStatus).toBe('verify')
    expect((await verify(next.session, code(secret, 2))).statusCode).toBe(401)
    expect((await verify(next.session, code(secret, 1))).statusCode).toBe(200)
    expect((await current(next.session)).json()).toMatchObject({ name: 'dave', anonymous: false })
  })
})

describe('account security through a token (finding 4 of the security probe)', () => {
  it('a token of any scope can neither start nor confirm an enrolment, so it cannot replace the owner’s second step', async () => {
    await insertUser(t.app.db.kysely, {
      name: 'erin',
      email: null,
      passwordHash: await hashPassword('erin-password'),
      admin: false,
    })
    const erin = await signIn(t.fastify, 'erin', 'erin-password')
    for (const scope of ['read', 'deploy', 'full']) {
      const made = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/userIdentifyToken/erin',
        headers: headers(erin),
        payload: { expiresIn: 600, ...(scope === 'full' ? {} : { scope }) },
      })
      expect(made.statusCode).toBe(200)
      const bearer = { authorization: `Bearer ${made.json().access_token}` }
      const start = await t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/mfa/enroll', headers: bearer })
      expect(start.statusCode, scope).toBe(403)
      const confirm = await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/auth/mfa/enroll',
        headers: bearer,
        payload: { otp: '123456', password: 'erin-password' },
      })
      expect(confirm.statusCode, scope).toBe(403)
    }
    // The owner's password sign-in still asks for no code.
    expect((await login('erin')).user.mfaStatus).toBe('none')
  })

  it('200 codes sent at once for one pending sign-in: at most the limit are checked, then it ends', async () => {
    expect((await requireFor('carol', true)).statusCode).toBe(200)
    const { session } = await login('carol')
    const { secret } = (await enrollStart(session)).json()
    const right = code(secret)
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        enrollConfirm(session, i === 150 ? right : String(100000 + i)).then((r) => r.statusCode),
      ),
    )
    const checked = statuses.filter((s) => s === 401 || s === 200).length
    expect(checked).toBeLessThanOrEqual(MFA_MAX_FAILURES)
    expect(statuses).not.toContain(200)
    // The pending sign-in is over: the right code no longer completes it.
    expect((await enrollConfirm(session, right)).statusCode).toBe(403)
  })
})

describe('one-time codes over many pending sign-ins', () => {
  it('are limited per user too: with the password known, sign-in after sign-in gets no more than 10 guesses', async () => {
    await insertUser(t.app.db.kysely, {
      name: 'gina',
      email: null,
      passwordHash: await hashPassword('gina-password'),
      admin: false,
    })
    expect((await requireFor('gina', true)).statusCode).toBe(200)
    // Gina enrols; then someone with her password guesses codes.
    const first = await login('gina')
    const { secret } = (await enrollStart(first.session)).json()
    expect((await enrollConfirm(first.session, code(secret))).statusCode).toBe(200)
    const statuses: number[] = []
    for (let round = 0; round < 4; round++) {
      const { session } = await login('gina')
      for (let i = 0; i < 3; i++) statuses.push((await verify(session, String(100000 + round * 10 + i))).statusCode)
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(10)
    expect(statuses.slice(10)).toEqual([403, 403])
    // Even the right code is refused now, in a fresh pending sign-in, until the window ends.
    const { session } = await login('gina')
    expect((await verify(session, code(secret, 1))).statusCode).toBe(403)
  })
})
