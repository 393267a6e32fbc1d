import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, signIn, type TestApp } from '../../../test/testApp.js'
import type { Access } from '../../core/access.js'
import {
  ACCESS_RULES,
  AUTHENTICATION_REQUIRED_CODE,
  CSRF_REFUSED,
  ROUTE_REFUSED_CODE,
  SCOPE_REFUSED_CODE,
} from '../../core/access.js'
import { ADMIN_API, adminHeaders, tokenFor, userWithToken } from './testUsers.js'

/**
 * Walks every route the server registered — including routes added later by other areas — as
 * anonymous, a plain user, a project admin and an admin, and checks each answer against the
 * route's declared rule. A route without a rule cannot even start (see access.test.ts).
 */
type Caller = 'anonymous' | 'user' | 'projectAdmin' | 'admin'
const CALLERS: Caller[] = ['anonymous', 'user', 'projectAdmin', 'admin']

/** Who gets past each rule. */
const ALLOWED: Record<Access, Caller[]> = {
  public: CALLERS,
  user: ['user', 'projectAdmin', 'admin'],
  projectAdmin: ['projectAdmin', 'admin'],
  admin: ['admin'],
}

const PARAM_VALUES: Record<string, string> = { key: 'walk', projectKey: 'walk', repoKey: 'walk-repo' }

/** Parameters name the walk's own project; a DELETE names nothing that exists, so the walk keeps its callers. */
function concreteUrl(url: string, method: string): string {
  return url
    .replace(
      /:(\w+)(\([^)]*\))?/g,
      (_m, name: string) => (method === 'DELETE' ? undefined : PARAM_VALUES[name]) ?? 'walk-missing',
    )
    .replace(/\*/g, 'walk-missing')
}

let t: TestApp
const headers: Record<Caller, Record<string, string>> = { anonymous: {}, user: {}, projectAdmin: {}, admin: {} }
/** An administrator's tokens of narrow scope: the strongest owner, the narrowest token. */
const scoped: Record<'read' | 'deploy', Record<string, string>> = { read: {}, deploy: {} }
let adminSession: Session

beforeAll(async () => {
  t = await createTestApp()
  const admin = await adminHeaders(t.fastify)
  headers.user = await userWithToken(t.fastify, admin, 'walk-user')
  headers.projectAdmin = await userWithToken(t.fastify, admin, 'walk-padmin')
  await t.fastify.inject({
    method: 'POST',
    url: `${ADMIN_API}/projects`,
    headers: admin,
    payload: { key: 'walk', displayName: 'Walk' },
  })
  const members = await t.fastify.inject({
    method: 'PUT',
    url: `${ADMIN_API}/projects/walk/members`,
    headers: admin,
    payload: { members: [{ kind: 'user', name: 'walk-padmin', roles: ['Project Admin'] }] },
  })
  expect(members.statusCode).toBe(200)
  headers.admin = await tokenFor(t.fastify, 'admin', 'correct-horse-battery')
  adminSession = await signIn(t.fastify)
  for (const scope of ['read', 'deploy'] as const) {
    const made = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: admin,
      payload: { expiresIn: 3600, scope },
    })
    expect(made.statusCode).toBe(200)
    scoped[scope] = { authorization: `Bearer ${made.json().access_token}` }
  }
})
afterAll(() => t?.close())

