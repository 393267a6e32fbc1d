import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/testApp.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe.each(['/api/system', '/artifactory/api/system'])('health under %s', (prefix) => {
  it('answers ping with the text OK', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: `${prefix}/ping` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toBe('OK')
  })

  it('answers version with version and revision', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: `${prefix}/version` })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(typeof body.revision).toBe('string')
    expect(body.revision.length).toBeGreaterThan(0)
  })
})

describe('the OpenAPI document', () => {
  it('is generated from the schemas and lists the calls', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/system/ping', '/api/system/version', '/ui/api/v1/ui/auth/login']),
    )
    const login = doc.paths['/ui/api/v1/ui/auth/login'].post
    const ref = login.requestBody.content['application/json'].schema.$ref.split('/').pop()
    expect(Object.keys(doc.components.schemas[ref].properties)).toEqual(['user', 'password', 'type'])
  })

  it('has a browsable UI at /api/docs', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.body).toContain('swagger')
  })
})

describe('responses', () => {
  it('carry security headers', async () => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/system/version' })
    expect(res.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(res.headers['strict-transport-security']).toBeDefined()
  })

  it('carry a request id, and keep a sane one the client sent', async () => {
    const generated = await t.fastify.inject({ method: 'GET', url: '/api/system/ping' })
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const given = await t.fastify.inject({ method: 'GET', url: '/api/system/ping', headers: { 'x-request-id': 'abc-123' } })
    expect(given.headers['x-request-id']).toBe('abc-123')
    const hostile = await t.fastify.inject({ method: 'GET', url: '/api/system/ping', headers: { 'x-request-id': '<script>' } })
    expect(hostile.headers['x-request-id']).not.toBe('<script>')
  })

  it.each(['br', 'gzip'])('compress text with %s', async (encoding) => {
    const res = await t.fastify.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': encoding } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe(encoding)
  })
})
