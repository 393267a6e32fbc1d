import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../test/testApp.js'
import { ADMIN_API, adminHeaders, userWithToken } from './testUsers.js'

const ME = '/ui/api/v1/ui/access/me'
const ALL = ['read', 'annotate', 'deploy', 'delete', 'manage']

let t: TestApp
let admin: Record<string, string>
let alice: { authorization: string }
let bob: { authorization: string }
let carol: { authorization: string }

const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.fastify.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
const ok = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
  const res = await call(method, url, admin, payload)
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await adminHeaders(t.fastify)
  for (const key of ['libs-local', 'libs-remote', 'libs-secret', 'other-local', 'shop-npm', 'shop-docker']) {
    const remote = key.endsWith('remote')
    await ok('PUT', `/api/repositories/${key}`, {
      rclass: remote ? 'remote' : 'local',
      packageType: key.endsWith('docker') ? 'docker' : 'npm',
      ...(remote ? { url: 'https://registry.npmjs.org' } : {}),
    })
  }
  alice = await userWithToken(t.fastify, admin, 'alice')
  bob = await userWithToken(t.fastify, admin, 'bob')
  carol = await userWithToken(t.fastify, admin, 'carol')
  await ok('POST', `${ADMIN_API}/groups`, { name: 'readers', members: ['bob', 'alice'] })
  await ok('POST', `${ADMIN_API}/permissions`, {
    name: 'libs',
    repositories: {
      resources: { names: [], include: ['libs-*'], exclude: ['libs-secret'] },
      grants: [
        { kind: 'user', name: 'alice', actions: ['read', 'deploy'] },
        { kind: 'group', name: 'readers', actions: ['read', 'annotate'] },
      ],
    },
  })
  await ok('POST', `${ADMIN_API}/projects`, { key: 'shop', displayName: 'Shop' })
  await ok('PUT', `${ADMIN_API}/projects/shop/members`, {
    members: [
      { kind: 'user', name: 'alice', roles: ['Viewer'] },
      { kind: 'group', name: 'readers', roles: ['Developer'] },
    ],
  })
})
afterAll(() => t?.close())

describe('the caller’s effective permissions by repository', () => {
  it('lists exactly the repositories the caller holds actions on, with the actions from users, groups and projects', async () => {
    const res = await call('GET', `${ME}/repositories`, alice)
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    const body = res.json()
    expect(body.admin).toBe(false)
    expect(body.total).toBe(4)
    const developer = (await call('GET', `${ADMIN_API}/roles`, admin))
      .json()
      .find((r: { name: string }) => r.name === 'Developer')
    expect(body.items).toEqual([
      { repoKey: 'libs-local', rclass: 'local', packageType: 'npm', actions: ['read', 'annotate', 'deploy'] },
      { repoKey: 'libs-remote', rclass: 'remote', packageType: 'npm', actions: ['read', 'annotate', 'deploy'] },
      { repoKey: 'shop-docker', rclass: 'local', packageType: 'docker', actions: developer.actions },
      { repoKey: 'shop-npm', rclass: 'local', packageType: 'npm', actions: developer.actions },
    ])
    // What the list says is what the authorizer decides for each repository.
    for (const item of body.items) {
      const one = await call('GET', `/ui/api/v1/ui/access/repositories/${item.repoKey}/actions`, alice)
      expect(one.json().actions).toEqual(item.actions)
    }
    // Carol holds nothing anywhere.
    expect((await call('GET', `${ME}/repositories`, carol)).json()).toMatchObject({ total: 0, items: [] })
  })

  it('filters by name (a literal, case-insensitive) and pages', async () => {
    const libs = (await call('GET', `${ME}/repositories?search=LIBS`, bob)).json()
    expect(libs.items.map((i: { repoKey: string }) => i.repoKey)).toEqual(['libs-local', 'libs-remote'])
    expect((await call('GET', `${ME}/repositories?search=%25`, bob)).json().total).toBe(0)
    const page2 = (await call('GET', `${ME}/repositories?page=2&pageSize=3`, alice)).json()
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 })
    expect(page2.items.map((i: { repoKey: string }) => i.repoKey)).toEqual(['shop-npm'])
    const bad = await call('GET', `${ME}/repositories?pageSize=5000`, alice)
    expect(bad.statusCode).toBe(400)
  })

  it('shows an administrator every repository with every action', async () => {
    const body = (await call('GET', `${ME}/repositories`, admin)).json()
    expect(body.admin).toBe(true)
    expect(body.total).toBe(6)
    expect(body.items.every((i: { actions: string[] }) => i.actions.join() === ALL.join())).toBe(true)
  })

  it('follows a change of permissions at once', async () => {
    await ok('PUT', `${ADMIN_API}/groups/readers`, { name: 'readers', members: ['alice'] })
    const bobNow = (await call('GET', `${ME}/repositories`, bob)).json()
    expect(bobNow.total).toBe(0)
    await ok('PUT', `${ADMIN_API}/groups/readers`, { name: 'readers', members: ['bob', 'alice'] })
  })
})

describe('the caller’s effective permissions by project', () => {
  it('lists the projects the caller is a member of, each role and through whom, and what they add up to', async () => {
    const res = await call('GET', `${ME}/projects`, alice)
    expect(res.statusCode).toBe(200)
    const roles = (await call('GET', `${ADMIN_API}/roles`, admin)).json() as { name: string; actions: string[] }[]
    const actionsOf = (name: string) => roles.find((r) => r.name === name)?.actions ?? []
    const union = new Set([...actionsOf('Viewer'), ...actionsOf('Developer')])
    expect(res.json()).toEqual({
      admin: false,
      items: [
        {
          key: 'shop',
          displayName: 'Shop',
          roles: [
            { role: 'Developer', via: 'group', group: 'readers' },
            { role: 'Viewer', via: 'user', group: null },
          ],
          actions: ALL.filter((a) => union.has(a)),
          capabilities: [],
        },
      ],
    })
    expect((await call('GET', `${ME}/projects`, carol)).json()).toEqual({ admin: false, items: [] })
  })

  it('shows an administrator every project with everything', async () => {
    const body = (await call('GET', `${ME}/projects`, admin)).json()
    expect(body.admin).toBe(true)
    expect(body.items.map((p: { key: string }) => p.key)).toEqual(['dflt', 'shop'])
    for (const p of body.items) {
      expect(p.actions).toEqual(ALL)
      expect(p.capabilities).toEqual(['manage_members', 'manage_resources'])
    }
  })
})

describe('who may ask', () => {
  it('refuses anonymous callers with 401, also when anonymous access is on', async () => {
    for (const path of ['repositories', 'projects']) {
      const res = await call('GET', `${ME}/${path}`, {})
      expect(res.statusCode).toBe(401)
      expect(res.json().errors[0].message).toBe('Authentication is required')
    }
    await ok('PUT', `${ADMIN_API}/security/anonymous-access`, { enabled: true })
    expect((await call('GET', `${ME}/repositories`, {})).statusCode).toBe(401)
    await ok('PUT', `${ADMIN_API}/security/anonymous-access`, { enabled: false })
  })

  it('refuses a bad token with 401', async () => {
    const res = await call('GET', `${ME}/projects`, { authorization: 'Bearer trove_at_nothing' })
    expect(res.statusCode).toBe(401)
  })
})
