import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailText, startSmtp } from '../../../test/smtp.js'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { MAIL_NOT_CONFIGURED } from '../../core/mail.js'
import { hashPassword } from '../../core/passwords.js'
import { insertUser } from '../users/repo.js'
import { INVALID_LINK, PASSWORD_EXPIRED } from './passwordFlows.js'

let t: TestApp
let admin: Session
let smtp: Awaited<ReturnType<typeof startSmtp>>
const auth = '/ui/api/v1/ui/auth'
const headers = sessionHeaders

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await insertUser(t.app.db.kysely, {
    name: 'erin',
    email: 'erin@example.com',
    passwordHash: await hashPassword('erin-password'),
    admin: false,
  })
  await insertUser(t.app.db.kysely, {
    name: 'frank',
    email: null,
    passwordHash: await hashPassword('frank-password'),
    admin: false,
  })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

const forgot = (user: string) => t.fastify.inject({ method: 'POST', url: `${auth}/forgotPassword`, payload: { user } })
const configureMail = () =>
  t.fastify.inject({
    method: 'PUT',
    url: '/ui/api/v1/ui/admin/configuration/mail',
    headers: headers(admin),
    payload: {
      enabled: true,
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'trove@example.com',
      baseUrl: 'https://trove.example.com/',
    },
  })

describe('forgot password', () => {
  it('says plainly when no mail server is configured', async () => {
    const res = await forgot('erin')
    expect(res.statusCode).toBe(503)
    expect(res.json().errors[0].message).toBe(MAIL_NOT_CONFIGURED)
  })

  it('mails a single-use link; the answer is the same for unknown users and users without an address', async () => {
    const configured = await configureMail()
    expect(configured.statusCode).toBe(200)
    expect(configured.json()).toMatchObject({ host: '127.0.0.1', passwordSet: false })

    for (const user of ['ghost', 'frank']) {
      const res = await forgot(user)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({})
    }
    expect(smtp.mails).toHaveLength(0)

    const res = await forgot('erin')
    expect(res.statusCode).toBe(200)
    const mail = await smtp.next()
    expect(mail.to).toEqual(['erin@example.com'])
    expect(mail.from).toBe('trove@example.com')
    const text = mailText(mail.raw)
    expect(text).toContain('Subject: Reset your Trove password')
    const key = /https:\/\/trove\.example\.com\/ui\/login\/reset-password\?key=([\w-]+)/.exec(text)?.[1] ?? ''
    expect(key.length).toBeGreaterThan(20)

    const validated = await t.fastify.inject({ method: 'POST', url: `${auth}/validateToken?key=${key}` })
    expect(validated.json()).toEqual({ user: 'erin' })

    const erin = await signIn(t.fastify, 'erin', 'erin-password')
    const reset = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/resetPassword?key=${key}`,
      payload: { user: 'erin', password: 'new-erin-password' },
    })
    expect(reset.statusCode).toBe(200)
    // The new password works, the old one and the old sessions do not, and the link is spent.
    await signIn(t.fastify, 'erin', 'new-erin-password')
    expect(
      (await t.fastify.inject({ method: 'GET', url: `${auth}/current`, headers: { cookie: erin.cookie } })).json().anonymous,
    ).toBe(true)
    const old = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/login`,
      payload: { user: 'erin', password: 'erin-password', type: 'login' },
    })
    expect(old.statusCode).toBe(401)
    const again = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/resetPassword?key=${key}`,
      payload: { user: 'erin', password: 'another-password' },
    })
    expect(again.statusCode).toBe(400)
    expect(again.json().errors[0].message).toBe(INVALID_LINK)
  })

  it('a reset from the mail lifts a sign-in lock; a link mailed before a password change no longer works', async () => {
    const guess = (ip: string, password = 'wrong-guess') =>
      t.fastify.inject({
        method: 'POST',
        url: `${auth}/login`,
        remoteAddress: ip,
        payload: { user: 'erin', password, type: 'login' },
      })
    // Locked out from 10.20.0.1 by someone's guesses there (the owner's own address, a shared NAT).
    for (let i = 0; i < 5; i++) expect((await guess('10.20.0.1')).statusCode).toBe(401)
    expect((await guess('10.20.0.1', 'new-erin-password')).statusCode).toBe(403)
    expect((await forgot('erin')).statusCode).toBe(200)
    const first = /key=([\w-]+)/.exec(mailText((await smtp.next()).raw))?.[1] ?? ''
    expect((await forgot('erin')).statusCode).toBe(200)
    const second = /key=([\w-]+)/.exec(mailText((await smtp.next()).raw))?.[1] ?? ''
    const reset = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/resetPassword?key=${second}`,
      payload: { user: 'erin', password: 'third-erin-password' },
    })
    expect(reset.statusCode).toBe(200)
    expect((await guess('10.20.0.1', 'third-erin-password')).statusCode).toBe(200)
    // The other link, mailed before the reset, is spent with it.
    const replay = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/resetPassword?key=${first}`,
      payload: { user: 'erin', password: 'attacker-password' },
    })
    expect(replay.statusCode).toBe(400)
    expect(replay.json().errors[0].message).toBe(INVALID_LINK)
  })

  it('an administrator sees a user’s sign-in lock and lifts it; both are in the audit log', async () => {
    const guess = (password: string) =>
      t.fastify.inject({
        method: 'POST',
        url: `${auth}/login`,
        remoteAddress: '10.21.0.1',
        payload: { user: 'frank', password, type: 'login' },
      })
    const lock = () => t.fastify.inject({ url: '/ui/api/v1/ui/admin/users/frank/signInLock', headers: headers(admin) })
    expect((await lock()).json()).toEqual({ lockedUntil: null })
    for (let i = 0; i < 5; i++) await guess('wrong-guess')
    expect((await guess('frank-password')).statusCode).toBe(403)
    expect((await lock()).json().lockedUntil).toBeGreaterThan(Date.now())
    const lifted = await t.fastify.inject({
      method: 'DELETE',
      url: '/ui/api/v1/ui/admin/users/frank/signInLock',
      headers: headers(admin),
    })
    expect(lifted.statusCode).toBe(204)
    expect((await lock()).json()).toEqual({ lockedUntil: null })
    expect((await guess('frank-password')).statusCode).toBe(200)
    const audit = await t.fastify.inject({ url: '/ui/api/v1/ui/admin/audit?targetType=user', headers: headers(admin) })
    const actions = audit
      .json()
      .items.filter((e: { targetName: string }) => e.targetName === 'frank')
      .map((e: { action: string }) => e.action)
    expect(actions).toEqual(expect.arrayContaining(['signin.locked', 'signin.unlocked']))
    // An address locked for every name (someone's script behind the office's address): all locks go at once.
    for (let i = 0; i < 20; i++) {
      await t.fastify.inject({
        method: 'POST',
        url: `${auth}/login`,
        remoteAddress: '10.22.0.1',
        payload: { user: `guess-${i}`, password: 'x', type: 'login' },
      })
    }
    const fromOffice = () =>
      t.fastify.inject({
        method: 'POST',
        url: `${auth}/login`,
        remoteAddress: '10.22.0.1',
        payload: { user: 'frank', password: 'frank-password', type: 'login' },
      })
    expect((await fromOffice()).statusCode).toBe(403)
    expect(
      (await t.fastify.inject({ method: 'DELETE', url: '/ui/api/v1/ui/admin/security/signInLocks', headers: headers(admin) }))
        .statusCode,
    ).toBe(204)
    expect((await fromOffice()).statusCode).toBe(200)
    // Only an administrator may.
    const frank = await signIn(t.fastify, 'frank', 'frank-password')
    const refused = await t.fastify.inject({
      method: 'DELETE',
      url: '/ui/api/v1/ui/admin/users/frank/signInLock',
      headers: headers(frank),
    })
    expect(refused.statusCode).toBe(403)
  })

  it('links expire after an hour', async () => {
    await forgot('erin')
    const key = /reset-password\?key=([\w-]+)/.exec(mailText((await smtp.next()).raw))?.[1] ?? ''
    await t.app.db.kysely
      .updateTable('mail_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('used_at', 'is', null)
      .execute()
    const res = await t.fastify.inject({ method: 'POST', url: `${auth}/validateToken?key=${key}` })
    expect(res.statusCode).toBe(400)
  })

  it('rejects a short new password with 400 naming the field', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/resetPassword?key=whatever`,
      payload: { user: 'erin', password: 'short' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/body\.password: A password has at least 8 characters/)
  })
})

