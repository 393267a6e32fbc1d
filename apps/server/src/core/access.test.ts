import { describe, expect, it } from 'vitest'
import { createTestApp, signIn } from '../../test/testApp.js'
import { insertUser } from '../identity/users/repo.js'
import { hashPassword } from './passwords.js'

describe('access rules', () => {
  it('refuse to start a server with a route that declares no access rule', async () => {
    await expect(createTestApp({}, { extend: (app) => void app.get('/api/test/open', async () => 'open') })).rejects.toThrow(
      /Routes without an access rule: GET \/api\/test\/open/,
    )
  })

  it('turn away an anonymous caller from a user route with 401, and a user from an admin route with 403', async () => {
    const t = await createTestApp(
      {},
      {
        extend: (app) => {
          app.get('/api/test/admin-only', { config: { access: 'admin' } }, async () => 'secret')
        },
      },
    )
    try {
      const anonymous = await t.fastify.inject({ method: 'GET', url: '/api/test/admin-only' })
      expect(anonymous.statusCode).toBe(401)
      expect(anonymous.json().errors[0].message).toBe('Authentication is required')
      const logout = await t.fastify.inject({ method: 'POST', url: '/ui/api/v1/ui/auth/logout' })
      expect(logout.statusCode).toBe(401)

      await insertUser(t.app.db.kysely, {
        name: 'alice',
        email: null,
        passwordHash: await hashPassword('alice-password'),
        admin: false,
      })
      const alice = await signIn(t.fastify, 'alice', 'alice-password')
      const asUser = await t.fastify.inject({ method: 'GET', url: '/api/test/admin-only', headers: { cookie: alice.cookie } })
      expect(asUser.statusCode).toBe(403)
      const admin = await signIn(t.fastify)
      const asAdmin = await t.fastify.inject({ method: 'GET', url: '/api/test/admin-only', headers: { cookie: admin.cookie } })
      expect(asAdmin.statusCode).toBe(200)
      expect(asAdmin.body).toBe('secret')
    } finally {
      await t.close()
    }
  })
})
