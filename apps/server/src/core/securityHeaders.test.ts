import { CSRF_COOKIE, SESSION_COOKIE } from '@trove/contracts/http'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { tokenFor } from '../identity/access/testUsers.js'
import { SECURITY_HEADERS } from './securityHeaders.js'
import { pageCsp } from './servedContent.js'

/**
 * Every answer carries the security headers, whichever route (or no route) answers it and
 * whoever asks: the walk reads every registered route at test time (App.routes), as the access
 * walk does. The session cookies carry their flags on every way they are set.
 */
let t: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  t = await createTestApp()
  admin = await tokenFor(t.fastify, 'admin', ADMIN_PASSWORD)
})
afterAll(() => t.close())

/** Trove's own pages, the only answers whose scripts may run: the console, the API reference, GraphiQL. */
const PAGES = /^\/(ui\/(?!api\/|assets\/)|api\/docs|metadata\/api\/v1\/graphiql)/

/**
 * The names of the headers an answer lacks or carries with another value. Every answer but an
 * HTML page of Trove's own carries the sandbox policy (core/servedContent.ts).
 */
function missingHeaders(res: LightMyRequestResponse, url = ''): string[] {
  const page = PAGES.test(url) && String(res.headers['content-type']).startsWith('text/')
  const expected = page ? { ...SECURITY_HEADERS, 'content-security-policy': pageCsp(['localhost:80']) } : SECURITY_HEADERS
  return Object.entries(expected)
    .filter(([name, value]) => res.headers[name] !== value)
    .map(([name]) => name)
}

describe('security headers', () => {
  it('are on the answer of every registered route, to anonymous callers and to an admin', async () => {
    const failures: string[] = []
    for (const route of t.app.routes) {
      const url = route.url.replace(/:(\w+)(\([^)]*\))?/g, 'headers-walk').replace(/\*/g, 'headers-walk')
      for (const method of [route.method].flat()) {
        // An admin only reads: the walk must not change what later routes see.
        const callers = method === 'GET' || method === 'HEAD' ? [{}, admin] : [{}]
        for (const headers of callers) {
          const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
          const res = await t.fastify.inject({ method: method as 'GET', url, headers, ...(withBody ? { payload: {} } : {}) })
          const missing = missingHeaders(res, url)
          if (!res.headers['x-request-id']) missing.push('x-request-id')
          if (missing.length > 0) failures.push(`${method} ${route.url} → ${res.statusCode} lacks ${missing.join(', ')}`)
        }
      }
    }
    expect(failures).toEqual([])
    expect(t.app.routes.length).toBeGreaterThan(50)
  }, 120_000)

  it('are on answers no route gives: unknown paths, bad JSON, refused URLs', async () => {
    const answers = [
      await t.fastify.inject({ url: '/api/no-such-thing' }),
      await t.fastify.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{not json',
      }),
      await t.fastify.inject({ url: '/artifactory/x/%00' }),
    ]
    expect(answers.map((r) => r.statusCode)).toEqual([404, 400, 400])
    for (const res of answers) expect(missingHeaders(res)).toEqual([])
  })
})

/** The attributes of one cookie of a Set-Cookie list, lower-cased, by the cookie's name. */
function cookieFlags(setCookies: string[], name: string): string[] {
  const cookie = setCookies.find((c) => c.startsWith(`${name}=`))
  expect(cookie, `${name} is set`).toBeDefined()
  return (cookie as string)
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase())
}

const login = (headers: Record<string, string> = {}, app = t) =>
  app.fastify.inject({
    method: 'POST',
    url: '/ui/api/v1/ui/auth/login?_spring_security_remember_me=true',
    headers,
    payload: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' },
  })

const setCookiesOf = (res: LightMyRequestResponse) => [res.headers['set-cookie'] ?? []].flat()

describe('session cookies', () => {
  it('are HttpOnly (the session, not the CSRF token the console reads), SameSite=Lax, for the whole site', async () => {
    const { setCookies } = await signIn(t.fastify)
    const session = cookieFlags(setCookies, SESSION_COOKIE)
    expect(session).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']))
    const csrf = cookieFlags(setCookies, CSRF_COOKIE)
    expect(csrf).toEqual(expect.arrayContaining(['samesite=lax', 'path=/']))
    expect(csrf).not.toContain('httponly')
    // Over plain HTTP a Secure cookie would never come back.
    expect(session).not.toContain('secure')
  })

  it('are Secure over HTTPS, told by a trusted proxy’s x-forwarded-proto', async () => {
    const behindProxy = await createTestApp({ TROVE_TRUST_PROXY: 'true' })
    try {
      const res = await login({ 'x-forwarded-proto': 'https' }, behindProxy)
      expect(res.statusCode).toBe(200)
      expect(cookieFlags(setCookiesOf(res), SESSION_COOKIE)).toEqual(
        expect.arrayContaining(['httponly', 'secure', 'samesite=lax', 'path=/']),
      )
      expect(cookieFlags(setCookiesOf(res), CSRF_COOKIE)).toEqual(expect.arrayContaining(['secure', 'samesite=lax']))
    } finally {
      await behindProxy.close()
    }
  })

  it('ignore x-forwarded-proto when no proxy is trusted: any caller could send it', async () => {
    const res = await login({ 'x-forwarded-proto': 'https' })
    expect(res.statusCode).toBe(200)
    expect(cookieFlags(setCookiesOf(res), SESSION_COOKIE)).not.toContain('secure')
  })

  it('are never chosen by the caller: a session id planted before sign-in is replaced (no fixation)', async () => {
    const planted = 'planted-by-an-attacker-0123456789abcdef'
    const res = await login({ cookie: `${SESSION_COOKIE}=${planted}; ${CSRF_COOKIE}=planted-csrf` })
    expect(res.statusCode).toBe(200)
    const issued = setCookiesOf(res).find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? ''
    expect(issued).not.toContain(planted)
    const withPlanted = await t.fastify.inject({
      url: '/ui/api/v1/ui/auth/current',
      headers: { cookie: `${SESSION_COOKIE}=${planted}` },
    })
    expect(withPlanted.json().anonymous).toBe(true)
  })

  it('are cleared by logout with the same path', async () => {
    const session = await signIn(t.fastify)
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/logout',
      headers: sessionHeaders(session),
    })
    expect(res.statusCode).toBeLessThan(300)
    for (const name of [SESSION_COOKIE, CSRF_COOKIE])
      expect(cookieFlags(setCookiesOf(res), name)).toEqual(expect.arrayContaining(['path=/', 'max-age=0']))
  })
})
