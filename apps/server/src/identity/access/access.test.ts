import { AccessMessages } from '@trove/contracts/access'
import { DEFAULT_PROJECT, Messages } from '@trove/contracts/messages'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/testApp.js'
import { ADMIN_API, adminHeaders, tokenFor, userWithToken } from './testUsers.js'

let t: TestApp
let admin: Record<string, string>
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminHeaders(t.fastify)
})
afterAll(() => t?.close())

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.fastify.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
const actions = async (repo: string, headers: Record<string, string> = {}) =>
  (await call('GET', `/ui/api/v1/ui/access/repositories/${repo}/actions`, headers)).json().actions

describe('users', () => {
  it('are created, listed with search, sort and pages of 100, edited, disabled and deleted', async () => {
    for (let i = 0; i < 105; i++) {
      const res = await call('POST', `${ADMIN_API}/users`, admin, {
        name: `bulk-${String(i).padStart(3, '0')}`,
        password: 'bulk-password',
        email: `b${i}@x.org`,
      })
      expect(res.statusCode).toBe(201)
    }
    const page1 = (await call('GET', `${ADMIN_API}/users?search=BULK`, admin)).json()
    expect(page1.total).toBe(105)
    expect(page1.items).toHaveLength(100)
    expect(page1.items[0].name).toBe('bulk-000')
    const page2 = (await call('GET', `${ADMIN_API}/users?search=bulk&page=2`, admin)).json()
    expect(page2.items.map((u: { name: string }) => u.name)).toEqual(['bulk-100', 'bulk-101', 'bulk-102', 'bulk-103', 'bulk-104'])
    // % and _ are searched for as they are, not as wildcards
    expect((await call('GET', `${ADMIN_API}/users?search=k_0`, admin)).json().total).toBe(0)
    expect((await call('GET', `${ADMIN_API}/users?search=%25`, admin)).json().total).toBe(0)
    await call('POST', `${ADMIN_API}/users`, admin, { name: 'under_score', password: 'under-password' })
    expect((await call('GET', `${ADMIN_API}/users?search=R_S`, admin)).json().items.map((u: { name: string }) => u.name)).toEqual(
      ['under_score'],
    )
    const desc = (await call('GET', `${ADMIN_API}/users?search=bulk&sort=name&order=desc&pageSize=1`, admin)).json()
    expect(desc.items[0].name).toBe('bulk-104')

    const dup = await call('POST', `${ADMIN_API}/users`, admin, { name: 'bulk-001', password: 'whatever-pass' })
    expect(dup.statusCode).toBe(409)
    expect(dup.json().errors[0].message).toBe('A user named bulk-001 already exists')
    const bad = await call('POST', `${ADMIN_API}/users`, admin, { name: 'bad name!', password: 'whatever-pass' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors[0].message).toContain(`body.name: ${Messages.invalidName}`)

    const edited = await call('PUT', `${ADMIN_API}/users/bulk-001`, admin, {
      email: 'new@x.org',
      mfaRequired: true,
      disabled: true,
    })
    expect(edited.json()).toMatchObject({ email: 'new@x.org', mfaRequired: true, disabled: true })
    const disabledSignIn = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      payload: { user: 'bulk-001', password: 'bulk-password', type: 'login' },
    })
    expect(disabledSignIn.statusCode).toBe(403)

    await call('POST', `${ADMIN_API}/groups`, admin, { name: 'bulk-team' })
    const grouped = await call('PUT', `${ADMIN_API}/users/bulk-004`, admin, { groups: ['bulk-team'] })
    expect(grouped.json().groups).toEqual(['bulk-team'])
    const noGroup = await call('PUT', `${ADMIN_API}/users/bulk-004`, admin, { groups: ['nope'] })
    expect(noGroup.statusCode).toBe(400)
    expect(noGroup.json().errors[0].message).toBe('groups: no group named nope')
    expect((await call('GET', `${ADMIN_API}/users/bulk-004`, admin)).json().groups).toEqual(['bulk-team'])

    const reset = await call('POST', `${ADMIN_API}/users/bulk-002/password`, admin, { password: 'a-new-password' })
    expect(reset.statusCode).toBe(204)
    await expect(tokenFor(t.fastify, 'bulk-002', 'a-new-password')).resolves.toBeTruthy()

    expect((await call('DELETE', `${ADMIN_API}/users/bulk-003`, admin)).statusCode).toBe(204)
    expect((await call('GET', `${ADMIN_API}/users/bulk-003`, admin)).statusCode).toBe(404)
  })

  it('never lose the last administrator', async () => {
    const demote = await call('PUT', `${ADMIN_API}/users/admin`, admin, { admin: false })
    expect(demote.statusCode).toBe(409)
    expect(demote.json().errors[0].message).toBe(AccessMessages.lastAdmin)
    expect((await call('PUT', `${ADMIN_API}/users/admin`, admin, { disabled: true })).statusCode).toBe(409)
    expect((await call('DELETE', `${ADMIN_API}/users/admin`, admin)).statusCode).toBe(409)
    // With a second administrator, the first may step down.
    await call('POST', `${ADMIN_API}/users`, admin, { name: 'second-admin', password: 'second-password', admin: true })
    expect((await call('PUT', `${ADMIN_API}/users/second-admin`, admin, { admin: false })).statusCode).toBe(200)
  })
})

