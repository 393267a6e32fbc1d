import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo, npmPublishBody } from '../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'

/**
 * The package formats' changing calls are public routes that authorize by themselves
 * (core/csrf.test.ts covers the routes with a rule, and the generic deploy): a session cookie
 * without its CSRF token, what a cross-site page can make a browser send, is an anonymous caller
 * there, and anonymous callers may not write. With the token the same call goes through.
 */
let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await createTestApp()
  admin = await signIn(t.fastify)
  await createRepo(t.fastify, admin, 'npm-csrf', { rclass: 'local', packageType: 'npm' })
  await createRepo(t.fastify, admin, 'maven-csrf', { rclass: 'local', packageType: 'maven' })
})
afterAll(() => t.close())

const cookieOnly = () => ({ cookie: admin.cookie })

describe('a session without its CSRF token, on the package formats', () => {
  it('does not publish an npm package; with the token it does', async () => {
    const { body } = await npmPublishBody('http://localhost', 'npm-csrf', { name: 'csrf-pkg', version: '1.0.0' })
    const publish = (headers: Record<string, string>) =>
      t.fastify.inject({ method: 'PUT', url: '/api/npm/npm-csrf/csrf-pkg', headers, payload: body })
    const refused = await publish(cookieOnly())
    expect(refused.statusCode).toBe(401)
    expect((await t.fastify.inject({ url: '/api/npm/npm-csrf/csrf-pkg', headers: cookieOnly() })).statusCode).toBe(404)
    expect((await publish(sessionHeaders(admin))).statusCode).toBe(201)
  })

  it('does not move an npm dist-tag or unpublish', async () => {
    const tag = await t.fastify.inject({
      method: 'PUT',
      url: '/api/npm/npm-csrf/-/package/csrf-pkg/dist-tags/beta',
      headers: { ...cookieOnly(), 'content-type': 'application/json' },
      payload: JSON.stringify('1.0.0'),
    })
    expect(tag.statusCode).toBe(401)
    const unpublish = await t.fastify.inject({
      method: 'DELETE',
      url: '/api/npm/npm-csrf/csrf-pkg/-rev/1',
      headers: cookieOnly(),
    })
    expect(unpublish.statusCode).toBe(401)
    const packument = await t.fastify.inject({ url: '/api/npm/npm-csrf/csrf-pkg', headers: cookieOnly() })
    expect(packument.statusCode).toBe(200)
    expect(packument.json()['dist-tags']).toEqual({ latest: '1.0.0' })
  })

  it('does not deploy a Maven artifact', async () => {
    const put = await t.fastify.inject({
      method: 'PUT',
      url: '/artifactory/maven-csrf/org/example/csrf/1.0/csrf-1.0.jar',
      headers: cookieOnly(),
      payload: 'jar',
    })
    expect(put.statusCode).toBe(401)
    const read = await t.fastify.inject({
      url: '/artifactory/maven-csrf/org/example/csrf/1.0/csrf-1.0.jar',
      headers: cookieOnly(),
    })
    expect(read.statusCode).toBe(404)
  })
})
