import { Messages } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { hashPassword } from '../../core/passwords.js'
import { insertUser } from '../../identity/users/repo.js'

const URL_ = '/ui/api/v1/ui/accountPortal'
let t: TestApp
let admin: Session
let user: Session

beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await insertUser(t.app.db.kysely, { name: 'bob', email: null, passwordHash: await hashPassword('bob-password'), admin: false })
  user = await signIn(t.fastify, 'bob', 'bob-password')
})
afterAll(() => t?.close())

const get = (s?: Session) => t.fastify.inject({ method: 'GET', url: URL_, headers: s ? { cookie: s.cookie } : {} })
const put = (url: string, s: Session = admin) =>
  t.fastify.inject({ method: 'PUT', url: URL_, headers: sessionHeaders(s), payload: { url } })

describe('the account portal', () => {
  it('is not set at first', async () => {
    const res = await get(user)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ url: '' })
  })

  it('is set by an administrator and read by every signed-in user', async () => {
    const saved = await put('  https://accounts.example.org/me  ')
    expect(saved.statusCode).toBe(200)
    expect(saved.json()).toEqual({ url: 'https://accounts.example.org/me' })
    expect((await get(user)).json()).toEqual({ url: 'https://accounts.example.org/me' })
    expect((await get(admin)).json()).toEqual({ url: 'https://accounts.example.org/me' })
  })

  it('refuses anything but an absolute http(s) URL with 400', async () => {
    for (const bad of ['javascript:alert(1)', '//evil.example.org', '/ui/overview', 'ftp://x.org', 'not a url']) {
      const res = await put(bad)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().errors[0].message, bad).toContain(Messages.invalidUrl)
    }
    expect((await get(user)).json()).toEqual({ url: 'https://accounts.example.org/me' })
  })

  it('is cleared with an empty URL', async () => {
    expect((await put('')).json()).toEqual({ url: '' })
    expect((await get(user)).json()).toEqual({ url: '' })
  })

  it('answers 401 to anonymous callers and refuses a change by a non-admin with 403', async () => {
    expect((await get()).statusCode).toBe(401)
    const anonymous = await t.fastify.inject({ method: 'PUT', url: URL_, payload: { url: '' } })
    expect(anonymous.statusCode).toBe(401)
    const refused = await put('https://evil.example.org', user)
    expect(refused.statusCode).toBe(403)
    expect((await get(user)).json()).toEqual({ url: '' })
  })
})