describe('groups and permissions', () => {
  it('grant exactly the actions a permission names, to users and through groups, and follow changes at once', async () => {
    const alice = await userWithToken(t.fastify, admin, 'alice')
    const bob = await userWithToken(t.fastify, admin, 'bob')
    expect(await actions('libs-local', alice)).toEqual([])

    const group = await call('POST', `${ADMIN_API}/groups`, admin, { name: 'readers', members: ['bob'] })
    expect(group.statusCode).toBe(201)
    const dupGroup = await call('POST', `${ADMIN_API}/groups`, admin, { name: 'readers' })
    expect(dupGroup.statusCode).toBe(409)
    expect(dupGroup.json().errors[0].message).toBe('A group named readers already exists')
    const badGroup = await call('POST', `${ADMIN_API}/groups`, admin, { name: 'no good!' })
    expect(badGroup.statusCode).toBe(400)
    expect(badGroup.json().errors[0].message).toContain(`body.name: ${Messages.invalidName}`)

    const created = await call('POST', `${ADMIN_API}/permissions`, admin, {
      name: 'libs',
      repositories: {
        resources: { names: [], include: ['libs-*'], exclude: ['libs-secret'] },
        grants: [
          { kind: 'user', name: 'alice', actions: ['read', 'deploy'] },
          { kind: 'group', name: 'readers', actions: ['read'] },
        ],
      },
    })
    expect(created.statusCode).toBe(201)
    const again = await call('POST', `${ADMIN_API}/permissions`, admin, {
      name: 'libs',
      repositories: { resources: { names: ['x'] }, grants: [] },
    })
    expect(again.statusCode).toBe(409)
    expect(again.json().errors[0].message).toBe('A permission named libs already exists')
    const badName = await call('POST', `${ADMIN_API}/permissions`, admin, {
      name: 'no good!',
      repositories: { resources: { names: ['x'] }, grants: [] },
    })
    expect(badName.statusCode).toBe(400)
    expect(badName.json().errors[0].message).toContain(Messages.invalidName)
    expect(await actions('libs-local', alice)).toEqual(['read', 'deploy'])
    expect(await actions('libs-secret', alice)).toEqual([])
    expect(await actions('docker-local', alice)).toEqual([])
    expect(await actions('libs-local', bob)).toEqual(['read'])
    expect(await actions('libs-local')).toEqual([])

    // Taking bob out of the group takes his read away.
    await call('PUT', `${ADMIN_API}/groups/readers`, admin, { name: 'readers', members: [] })
    expect(await actions('libs-local', bob)).toEqual([])

    const unknown = await call('POST', `${ADMIN_API}/permissions`, admin, {
      name: 'broken',
      builds: { resources: { include: ['**'] }, grants: [{ kind: 'user', name: 'nobody', actions: ['read'] }] },
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().errors[0].message).toBe('builds.grants: no user named nobody')
    expect((await call('GET', `${ADMIN_API}/permissions/broken`, admin)).statusCode).toBe(404)
  })

  it('let a user who manages a permission change its grants, but not grant more than they hold', async () => {
    const carol = await userWithToken(t.fastify, admin, 'carol')
    await userWithToken(t.fastify, admin, 'dave')
    const target = {
      name: 'team',
      repositories: {
        resources: { names: ['team-local'], include: [], exclude: [] },
        grants: [{ kind: 'user', name: 'carol', actions: ['read', 'manage'] }],
      },
    }
    expect((await call('POST', `${ADMIN_API}/permissions`, admin, target)).statusCode).toBe(201)
    const withDave = structuredClone(target)
    withDave.repositories.grants.push({ kind: 'user', name: 'dave', actions: ['read'] })
    expect((await call('PUT', `${ADMIN_API}/permissions/team`, carol, withDave)).statusCode).toBe(200)
    const tooMuch = structuredClone(target)
    tooMuch.repositories.grants.push({ kind: 'user', name: 'dave', actions: ['delete'] })
    const refused = await call('PUT', `${ADMIN_API}/permissions/team`, carol, tooMuch)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().errors[0].message).toBe(AccessMessages.cannotGrantMore)
    // Someone who does not manage it does not even see it.
    const dave = await tokenFor(t.fastify, 'dave', 'dave-password-1')
    expect((await call('GET', `${ADMIN_API}/permissions/team`, dave)).statusCode).toBe(404)
  })

  it('make members of an admin-privilege group administrators, and put new users in auto-join groups', async () => {
    await call('POST', `${ADMIN_API}/groups`, admin, { name: 'everyone', autoJoin: true })
    const erin = await userWithToken(t.fastify, admin, 'erin')
    expect((await call('GET', `${ADMIN_API}/groups/everyone`, admin)).json().members).toContain('erin')
    expect((await call('GET', `${ADMIN_API}/users`, erin)).statusCode).toBe(403)
    await call('POST', `${ADMIN_API}/groups`, admin, { name: 'ops', adminPrivileges: true, members: ['erin'] })
    expect((await call('GET', `${ADMIN_API}/users`, erin)).statusCode).toBe(200)
    expect((await call('GET', `${ADMIN_API}/users/erin`, admin)).json()).toMatchObject({ admin: false, effectiveAdmin: true })
  })
})

