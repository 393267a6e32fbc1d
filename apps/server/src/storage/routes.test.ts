import { Messages } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'

describe('repositories REST API', () => {
  let t: TestApp
  let admin: Session
  const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
  })
  afterAll(async () => t.close())

  const put = (key: string, payload: unknown, prefix = '/api') =>
    t.fastify.inject({
      method: 'PUT',
      url: `${prefix}/repositories/${key}`,
      headers: sessionHeaders(admin),
      payload: payload as object,
    })

  it('creates local, remote and virtual repositories and lists them in the layout tools expect', async () => {
    expect((await put('npm-local', { rclass: 'local', packageType: 'npm', description: 'ours' })).statusCode).toBe(201)
    const remote = await put('npm-remote', {
      rclass: 'remote',
      packageType: 'npm',
      url: 'http://upstream.invalid/registry/',
      username: 'bot',
      password: 'sekret',
      retrievalCachePeriodSecs: 60,
    })
    expect(remote.statusCode).toBe(201)
    expect(remote.json()).toMatchObject({
      key: 'npm-remote',
      url: 'http://upstream.invalid/registry',
      hasPassword: true,
      offline: false,
    })
    expect(remote.body).not.toContain('sekret')
    const row = await t.app.db.kysely
      .selectFrom('repositories')
      .selectAll()
      .where('key', '=', 'npm-remote')
      .executeTakeFirstOrThrow()
    expect(row.password_sealed).toMatch(/^v1\./)
    const virtual = await put(
      'npm',
      { rclass: 'virtual', packageType: 'npm', repositories: ['npm-local', 'npm-remote'], defaultDeploymentRepo: 'npm-local' },
      '/artifactory/api',
    )
    expect(virtual.statusCode).toBe(201)
    expect(virtual.json()).toMatchObject({ repositories: ['npm-local', 'npm-remote'], defaultDeploymentRepo: 'npm-local' })

    const list = await t.fastify.inject({ url: '/api/repositories', headers: { authorization: basic } })
    // `url` as tools expect it (a remote's upstream); `clientUrl` what npm is configured with, for every class.
    expect(list.json()).toEqual([
      {
        key: 'npm',
        type: 'VIRTUAL',
        description: '',
        url: expect.stringMatching(/\/artifactory\/npm$/),
        clientUrl: expect.stringMatching(/^http:\/\/[^/]+\/api\/npm\/npm\/$/),
        packageType: 'Npm',
      },
      {
        key: 'npm-local',
        type: 'LOCAL',
        description: 'ours',
        url: expect.stringMatching(/\/artifactory\/npm-local$/),
        clientUrl: expect.stringMatching(/\/api\/npm\/npm-local\/$/),
        packageType: 'Npm',
      },
      {
        key: 'npm-remote',
        type: 'REMOTE',
        description: '',
        url: 'http://upstream.invalid/registry',
        clientUrl: expect.stringMatching(/\/api\/npm\/npm-remote\/$/),
        packageType: 'Npm',
      },
    ])
    const locals = await t.fastify.inject({ url: '/api/repositories?type=local', headers: { authorization: basic } })
    expect(locals.json().map((r: { key: string }) => r.key)).toEqual(['npm-local'])
    // Anonymous callers see what they may read: nothing under the baseline rule.
    expect((await t.fastify.inject({ url: '/api/repositories' })).json()).toEqual([])
  })

  it('refuses bad keys with the spec wording, duplicates with 409, and unknown members', async () => {
    const bad = await put('bad key!', { rclass: 'local', packageType: 'npm' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toContain(Messages.invalidName)
    expect((await put('api', { rclass: 'local', packageType: 'npm' })).statusCode).toBe(400)
    const dup = await put('NPM-LOCAL', { rclass: 'local', packageType: 'npm' })
    expect(dup.statusCode).toBe(409)
    const noUrl = await put('r2', { rclass: 'remote', packageType: 'npm' })
    expect(noUrl.statusCode).toBe(400)
    expect(noUrl.json().errors[0].message).toMatch(/^url:/)
    const ghost = await put('v2x', { rclass: 'virtual', packageType: 'npm', repositories: ['nope'] })
    expect(ghost.statusCode).toBe(400)
    expect(ghost.json().errors[0].message).toContain('nope')
    const wrongType = await put('mvn-local', { rclass: 'local', packageType: 'maven' })
    expect(wrongType.statusCode).toBe(201)
    const mixed = await put('v3', { rclass: 'virtual', packageType: 'npm', repositories: ['mvn-local'] })
    expect(mixed.statusCode).toBe(400)
  })

  it('updates, keeps the password when none is sent, and deletes', async () => {
    const update = await t.fastify.inject({
      method: 'POST',
      url: '/api/repositories/npm-remote',
      headers: sessionHeaders(admin),
      payload: { offline: true, description: 'cached' },
    })
    expect(update.statusCode).toBe(200)
    expect(update.json()).toMatchObject({ offline: true, description: 'cached', hasPassword: true })
    const cls = await t.fastify.inject({
      method: 'POST',
      url: '/api/repositories/npm-remote',
      headers: sessionHeaders(admin),
      payload: { rclass: 'local' },
    })
    expect(cls.statusCode).toBe(400)
    const del = await t.fastify.inject({ method: 'DELETE', url: '/api/repositories/npm-local', headers: sessionHeaders(admin) })
    expect(del.statusCode).toBe(204)
    const virtual = await t.fastify.inject({ url: '/api/repositories/npm', headers: sessionHeaders(admin) })
    expect(virtual.json()).toMatchObject({ repositories: ['npm-remote'], defaultDeploymentRepo: '' })
    expect((await t.fastify.inject({ url: '/api/repositories/npm-local', headers: sessionHeaders(admin) })).statusCode).toBe(404)
  })

  it('is admin-only for configuration, and quick-creates the sample repositories', async () => {
    expect((await t.fastify.inject({ url: '/api/repositories/npm' })).statusCode).toBe(401)
    const quick = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/repositories/quickCreate',
      headers: sessionHeaders(admin),
      payload: { packageType: 'docker' },
    })
    expect(quick.statusCode).toBe(200)
    expect(quick.json()).toEqual({ created: ['docker-local', 'docker-virtual'], existing: [] })
    const v = await t.fastify.inject({ url: '/api/repositories/docker-virtual', headers: sessionHeaders(admin) })
    expect(v.json()).toMatchObject({ rclass: 'virtual', repositories: ['docker-local'], defaultDeploymentRepo: 'docker-local' })
  })
})