describe('every registered route', () => {
  it('declares a known rule and answers each kind of caller as its rule says', async () => {
    expect(t.app.routes.length).toBeGreaterThan(50)
    const failures: string[] = []
    for (const route of t.app.routes) {
      const access = route.config?.access as Access
      expect(ACCESS_RULES, `${route.url} has rule ${access}`).toContain(access)
      for (const method of [route.method].flat()) {
        const url = concreteUrl(route.url, method)
        for (const caller of CALLERS) {
          const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
          const res = await t.fastify.inject({
            method: method as 'GET',
            url,
            headers: headers[caller],
            ...(withBody ? { payload: {} } : {}),
          })
          // HEAD answers carry no body: the rule's refusal is then told by the status alone.
          const body = res.body && String(res.headers['content-type'] ?? '').includes('json') ? res.json() : {}
          const code = method === 'HEAD' ? 'HEAD' : body?.errors?.[0]?.code
          const refusedByRule =
            (res.statusCode === 401 && (code === AUTHENTICATION_REQUIRED_CODE || code === 'HEAD')) ||
            (res.statusCode === 403 && (code === ROUTE_REFUSED_CODE || code === 'HEAD'))
          const what = `${method} ${route.url} as ${caller} (${access}) → ${res.statusCode}`
          // 503 is the console's answer when it is not built (as in these tests), not a failure.
          if (res.statusCode >= 500 && res.statusCode !== 503) failures.push(`${what}: server error`)
          if (access === 'public') continue
          const allowed = ALLOWED[access].includes(caller)
          // A HEAD answer has no body to tell the handler's 401 from the rule's: its GET twin is checked.
          if (allowed && refusedByRule && method !== 'HEAD') failures.push(`${what}: refused`)
          if (!allowed && caller === 'anonymous' && res.statusCode !== 401) failures.push(`${what}: expected 401`)
          if (!allowed && caller !== 'anonymous' && !(res.statusCode === 403 && refusedByRule))
            failures.push(`${what}: expected 403`)
        }
      }
    }
    expect(failures).toEqual([])
  }, 120_000)
})

/**
 * Calls every route that changes something (not GET, HEAD, OPTIONS, nor a POST that only reads)
 * with these headers, and hands each answer to `judge`, which names what is wrong with it.
 */
async function walkChanges(
  headers: Record<string, string>,
  judge: (
    route: (typeof t.app.routes)[number],
    method: string,
    res: LightMyRequestResponse,
    error: { code?: string; message?: string },
  ) => string | null,
): Promise<string[]> {
  const failures: string[] = []
  for (const route of t.app.routes) {
    for (const method of [route.method].flat()) {
      if (['GET', 'HEAD', 'OPTIONS'].includes(method) || route.config?.reads) continue
      const res = await t.fastify.inject({
        method: method as 'POST',
        url: concreteUrl(route.url, method),
        headers,
        ...(method === 'DELETE' ? {} : { payload: {} }),
      })
      const error = res.body && String(res.headers['content-type'] ?? '').includes('json') ? (res.json()?.errors?.[0] ?? {}) : {}
      const wrong = judge(route, method, res, error)
      if (wrong) failures.push(`${method} ${route.url} → ${res.statusCode}: ${wrong}`)
    }
  }
  return failures
}

describe('a token of narrow scope on every route (finding 4 of the security probe)', () => {
  it.each(['read', 'deploy'] as const)(
    '%s: every call that changes something is refused by its scope, public routes included',
    async (scope) => {
      const failures = await walkChanges(scoped[scope], (route, _method, res, error) => {
        if (res.statusCode < 300) return 'changed something'
        // Package protocols cap a token's actions themselves (the authorizer); everything else refuses it outright.
        if (route.config?.scopeCapped) return null
        return res.statusCode === 403 && error.code === SCOPE_REFUSED_CODE ? null : 'not refused by scope'
      })
      expect(failures).toEqual([])
    },
    120_000,
  )
})

/**
 * Public calls that act for no session: signing in, asking for a reset mail, registering, a reset
 * by its mailed key, the CLI asking for its token. Any other call that changes something, sent by
 * a browser with the session cookie but without the CSRF token (a cross-site page), does nothing.
 */
const NO_SESSION_NEEDED = new Set([
  'POST /ui/api/v1/ui/auth/login',
  'POST /ui/api/v1/ui/auth/logout',
  'POST /ui/api/v1/ui/auth/forgotPassword',
  'POST /ui/api/v1/ui/auth/resetPassword',
  'POST /ui/api/v1/ui/auth/validateToken',
  'POST /ui/api/v1/ui/auth/register',
  'POST /ui/api/v1/ui/auth/invitation',
  'POST /ui/api/v1/ui/auth/changePassword',
])

describe('a cross-site page with the admin’s cookie (CSRF) on every route', () => {
  it('changes nothing: a route with a rule refuses it, a public route sees no caller', async () => {
    const failures = await walkChanges({ cookie: adminSession.cookie }, (route, method, res, error) => {
      if (NO_SESSION_NEEDED.has(`${method} ${route.url}`)) return null
      if (res.statusCode < 300) return 'changed something'
      if (route.config?.access === 'public') return null
      return res.statusCode === 403 && error.message === CSRF_REFUSED ? null : 'not refused for CSRF'
    })
    expect(failures).toEqual([])
  }, 120_000)
})