describe('anonymous access', () => {
  it('is off by default, one switch, shown in the footer, and then a permission like any other', async () => {
    expect((await call('GET', '/ui/api/v1/ui/auth/screen/footer', {})).json().anonymousAccess).toBe(false)
    expect((await call('GET', `${ADMIN_API}/security/anonymous-access`, admin)).json()).toEqual({ enabled: false })
    await call('POST', `${ADMIN_API}/permissions`, admin, {
      name: 'public-read',
      repositories: { resources: { names: ['public-local'] }, grants: [{ kind: 'anonymous', actions: ['read'] }] },
    })
    expect(await actions('public-local')).toEqual([])
    expect((await call('PUT', `${ADMIN_API}/security/anonymous-access`, admin, { enabled: true })).json()).toEqual({
      enabled: true,
    })
    expect((await call('GET', '/ui/api/v1/ui/auth/screen/footer', {})).json().anonymousAccess).toBe(true)
    expect(await actions('public-local')).toEqual(['read'])
    expect(await actions('other-local')).toEqual([])
    await call('PUT', `${ADMIN_API}/security/anonymous-access`, admin, { enabled: false })
    expect(await actions('public-local')).toEqual([])
  })
})

describe('projects and roles', () => {
  it('validate keys, refuse duplicates, and give members their roles on the project’s repositories', async () => {
    const list = (await call('GET', `${ADMIN_API}/projects`, admin)).json()
    expect(list.map((p: { key: string; displayName: string }) => [p.key, p.displayName])).toContainEqual([
      DEFAULT_PROJECT.key,
      DEFAULT_PROJECT.name,
    ])
    const upper = await call('POST', `${ADMIN_API}/projects`, admin, { key: 'Shop', displayName: 'Shop' })
    expect(upper.statusCode).toBe(400)
    expect(upper.json().errors[0].message).toContain(Messages.projectKeyLowercase)
    const long = await call('POST', `${ADMIN_API}/projects`, admin, { key: `a${'b'.repeat(128)}`, displayName: 'Long' })
    expect(long.statusCode).toBe(400)
    expect(long.json().errors[0].message).toMatch(/body\.key/)
    // The key length limit of shell §9 is 128: a key of exactly 128 characters is accepted.
    const longest = await call('POST', `${ADMIN_API}/projects`, admin, { key: `a${'b'.repeat(127)}`, displayName: 'Longest' })
    expect(longest.statusCode).toBe(201)
    const shop = await call('POST', `${ADMIN_API}/projects`, admin, { key: 'shop', displayName: 'Shop', storageQuotaBytes: 1e9 })
    expect(shop.statusCode).toBe(201)
    expect(shop.json()).toMatchObject({ key: 'shop', storageQuotaBytes: 1e9 })
    expect((await call('POST', `${ADMIN_API}/projects`, admin, { key: 'shop', displayName: 'Other' })).statusCode).toBe(409)

    const frank = await userWithToken(t.fastify, admin, 'frank')
    const gina = await userWithToken(t.fastify, admin, 'gina')
    expect((await call('GET', `${ADMIN_API}/projects`, frank)).statusCode).toBe(403)
    await call('PUT', `${ADMIN_API}/projects/shop/members`, admin, {
      members: [
        { kind: 'user', name: 'frank', roles: ['Project Admin'] },
        { kind: 'user', name: 'gina', roles: ['Viewer'] },
      ],
    })
    expect(await actions('shop-npm', gina)).toEqual(['read'])
    expect(await actions('shop-npm', frank)).toEqual(['read', 'annotate', 'deploy', 'delete', 'manage'])
    expect(await actions('dflt-npm', frank)).toEqual([])
    // The project admin sees and manages their project only.
    expect((await call('GET', `${ADMIN_API}/projects`, frank)).json().map((p: { key: string }) => p.key)).toEqual(['shop'])
    expect((await call('GET', `${ADMIN_API}/projects/dflt`, frank)).statusCode).toBe(403)
    const me = (await call('GET', '/ui/api/v1/ui/access/me', frank)).json()
    expect(me).toMatchObject({ admin: false, projectAdminOf: ['shop'], canAdministerProjects: true })
    // The console's project picker: a member sees the default project and theirs, marked with
    // whether they administer it; a non-member does not see it; an admin sees and administers all.
    const picker = async (headers: Record<string, string>) =>
      (await call('GET', '/ui/api/v1/ui/shell/projects', headers)).json().projects
    expect(await picker(frank)).toEqual([
      { key: DEFAULT_PROJECT.key, name: DEFAULT_PROJECT.name, admin: false },
      { key: 'shop', name: 'Shop', admin: true },
    ])
    expect(await picker(gina)).toEqual([
      { key: DEFAULT_PROJECT.key, name: DEFAULT_PROJECT.name, admin: false },
      { key: 'shop', name: 'Shop', admin: false },
    ])
    const outsider = await userWithToken(t.fastify, admin, 'outsider')
    expect(await picker(outsider)).toEqual([{ key: DEFAULT_PROJECT.key, name: DEFAULT_PROJECT.name, admin: false }])
    expect(await picker(admin)).toContainEqual({ key: 'shop', name: 'Shop', admin: true })
    const promote = await call('PUT', `${ADMIN_API}/projects/shop/members`, frank, {
      members: [
        { kind: 'user', name: 'frank', roles: ['Project Admin'] },
        { kind: 'user', name: 'gina', roles: ['Developer'] },
      ],
    })
    expect(promote.statusCode).toBe(200)
    expect(await actions('shop-npm', gina)).toEqual(['read', 'annotate', 'deploy', 'delete'])
    expect((await call('POST', `${ADMIN_API}/projects`, frank, { key: 'mine', displayName: 'Mine' })).statusCode).toBe(403)

    // Custom global roles, usable in any project; predefined ones stay as they are.
    expect(
      (await call('POST', `${ADMIN_API}/roles`, admin, { name: 'Release Manager', actions: ['read', 'annotate'] })).statusCode,
    ).toBe(201)
    expect((await call('POST', `${ADMIN_API}/roles`, admin, { name: 'Viewer' })).statusCode).toBe(409)
    expect((await call('DELETE', `${ADMIN_API}/roles/Viewer`, admin)).statusCode).toBe(403)
    const roles = (await call('GET', `${ADMIN_API}/roles`, frank)).json().map((r: { name: string }) => r.name)
    expect(roles).toEqual(['Project Admin', 'Developer', 'Contributor', 'Viewer', 'Release Manager'])
  })
})

describe('the audit', () => {
  it('keeps who changed which user, group, permission or project, and shows it to admins only', async () => {
    const page = (await call('GET', `${ADMIN_API}/audit?pageSize=1000`, admin)).json()
    const seen = page.items.map(
      (e: { actor: string; action: string; targetName: string }) => `${e.actor} ${e.action} ${e.targetName}`,
    )
    expect(seen).toContain('admin user.create alice')
    expect(seen).toContain('admin group.create readers')
    expect(seen).toContain('admin permission.create libs')
    expect(seen).toContain('carol permission.update team')
    expect(seen).toContain('admin project.create shop')
    expect(seen).toContain('frank project.members shop')
    expect(seen).toContain('admin security.anonymous-access anonymous-access')
    expect(seen).not.toContain('admin permission.create broken')
    const users = (await call('GET', `${ADMIN_API}/audit?targetType=user`, admin)).json()
    expect(users.items.every((e: { targetType: string }) => e.targetType === 'user')).toBe(true)
    const frank = await tokenFor(t.fastify, 'frank', 'frank-password-1')
    expect((await call('GET', `${ADMIN_API}/audit`, frank)).statusCode).toBe(403)
  })
})
