import crypto from 'node:crypto'
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
  await createRepo(t.fastify, admin, 'pypi-csrf', { rclass: 'local', packageType: 'pypi' })
  await createRepo(t.fastify, admin, 'docker-csrf', { rclass: 'local', packageType: 'docker' })
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

  it('does not upload a PyPI distribution', async () => {
    const boundary = `----csrf${crypto.randomBytes(6).toString('hex')}`
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const payload = Buffer.concat([
      Buffer.from(field(':action', 'file_upload') + field('name', 'csrf-py') + field('version', '1.0')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="content"; filename="csrf_py-1.0.tar.gz"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from('not read: refused before'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const upload = await t.fastify.inject({
      method: 'POST',
      url: '/api/pypi/pypi-csrf/',
      headers: { ...cookieOnly(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    })
    expect(upload.statusCode).toBe(401)
    expect((await t.fastify.inject({ url: '/api/pypi/pypi-csrf/simple/csrf-py/', headers: cookieOnly() })).statusCode).toBe(404)
  })

  it('does not start a registry upload or put a manifest', async () => {
    const start = await t.fastify.inject({ method: 'POST', url: '/v2/docker-csrf/csrf/blobs/uploads/', headers: cookieOnly() })
    expect(start.statusCode).toBe(401)
    const manifest = await t.fastify.inject({
      method: 'PUT',
      url: '/v2/docker-csrf/csrf/manifests/1.0',
      headers: { ...cookieOnly(), 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      payload: JSON.stringify({ schemaVersion: 2, config: {}, layers: [] }),
    })
    expect(manifest.statusCode).toBe(401)
  })
})
