import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailText, startSmtp } from '../../../test/smtp.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { INVALID_INVITATION, REGISTRATION_CLOSED } from './accounts.js'

let t: TestApp
let admin: Session
let smtp: Awaited<ReturnType<typeof startSmtp>>
const headers = sessionHeaders
const auth = '/ui/api/v1/ui/auth'

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await t.fastify.inject({
    method: 'PUT',
    url: '/ui/api/v1/ui/admin/configuration/mail',
    headers: headers(admin),
    payload: {
      enabled: true,
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      from: 'trove@example.com',
      baseUrl: 'https://trove.example.com',
    },
  })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

const register = (payload: object) => t.fastify.inject({ method: 'POST', url: `${auth}/register`, payload })
const loginData = async () => (await t.fastify.inject({ method: 'GET', url: `${auth}/screen/loginRelatedData` })).json()

describe('self-registration', () => {
  it('is closed until an admin opens it', async () => {
    expect((await loginData()).registrationEnabled).toBe(false)
    const closed = await register({ name: 'henry', email: 'henry@example.com', password: 'henry-password' })
    expect(closed.statusCode).toBe(403)
    expect(closed.json().errors[0].message).toBe(REGISTRATION_CLOSED)

    const opened = await t.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/security/registration',
      headers: headers(admin),
      payload: { enabled: true },
    })
    expect(opened.statusCode).toBe(200)
    const setting = await t.fastify.inject({ url: '/ui/api/v1/ui/admin/security/registration', headers: headers(admin) })
    expect(setting.json()).toEqual({ enabled: true })
    expect((await t.fastify.inject({ url: '/ui/api/v1/ui/admin/security/registration' })).statusCode).toBe(401)
    expect(await loginData()).toMatchObject({
      forgotPassword: true,
      canRememberMe: true,
      passwordAutocompleteEnabled: true,
      registrationEnabled: true,
    })

    const res = await register({ name: 'henry', email: 'henry@example.com', password: 'henry-password' })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ name: 'henry', admin: false })
    await signIn(t.fastify, 'henry', 'henry-password')
  })

  it('refuses a taken name with 409 and a bad one with the name rule', async () => {
    const taken = await register({ name: 'henry', email: 'other@example.com', password: 'another-password' })
    expect(taken.statusCode).toBe(409)
    expect(taken.json().errors[0].message).toBe('A user named henry already exists')
    const bad = await register({ name: 'hen ry!', email: 'x@example.com', password: 'another-password' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toContain('Name can only contain alphanumeric characters, dashes and periods')
  })
})

describe('invitations', () => {
  it('mail a link that makes an account once, with the invited address', async () => {
    const sent = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/invitations',
      headers: headers(admin),
      payload: { email: 'iris@example.com' },
    })
    expect(sent.statusCode).toBe(201)
    const mail = await smtp.next()
    expect(mail.to).toEqual(['iris@example.com'])
    const token = /\/ui\/login\/invitation\?token=([\w-]+)/.exec(mailText(mail.raw))?.[1] ?? ''
    expect((await t.fastify.inject({ method: 'GET', url: `${auth}/invitation?token=${token}` })).json()).toEqual({
      email: 'iris@example.com',
    })

    const accepted = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/invitation?token=${token}`,
      payload: { name: 'iris', password: 'iris-password' },
    })
    expect(accepted.statusCode).toBe(201)
    const iris = await signIn(t.fastify, 'iris', 'iris-password')
    const profile = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userProfile',
      headers: headers(iris),
      payload: { password: 'iris-password' },
    })
    expect(profile.json().email).toBe('iris@example.com')

    const again = await t.fastify.inject({
      method: 'POST',
      url: `${auth}/invitation?token=${token}`,
      payload: { name: 'iris2', password: 'iris-password' },
    })
    expect(again.statusCode).toBe(400)
    expect(again.json().errors[0].message).toBe(INVALID_INVITATION)
  })

  it('are sent by admins only, and expire', async () => {
    const henry = await signIn(t.fastify, 'henry', 'henry-password')
    const refused = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/invitations',
      headers: headers(henry),
      payload: { email: 'x@example.com' },
    })
    expect(refused.statusCode).toBe(403)

    await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/invitations',
      headers: headers(admin),
      payload: { email: 'jack@example.com' },
    })
    const token = /invitation\?token=([\w-]+)/.exec(mailText((await smtp.next()).raw))?.[1] ?? ''
    await t.app.db.kysely
      .updateTable('invitations')
      .set({ expires_at: Date.now() - 1 })
      .where('email', '=', 'jack@example.com')
      .execute()
    expect((await t.fastify.inject({ method: 'GET', url: `${auth}/invitation?token=${token}` })).statusCode).toBe(400)
  })
})
