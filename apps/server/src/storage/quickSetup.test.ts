import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRepo } from '../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../test/testApp.js'
import { userWithToken } from '../identity/access/testUsers.js'

const URL = '/ui/api/v1/ui/onboarding/quickSetup'

/** Onboarding's quick setup: sample repositories of several package types, all or none. */
describe('quick setup', () => {
  let t: TestApp
  let admin: Session
  const keys = async () =>
    (
      await t.app.db.kysely
        .selectFrom('repositories')
        .select(['key', 'rclass', 'url', 'default_deployment_repo'])
        .orderBy('key')
        .execute()
    ).map((r) => r.key)

  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
  })
  afterAll(async () => {
    await t.close()
  })

  it('makes a local, a remote and a virtual repository for each package type, in one go', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: URL,
      headers: sessionHeaders(admin),
      payload: { packageTypes: ['npm', 'docker', 'generic'], upstreams: { docker: 'https://mirror.example/v2' } },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().repositories).toEqual([
      { key: 'npm-local', rclass: 'local', packageType: 'npm' },
      { key: 'npm-remote', rclass: 'remote', packageType: 'npm' },
      { key: 'npm-virtual', rclass: 'virtual', packageType: 'npm' },
      { key: 'docker-local', rclass: 'local', packageType: 'docker' },
      { key: 'docker-remote', rclass: 'remote', packageType: 'docker' },
      { key: 'docker-virtual', rclass: 'virtual', packageType: 'docker' },
      { key: 'generic-local', rclass: 'local', packageType: 'generic' },
    ])
    const virtual = await t.fastify.inject({ url: '/api/repositories/npm-virtual', headers: sessionHeaders(admin) })
    expect(virtual.json()).toMatchObject({ repositories: ['npm-local', 'npm-remote'], defaultDeploymentRepo: 'npm-local' })
    const remote = await t.fastify.inject({ url: '/api/repositories/npm-remote', headers: sessionHeaders(admin) })
    expect(remote.json().url).toBe('https://registry.npmjs.org')
    const docker = await t.fastify.inject({ url: '/api/repositories/docker-remote', headers: sessionHeaders(admin) })
    expect(docker.json().url).toBe('https://mirror.example/v2')
    // Onboarding sees repositories beyond the samples' absence now.
    const status = await t.fastify.inject({ url: '/ui/api/v1/ui/onboarding/initStatus', headers: sessionHeaders(admin) })
    expect(status.statusCode).toBe(200)
  })

  it('refuses the whole batch when a name is taken, naming every clash, and makes nothing', async () => {
    await createRepo(t.fastify, admin, 'PYPI-LOCAL', { rclass: 'local', packageType: 'pypi' })
    const before = await keys()
    const res = await t.fastify.inject({
      method: 'POST',
      url: URL,
      headers: sessionHeaders(admin),
      payload: { packageTypes: ['maven', 'pypi', 'npm'] },
    })
    expect(res.statusCode).toBe(409)
    expect(res.json().errors[0].message).toBe('Nothing was created: PYPI-LOCAL, npm-local, npm-remote, npm-virtual already exist')
    expect(await keys()).toEqual(before)
    expect(before).not.toContain('maven-local')
  })

  it('refuses bad input and anyone but an administrator', async () => {
    for (const payload of [
      { packageTypes: [] },
      { packageTypes: ['cobol'] },
      { packageTypes: ['npm'], upstreams: { npm: 'not a url' } },
    ]) {
      const res = await t.fastify.inject({ method: 'POST', url: URL, headers: sessionHeaders(admin), payload })
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
    }
    const user = await userWithToken(t.fastify, sessionHeaders(admin), 'quick-user')
    const asUser = await t.fastify.inject({ method: 'POST', url: URL, headers: user, payload: { packageTypes: ['maven'] } })
    expect(asUser.statusCode).toBe(403)
    const anonymous = await t.fastify.inject({ method: 'POST', url: URL, payload: { packageTypes: ['maven'] } })
    expect(anonymous.statusCode).toBe(401)
    expect(await keys()).not.toContain('maven-local')
  })
})
