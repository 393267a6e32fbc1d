import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import { DatabaseUnavailable, HttpError, isDatabaseUnavailable } from './errors.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      extend: (app) => {
        const typed = app.withTypeProvider<ZodTypeProvider>()
        typed.get('/api/test/crash', { config: { access: 'public' } }, async () => {
          throw new Error('database password is hunter2 at /srv/secret.ts:12')
        })
        typed.get('/api/test/database-down', { config: { access: 'public' } }, async () => {
          throw new DatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
        })
        typed.get('/api/test/conflict', { config: { access: 'public' } }, async () => {
          throw new HttpError(409, 'A repository with this key already exists')
        })
        typed.post(
          '/api/test/echo',
          { config: { access: 'public' }, schema: { body: z.object({ name: z.string(), size: z.number().int() }) } },
          async (request) => request.body,
        )
      },
    },
  )
})
afterAll(() => t.close())

describe('errors', () => {
  it('answers an unknown API path with 404 in the one error shape', async () => {
    for (const url of ['/api/nope', '/ui/api/v1/nope', '/artifactory/api/nope']) {
      const res = await t.fastify.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ errors: [{ status: 404, message: `Not found: GET ${url}` }] })
    }
  })

  it('answers bad JSON with 400', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0]).toEqual({ status: 400, message: 'Invalid request: the body is not valid JSON' })
  })

  it('answers a schema failure with 400 naming the field', async () => {
    const res = await t.fastify.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'x', size: 'big' } })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].message).toMatch(/^Invalid request: body\.size: /)
  })

  it('renders a domain error with its status and message', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/test/conflict' })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ errors: [{ status: 409, message: 'A repository with this key already exists' }] })
  })

  it('never shows a stack or the error text on a 5xx', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/test/crash' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ errors: [{ status: 500, message: 'Internal server error' }] })
    expect(res.body).not.toContain('hunter2')
    expect(res.body).not.toContain('.ts')
  })

  it('answers 503 with Retry-After when the database is away, naming nothing of it', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/test/database-down' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json()).toEqual({
      errors: [{ status: 503, message: 'The database is unavailable; try again in a few seconds', code: 'DATABASE_UNAVAILABLE' }],
    })
    expect(res.body).not.toContain('5432')
  })

  it('tells a database gone away from other failures', () => {
    // PostgreSQL shutting down or starting, a failed connection, a connection ended mid-query.
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true)
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('Client was closed and is not queryable'))).toBe(true)
    // A unique violation, a syntax error, a refused connection to anything but the database's pool.
    for (const code of ['23505', '42601', 'ECONNREFUSED', 'SQLITE_BUSY']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(false)
    }
  })
})
