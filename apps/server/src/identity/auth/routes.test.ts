import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, type Session, signIn, type TestApp } from '../../../test/testApp.js'
import { BAD_CREDENTIALS } from './service.js'
import { REMEMBER_ME_TTL_MS } from './sessions.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const LOGIN = '/ui/api/v1/ui/auth/login'
const current = (session?: Session) =>
  t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/current', headers: session ? { cookie: session.cookie } : {} })

describe('password sign-in', () => {
  it('answers with the user data and sets an httpOnly, SameSite session cookie that ends with the browser', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: LOGIN,
      payload: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ name: 'admin', realm: 'internal', admin: true, anonymous: false, mfaStatus: 'none' })
    const cookies = [res.headers['set-cookie']].flat().join('\n')
    const session = cookies.split('\n').find((c) => c?.startsWith('trove_session='))
    expect(session).toMatch(/HttpOnly/)
    expect(session).toMatch(/SameSite=Lax/)
    expect(session).not.toMatch(/Expires=/)
    const csrf = cookies.split('\n').find((c) => c?.startsWith('trove_csrf='))
    expect(csrf).not.toMatch(/HttpOnly/)
  })

  it('with remember-me makes a cookie that lasts 14 days', async () => {
    const session = await signIn(t.fastify, 'admin', ADMIN_PASSWORD, true)
    const cookie = session.setCookies.find((c) => c.startsWith('trove_session=')) ?? ''
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)?.[1] ?? '')
    expect(Math.abs(expires - (Date.now() + REMEMBER_ME_TTL_MS))).toBeLessThan(60_000)
  })

  it('gives the same 401 for a wrong password and for an unknown user', async () => {
    const wrongPassword = await t.fastify.inject({
      method: 'POST',
      url: LOGIN,
      payload: { user: 'admin', password: 'nope', type: 'login' },
    })
    const unknownUser = await t.fastify.inject({
      method: 'POST',
      url: LOGIN,
      payload: { user: 'ghost', password: 'nope', type: 'login' },
    })
    expect(wrongPassword.statusCode).toBe(401)
    expect(unknownUser.statusCode).toBe(401)
    expect(wrongPassword.json()).toEqual({ errors: [{ status: 401, message: BAD_CREDENTIALS }] })
    expect(unknownUser.json()).toEqual(wrongPassword.json())
    expect(wrongPassword.headers['set-cookie']).toBeUndefined()
  })

  it('rejects a malformed body with 400 naming the field', async () => {
    const res = await t.fastify.inject({ method: 'POST', url: LOGIN, payload: { user: 'admin', type: 'login' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/body\.password/)
    const wrongType = await t.fastify.inject({
      method: 'POST',
      url: LOGIN,
      payload: { user: 'admin', password: 'x', type: 'sso' },
    })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json().errors[0].message).toMatch(/body\.type/)
  })
})

describe('the session', () => {
  it('identifies the user; without it the caller is anonymous', async () => {
    expect((await current()).json()).toMatchObject({ name: 'anonymous', anonymous: true, admin: false })
    const session = await signIn(t.fastify)
    expect((await current(session)).json()).toMatchObject({ name: 'admin', anonymous: false, admin: true })
  })

  it('is replaced, not reused, by a new sign-in from the same browser', async () => {
    const first = await signIn(t.fastify)
    const res = await t.fastify.inject({
      method: 'POST',
      url: LOGIN,
      headers: { cookie: first.cookie },
      payload: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' },
    })
    expect(res.statusCode).toBe(200)
    expect((await current(first)).json().anonymous).toBe(true)
  })

  it('ends on the server at logout, which needs the CSRF token', async () => {
    const session = await signIn(t.fastify)
    const noToken = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/logout',
      headers: { cookie: session.cookie },
    })
    expect(noToken.statusCode).toBe(403)
    expect(noToken.json().errors[0].message).toBe('Missing or invalid CSRF token')
    expect((await current(session)).json().anonymous).toBe(false)

    const res = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/logout',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    })
    expect(res.statusCode).toBe(204)
    expect((await current(session)).json().anonymous).toBe(true)
    const rows = await t.app.db.kysely.selectFrom('sessions').selectAll().execute()
    expect(rows.every((row) => !session.cookie.includes(row.id))).toBe(true)
  })

  it('stores only a hash of the cookie token', async () => {
    const session = await signIn(t.fastify)
    const token = /trove_session=([^;]+)/.exec(session.cookie)?.[1] ?? ''
    const rows = await t.app.db.kysely.selectFrom('sessions').select('id').execute()
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((row) => row.id === token)).toBe(false)
  })
})

describe('the console footer', () => {
  it('tells the server name (none by default) and version', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/screen/footer' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ serverName: null, version: expect.any(String) })
  })
})