describe('password expiry and change', () => {
  it('sends an expired password to be changed, then signs in with the new one', async () => {
    await insertUser(t.app.db.kysely, {
      name: 'gina',
      email: null,
      passwordHash: await hashPassword('gina-password'),
      admin: false,
    })
    const policy = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/passwordPolicy',
      headers: headers(admin),
      payload: { expiryDays: 90 },
    })
    expect(policy.statusCode).toBe(200)
    await t.app.db.kysely
      .updateTable('users')
      .set({ password_changed_at: Date.now() - 91 * 86_400_000 })
      .where('name', '=', 'gina')
      .execute()

    const login = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/login`,
      payload: { user: 'gina', password: 'gina-password', type: 'login' },
    })
    expect(login.statusCode).toBe(403)
    expect(login.json().errors[0]).toEqual({ status: 403, message: PASSWORD_EXPIRED, code: 'CREDENTIALS_EXPIRED' })

    const wrongOld = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/changePassword?prefix=changePassword`,
      payload: { userName: 'gina', oldPassword: 'nope', newPassword1: 'gina-new-password' },
    })
    expect(wrongOld.statusCode).toBe(401)
    const mismatch = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/changePassword?prefix=changePassword`,
      payload: { userName: 'gina', oldPassword: 'gina-password', newPassword1: 'gina-new-password', newPassword2: 'other' },
    })
    expect(mismatch.statusCode).toBe(400)
    expect(mismatch.json().errors[0].message).toMatch(/newPassword2: The new passwords do not match/)

    const changed = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/changePassword?prefix=changePassword`,
      payload: {
        userName: 'gina',
        oldPassword: 'gina-password',
        newPassword1: 'gina-new-password',
        newPassword2: 'gina-new-password',
      },
    })
    expect(changed.statusCode).toBe(200)
    await signIn(t.fastify, 'gina', 'gina-new-password')
    await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/passwordPolicy',
      headers: headers(admin),
      payload: { expiryDays: 0 },
    })
  })
})

describe('the profile', () => {
  it('needs the password again, and sets the e-mail address reset mails go to', async () => {
    const refused = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userProfile',
      headers: headers(admin),
      payload: { password: 'wrong' },
    })
    expect(refused.statusCode).toBe(401)
    const updated = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/userProfile',
      headers: headers(admin),
      payload: { email: 'admin@example.com', password: ADMIN_PASSWORD },
    })
    expect(updated.statusCode).toBe(200)
    expect(updated.json()).toEqual({
      name: 'admin',
      email: 'admin@example.com',
      realm: 'internal',
      admin: true,
      mfaEnabled: false,
    })
    const bad = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/userProfile',
      headers: headers(admin),
      payload: { email: 'not-an-address', password: ADMIN_PASSWORD },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toMatch(/body\.email/)
  })
})
