import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/testApp.js'
import type { Principal } from '../../core/access.js'
import { PermissionAuthorizer } from './authorizer.js'
import { ADMIN_API, adminHeaders, userWithToken } from './testUsers.js'

let t: TestApp
let admin: Record<string, string>
let ivan: Principal
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminHeaders(t.fastify)
  await userWithToken(t.fastify, admin, 'ivan')
  const row = await t.app.db.kysely.selectFrom('users').select('id').where('name', '=', 'ivan').executeTakeFirstOrThrow()
  ivan = { userId: row.id, name: 'ivan', admin: false, realm: 'internal', via: 'token' }
})
afterAll(() => t?.close())

describe('the permission authorizer', () => {
  it('decides on builds and release bundles apart from repositories, and filters readable repository keys', async () => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: `${ADMIN_API}/permissions`,
      headers: admin,
      payload: {
        name: 'ci',
        repositories: { resources: { names: ['ci-local'] }, grants: [{ kind: 'user', name: 'ivan', actions: ['read'] }] },
        builds: { resources: { include: ['ci/**'] }, grants: [{ kind: 'user', name: 'ivan', actions: ['read', 'deploy'] }] },
        releaseBundles: { resources: { names: ['bundle-a'] }, grants: [{ kind: 'user', name: 'ivan', actions: ['read'] }] },
      },
    })
    expect(res.statusCode).toBe(201)
    const dup = await t.fastify.inject({
      method: 'POST',
      url: `${ADMIN_API}/permissions`,
      headers: admin,
      payload: { name: 'ci', builds: { resources: {} } },
    })
    expect(dup.statusCode).toBe(409)
    const authz = new PermissionAuthorizer(t.app.db.kysely)
    expect(await authz.canOnBuild(ivan, 'deploy', 'ci/backend/nightly')).toBe(true)
    expect(await authz.canOnBuild(ivan, 'deploy', 'other')).toBe(false)
    expect(await authz.canOnRepo(ivan, 'deploy', 'ci-local')).toBe(false)
    expect(await authz.canOnReleaseBundle(ivan, 'read', 'bundle-a')).toBe(true)
    expect(await authz.canOnReleaseBundle(ivan, 'read', 'bundle-b')).toBe(false)
    expect(await authz.readableRepoKeys(ivan, ['x-local', 'ci-local', 'y'])).toEqual(['ci-local'])
    expect(await authz.readableRepoKeys(null, ['ci-local'])).toEqual([])
    expect(await authz.canOnRepo({ ...ivan, admin: true }, 'manage', 'anything')).toBe(true)
  })

  it('sees a change made through another node once it checks the access version', async () => {
    const otherNode = new PermissionAuthorizer(t.app.db.kysely, 0)
    expect(await otherNode.canOnRepo(ivan, 'read', 'late-local')).toBe(false)
    await t.fastify.inject({
      method: 'POST',
      url: `${ADMIN_API}/permissions`,
      headers: admin,
      payload: {
        name: 'late',
        repositories: { resources: { names: ['late-local'] }, grants: [{ kind: 'user', name: 'ivan', actions: ['read'] }] },
      },
    })
    expect(await otherNode.canOnRepo(ivan, 'read', 'late-local')).toBe(true)
    await t.fastify.inject({ method: 'DELETE', url: `${ADMIN_API}/permissions/late`, headers: admin })
    expect(await otherNode.canOnRepo(ivan, 'read', 'late-local')).toBe(false)
  })
})
