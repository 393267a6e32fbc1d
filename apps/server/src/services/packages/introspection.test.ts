import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'

/** Finding 6 of the security probe: the GraphQL schema is described to signed-in users only. */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
})
afterAll(() => t.close())

const query = (q: string, headers: Record<string, string> = {}) =>
  t.fastify.inject({ method: 'POST', url: '/metadata/api/v1/query', headers, payload: { query: q } })
const anonymousAccess = (enabled: boolean) =>
  t.fastify.inject({
    method: 'PUT',
    url: '/ui/api/v1/ui/admin/security/anonymous-access',
    headers: sessionHeaders(admin),
    payload: { enabled },
  })

describe('GraphQL introspection', () => {
  it('is refused to anonymous callers, with anonymous access on or off, in any spelling of the query', async () => {
    for (const enabled of [false, true]) {
      expect((await anonymousAccess(enabled)).statusCode).toBe(200)
      for (const q of [
        '{ __schema { types { name } } }',
        'query Q { __type(name: "Package") { fields { name } } }',
        'query { ...F } fragment F on Query { __schema { queryType { name } } }',
      ]) {
        const res = await query(q)
        expect(res.statusCode, `${enabled} ${q}`).toBe(401)
        expect(res.body).not.toContain('"types"')
        expect(res.body).not.toContain('"fields"')
      }
    }
    await anonymousAccess(false)
  })

  it('answers a signed-in user, and leaves __typename to everyone', async () => {
    const res = await query('{ __schema { queryType { name } } }', sessionHeaders(admin))
    expect(res.statusCode).toBe(200)
    expect(res.json().data.__schema.queryType.name).toBe('Query')
    expect((await anonymousAccess(true)).statusCode).toBe(200)
    const typename = await query('{ __typename }')
    expect(typename.statusCode, typename.body).toBe(200)
    expect(typename.json().data.__typename).toBe('Query')
    await anonymousAccess(false)
  })
})
