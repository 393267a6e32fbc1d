import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, signIn, type TestApp } from '../../../test/testApp.js'
import { INVALID_REFRESH, NOT_APPROVED_YET, UNKNOWN_CLI_LOGIN } from './service.js'

let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
})
afterAll(() => t.close())

const base = '/access/api/v2/authentication/jfrog_client_login'
const request = (session: string) => t.fastify.inject({ method: 'POST', url: `${base}/request`, payload: { session } })
const approve = (session: string, s: Session = admin) =>
  t.fastify.inject({
    method: 'POST',
    url: `${base}/response`,
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    payload: { session },
  })
const collect = (session: string) => t.fastify.inject({ method: 'GET', url: `${base}/token/${session}` })
const whoami = (token: string) =>
  t.fastify.inject({ method: 'GET', url: '/ui/api/v1/ui/userIdentifyToken', headers: { authorization: `Bearer ${token}` } })

describe('the command-line sign-in hand-off', () => {
  it('waits (400), hands the tokens over once (200), then forgets the session (404)', async () => {
    const session = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
    expect((await request(session)).statusCode).toBe(201)
    expect((await request(session)).statusCode).toBe(409)

    const waiting = await collect(session)
    expect(waiting.statusCode).toBe(400)
    expect(waiting.json().errors[0].message).toBe(NOT_APPROVED_YET)

    expect((await approve(session)).statusCode).toBe(200)
    const collected = await collect(session)
    expect(collected.statusCode).toBe(200)
    const tokens = collected.json()
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 30 * 24 * 60 * 60 })
    expect((await whoami(tokens.access_token)).statusCode).toBe(200)
    // A refresh token is not a credential.
    expect((await whoami(tokens.refresh_token)).statusCode).toBe(401)

    const gone = await collect(session)
    expect(gone.statusCode).toBe(404)
    expect(gone.json().errors[0].message).toBe(UNKNOWN_CLI_LOGIN)
  })

  it('needs a signed-in user (and the CSRF token) to approve', async () => {
    const session = 'f0e1d2c3-b4a5-4968-8776-655443322110'
    await request(session)
    const anonymous = await t.fastify.inject({ method: 'POST', url: `${base}/response`, payload: { session } })
    expect(anonymous.statusCode).toBe(401)
    const noCsrf = await t.fastify.inject({
      method: 'POST',
      url: `${base}/response`,
      headers: { cookie: admin.cookie },
      payload: { session },
    })
    expect(noCsrf.statusCode).toBe(403)
    expect((await approve('0000000000000000-unknown')).statusCode).toBe(404)
  })

  it('ends sessions nobody approved in time', async () => {
    const session = 'expired-session-0123456789'
    await request(session)
    await t.app.db.kysely
      .updateTable('cli_logins')
      .set({ expires_at: Date.now() - 1 })
      .execute()
    expect((await approve(session)).statusCode).toBe(404)
    expect((await collect(session)).statusCode).toBe(404)
  })

  it('rejects a malformed session id with 400 naming the field', async () => {
    const res = await request('short')
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/body\.session/)
  })
})

describe('refresh tokens', () => {
  it('buy a new pair once; the old refresh token then stops working', async () => {
    const session = 'refresh-session-0123456789'
    await request(session)
    await approve(session)
    const first = (await collect(session)).json()
    const refreshed = await t.fastify.inject({
      method: 'POST',
      url: '/access/api/v1/tokens/refresh',
      payload: { refresh_token: first.refresh_token },
    })
    expect(refreshed.statusCode).toBe(200)
    const second = refreshed.json()
    expect(second.access_token).not.toBe(first.access_token)
    expect((await whoami(second.access_token)).statusCode).toBe(200)
    const reused = await t.fastify.inject({
      method: 'POST',
      url: '/access/api/v1/tokens/refresh',
      payload: { refresh_token: first.refresh_token },
    })
    expect(reused.statusCode).toBe(401)
    expect(reused.json().errors[0].message).toBe(INVALID_REFRESH)
  })
})

describe('approving a command-line sign-in', () => {
  it('takes a person in the console: a token, of any scope, cannot approve (it would mint new tokens)', async () => {
    const session = 'd1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
    expect((await request(session)).statusCode).toBe(201)
    const made = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      payload: { expiresIn: 600 },
    })
    const approved = await t.fastify.inject({
      method: 'POST',
      url: `${base}/response`,
      headers: { authorization: `Bearer ${made.json().access_token}` },
      payload: { session },
    })
    expect(approved.statusCode).toBe(403)
    expect(approved.json().errors[0].message).toBe('A command-line sign-in is approved in the console, not with a token')
    expect((await collect(session)).statusCode).toBe(400)
  })
})

describe('guessing single-use secrets (counted before they are looked up)', () => {
  const from = (ip: string) => ({ remoteAddress: ip })
  const hex = (i: number) => i.toString(16).padStart(12, '0')

  it('a client polling its own session while the user approves is never locked out', async () => {
    const session = 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
    expect((await request(session)).statusCode).toBe(201)
    for (let i = 0; i < 40; i++) {
      const res = await t.fastify.inject({ method: 'GET', url: `${base}/token/${session}`, ...from('10.40.0.1') })
      expect(res.statusCode).toBe(400)
    }
    expect((await approve(session)).statusCode).toBe(200)
    expect((await t.fastify.inject({ method: 'GET', url: `${base}/token/${session}`, ...from('10.40.0.1') })).statusCode).toBe(
      200,
    )
  })

  it('200 guesses at once from one address: at most 30 are looked up, the rest refused; other addresses go on', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.fastify
          .inject({ method: 'GET', url: `${base}/token/c0c0c0c0-0000-4000-8000-${hex(i)}`, ...from('10.41.0.1') })
          .then((r) => r.statusCode),
      ),
    )
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(30)
    expect(statuses.filter((s) => s === 403).length).toBeGreaterThanOrEqual(170)
    const refreshes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.fastify
          .inject({
            method: 'POST',
            url: '/access/api/v1/tokens/refresh',
            payload: { refresh_token: `trove_rt_${hex(i)}` },
            ...from('10.41.0.2'),
          })
          .then((r) => r.statusCode),
      ),
    )
    expect(refreshes.filter((s) => s === 401).length).toBeLessThanOrEqual(30)
    expect(refreshes).toContain(403)
    const elsewhere = await t.fastify.inject({
      method: 'GET',
      url: `${base}/token/c0c0c0c0-0000-4000-8000-${hex(999)}`,
      ...from('10.41.0.9'),
    })
    expect(elsewhere.statusCode).toBe(404)
    expect(elsewhere.json().errors[0].message).toBe(UNKNOWN_CLI_LOGIN)
  })

  it('a reset link’s key and an invitation’s token are counted the same way', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.fastify
          .inject({
            method: 'POST',
            url: `/ui/api/v1/ui/auth/validateToken?key=guess-${i}-${'x'.repeat(30)}`,
            ...from('10.42.0.1'),
          })
          .then((r) => r.statusCode),
      ),
    )
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(30)
    expect(statuses).toContain(403)
    const invited = await t.fastify.inject({
      method: 'GET',
      url: `/ui/api/v1/ui/auth/invitation?token=guess-${'y'.repeat(30)}`,
      ...from('10.42.0.1'),
    })
    expect(invited.statusCode).toBe(403)
    expect(invited.json().errors[0].message).toMatch(/^Too many wrong links, codes or tokens from this address/)
  })
})
