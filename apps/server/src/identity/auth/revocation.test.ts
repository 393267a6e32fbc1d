import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { type App, buildApp } from '../../app.js'
import { loadConfig } from '../../core/config.js'
import { CALLER_CACHE_MS } from './principal.js'

/**
 * A credential revoked on one node is refused by every other node within 2 s: the other node's
 * caller cache (CALLER_CACHE_MS) holds it no longer. Two real nodes on one database (SQLite file,
 * or PostgreSQL with TROVE_TEST_DATABASE_URL), as in operations/cluster.test.ts. The check that
 * cannot flake under load: node two has just used the credential (so it is cached there) when node
 * one revokes it, and every request node two starts from 2 s after the revocation is refused.
 */
const WITHIN_MS = 2000
let one: TestApp
let two: App
let admin: Session

beforeAll(async () => {
  one = await createTestApp({ TROVE_NODE_ID: 'node-one' })
  two = await buildApp(
    loadConfig({
      TROVE_DATA_DIR: one.dataDir,
      TROVE_DATABASE_URL: one.config.databaseUrl,
      TROVE_LOG_STDOUT: 'false',
      TROVE_LOG_DIR: path.join(one.dataDir, 'logs', 'node-two'),
      TROVE_WEB_DIR: path.join(one.dataDir, 'no-console'),
      TROVE_NODE_ID: 'node-two',
      // The repository alone, as on the test apps (a scanner would write beside what is checked).
      TROVE_MODULES: 'repository',
    }),
  )
  await two.fastify.ready()
  admin = await signIn(one.fastify)
})
afterAll(async () => {
  await two.close()
  await one.close()
})

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())))

async function accessToken(): Promise<{ token: string; id: string }> {
  const res = await one.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/userIdentifyToken/admin',
    headers: sessionHeaders(admin),
    payload: { expiresIn: 600 },
  })
  expect(res.statusCode).toBe(200)
  return { token: res.json().access_token, id: res.json().token_id }
}

const revokeOnOne = async (id: string) => {
  const res = await one.fastify.inject({
    method: 'DELETE',
    url: `/ui/api/v1/ui/userIdentifyToken/id/${id}`,
    headers: sessionHeaders(admin),
  })
  expect(res.statusCode).toBe(204)
  return Date.now()
}

/** Node two's answer to a call that needs a signed-in caller. */
const onTwo = (headers: Record<string, string>) =>
  two.fastify.inject({ url: '/ui/api/v1/ui/userIdentifyToken', headers }).then((r) => r.statusCode)

describe('a credential revoked on node one', () => {
  it('is cached per node no longer than 2 s', () => {
    expect(CALLER_CACHE_MS).toBeLessThanOrEqual(WITHIN_MS)
  })

  it('as an access token (Bearer, and Basic as package clients send it): refused by node two within 2 s', async () => {
    const { token, id } = await accessToken()
    const bearer = { authorization: `Bearer ${token}` }
    const basic = { authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` }
    expect(await onTwo(bearer)).toBe(200)
    expect(await onTwo(basic)).toBe(200)
    const revokedAt = await revokeOnOne(id)
    await sleepUntil(revokedAt + WITHIN_MS)
    expect(await onTwo(bearer)).toBe(401)
    expect(await onTwo(basic)).toBe(401)
  })

  it('as a session ended by logout: refused by node two within 2 s', async () => {
    const session = await signIn(one.fastify)
    expect(await onTwo({ cookie: session.cookie })).toBe(200)
    const out = await one.fastify.inject({ method: 'POST', url: '/ui/api/v1/ui/auth/logout', headers: sessionHeaders(session) })
    expect(out.statusCode).toBeLessThan(300)
    const endedAt = Date.now()
    await sleepUntil(endedAt + WITHIN_MS)
    expect(await onTwo({ cookie: session.cookie })).toBe(401)
  })

  it('as the access token a registry token was bought with: the registry token is refused by node two within 2 s', async () => {
    const { token, id } = await accessToken()
    const bought = await two.fastify.inject({ url: '/v2/token', headers: { authorization: `Bearer ${token}` } })
    expect(bought.statusCode).toBe(200)
    const registry = { authorization: `Bearer ${bought.json().token}` }
    const catalog = () => two.fastify.inject({ url: '/v2/', headers: registry }).then((r) => r.statusCode)
    expect(await catalog()).toBe(200)
    const revokedAt = await revokeOnOne(id)
    await sleepUntil(revokedAt + WITHIN_MS)
    // Before, the registry token lived out its 5 minutes whatever happened to the token behind it.
    expect(await catalog()).toBe(401)
  })

  it('as a user disabled on node one: the registry token they bought is refused by node two within 2 s', async () => {
    const created = await one.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/users',
      headers: sessionHeaders(admin),
      payload: { name: 'leaver', password: 'leaver-password-1', email: 'leaver@example.com' },
    })
    expect(created.statusCode).toBe(201)
    const basic = { authorization: `Basic ${Buffer.from('leaver:leaver-password-1').toString('base64')}` }
    const bought = await two.fastify.inject({ url: '/v2/token', headers: basic })
    expect(bought.statusCode).toBe(200)
    const registry = { authorization: `Bearer ${bought.json().token}` }
    expect((await two.fastify.inject({ url: '/v2/', headers: registry })).statusCode).toBe(200)
    const disabled = await one.fastify.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/users/leaver',
      headers: sessionHeaders(admin),
      payload: { disabled: true },
    })
    expect(disabled.statusCode).toBeLessThan(300)
    const disabledAt = Date.now()
    await sleepUntil(disabledAt + WITHIN_MS)
    expect((await two.fastify.inject({ url: '/v2/', headers: registry })).statusCode).toBe(401)
  })
})
