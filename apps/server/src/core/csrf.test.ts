import { SESSION_COOKIE } from '@trove/contracts/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { CSRF_REFUSED } from './access.js'

/**
 * A cross-site page can make the browser send the session cookie, never the CSRF token (it cannot
 * read it). Every call that changes something refuses such a session: the routes with an access
 * rule with 403, the package and repository paths by treating the caller as anonymous.
 */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await createRepo(t.fastify, admin, 'csrf-local', { rclass: 'local', packageType: 'generic' })
})
afterAll(() => t.close())

/** The cookie alone, as a cross-site form or script would make the browser send it. */
const cookieOnly = () => ({ cookie: admin.cookie })

describe('a session without its CSRF token', () => {
  it('is refused by every route with a rule that changes something', async () => {
    const failures: string[] = []
    for (const route of t.app.routes) {
      const access = route.config?.access
      if (!access || access === 'public') continue
      for (const method of [route.method].flat()) {
        if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') continue
        const url = route.url.replace(/:(\w+)(\([^)]*\))?/g, 'csrf-walk').replace(/\*/g, 'csrf-walk')
        const res = await t.fastify.inject({ method: method as 'POST', url, headers: cookieOnly(), payload: {} })
        const message = res.json()?.errors?.[0]?.message
        if (res.statusCode !== 403 || message !== CSRF_REFUSED)
          failures.push(`${method} ${route.url} → ${res.statusCode} ${message}`)
      }
    }
    expect(failures).toEqual([])
    expect(t.app.routes.length).toBeGreaterThan(50)
  }, 60_000)

  it('does not deploy to or delete from a repository; with the token it does', async () => {
    const put = (headers: Record<string, string>) =>
      t.fastify.inject({ method: 'PUT', url: '/artifactory/csrf-local/a.txt', headers, payload: 'cross-site' })
    const refused = await put(cookieOnly())
    expect(refused.statusCode).toBe(401)
    const read = () => t.fastify.inject({ url: '/artifactory/csrf-local/a.txt', headers: { cookie: admin.cookie } })
    expect((await read()).statusCode).toBe(404)

    expect((await put(sessionHeaders(admin))).statusCode).toBe(201)
    expect((await read()).body).toBe('cross-site')
    const removed = await t.fastify.inject({ method: 'DELETE', url: '/artifactory/csrf-local/a.txt', headers: cookieOnly() })
    expect(removed.statusCode).toBe(401)
    expect((await read()).statusCode).toBe(200)
  })

  it('still reads: a GET needs no token', async () => {
    const res = await t.fastify.inject({ url: '/api/repositories', headers: cookieOnly() })
    expect(res.statusCode).toBe(200)
    expect((res.json() as { key: string }[]).map((r) => r.key)).toContain('csrf-local')
    expect(admin.cookie).toContain(`${SESSION_COOKIE}=`)
  })
})
