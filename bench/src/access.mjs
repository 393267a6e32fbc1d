// Access control's figures: the permission check (ctx.authz) with 1,000 permission targets and
// 10,000 users, and one page of the users list of 10,000 users through the real server.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startServer } from './server.mjs'
import { median } from './stats.mjs'

const dist = new URL('../../apps/server/dist/src/', import.meta.url).pathname
const USERS = 10_000
const TARGETS = 1_000
const GROUPS = 200

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]
}

/** Fills a database: users, groups (each user in 3), targets with patterns and grants. */
async function populate(db) {
  const now = Date.now()
  const users = Array.from({ length: USERS }, (_, i) => ({
    name: `user-${String(i).padStart(5, '0')}`,
    email: `user${i}@example.org`,
    password_hash: 'not-a-real-hash',
    realm: 'internal',
    admin: 0,
    disabled: 0,
    created_at: now + i,
    updated_at: now,
    password_changed_at: now,
  }))
  for (let i = 0; i < users.length; i += 500)
    await db
      .insertInto('users')
      .values(users.slice(i, i + 500))
      .execute()
  const userIds = (await db.selectFrom('users').select('id').where('name', 'like', 'user-%').execute()).map((r) => r.id)
  await db
    .insertInto('groups')
    .values(
      Array.from({ length: GROUPS }, (_, g) => ({
        name: `group-${g}`,
        description: '',
        auto_join: 0,
        admin_privileges: 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute()
  const groupIds = (await db.selectFrom('groups').select('id').execute()).map((r) => r.id)
  const members = userIds.flatMap((u, i) => [0, 1, 2].map((k) => ({ group_id: groupIds[(i * 7 + k * 13) % GROUPS], user_id: u })))
  const unique = [...new Map(members.map((m) => [`${m.group_id}:${m.user_id}`, m])).values()]
  for (let i = 0; i < unique.length; i += 500)
    await db
      .insertInto('group_members')
      .values(unique.slice(i, i + 500))
      .execute()
  for (let t = 0; t < TARGETS; t++) {
    const resources = {
      repositories: { names: [`team${t}-local`], include: [`team${t}-*`, `shared-${t % 50}-*`], exclude: [`team${t}-secret*`] },
      builds: { names: [], include: [`team${t}/**`], exclude: [] },
    }
    const { id } = await db
      .insertInto('permission_targets')
      .values({ name: `target-${t}`, resources: JSON.stringify(resources), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const grants = []
    for (let k = 0; k < 10; k++) {
      grants.push({
        target_id: id,
        resource_kind: 'repositories',
        grantee_kind: 'user',
        grantee_id: userIds[(t * 10 + k) % USERS],
        actions: 'read,deploy',
      })
    }
    for (let k = 0; k < 2; k++) {
      grants.push({
        target_id: id,
        resource_kind: 'repositories',
        grantee_kind: 'group',
        grantee_id: groupIds[(t + k * 97) % GROUPS],
        actions: 'read',
      })
    }
    await db.insertInto('permission_grants').values(grants).execute()
  }
  return userIds
}

async function benchPermissionCheck(row) {
  const { loadConfig } = await import(`${dist}core/config.js`)
  const { openDb } = await import(`${dist}core/db.js`)
  const { migrateToLatest } = await import(`${dist}core/migrate.js`)
  const { PermissionAuthorizer } = await import(`${dist}identity/access/authorizer.js`)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-access-'))
  const db = await openDb(loadConfig({ TROVE_DATA_DIR: dataDir, TROVE_LOG_STDOUT: 'false' }))
  try {
    await migrateToLatest(db)
    const userIds = await populate(db.kysely)
    const authz = new PermissionAuthorizer(db.kysely)
    const principal = (i) => ({ userId: userIds[i % USERS], name: `user-${i}`, admin: false, realm: 'internal', via: 'token' })
    const repo = (i) => (i % 3 === 0 ? `team${i % TARGETS}-local` : i % 3 === 1 ? `shared-${i % 50}-npm` : `other-${i}`)
    const loadStart = performance.now()
    await authz.canOnRepo(principal(0), 'read', 'warm-up')
    const loadMs = performance.now() - loadStart

    // Hot path: the same 1,000 (user, repository) pairs asked again and again, as a busy client does.
    const BATCH = 1000
    for (let i = 0; i < BATCH; i++) await authz.canOnRepo(principal(i * 37), 'read', repo(i))
    const hot = []
    for (let round = 0; round < 50; round++) {
      const start = performance.now()
      for (let i = 0; i < BATCH; i++) await authz.canOnRepo(principal(i * 37), 'read', repo(i))
      hot.push(((performance.now() - start) * 1000) / BATCH)
    }
    // First question for a (user, repository) pair: computed over all 1,000 targets.
    const cold = []
    let n = 1_000_000
    for (let round = 0; round < 50; round++) {
      const start = performance.now()
      for (let i = 0; i < BATCH; i++, n++) await authz.canOnRepo(principal(n), 'deploy', `${repo(n)}-${round}`)
      cold.push(((performance.now() - start) * 1000) / BATCH)
    }
    const hot50 = median(hot)
    const cold50 = median(cold)
    row(
      'permission check, cached (1,000 targets, 10,000 users)',
      hot50.toFixed(2),
      'µs',
      '< 50 p50',
      hot50 < 50,
      `p99 of batches ${percentile(hot, 0.99).toFixed(2)} µs`,
    )
    row(
      'permission check, first ask of a pair',
      cold50.toFixed(2),
      'µs',
      '< 50 p50',
      cold50 < 50,
      'only the targets naming the user or their groups',
    )
    row('permission snapshot load', loadMs.toFixed(0), 'ms', '-', true, 'after any change, once per node')
  } finally {
    await db.kysely.destroy()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

async function benchUsersList(row) {
  const password = 'bench-admin-password'
  const server = await startServer({ TROVE_ADMIN_PASSWORD: password })
  try {
    const { loadConfig } = await import(`${dist}core/config.js`)
    const { openDb } = await import(`${dist}core/db.js`)
    const db = await openDb(loadConfig({ TROVE_DATA_DIR: server.dataDir, TROVE_LOG_STDOUT: 'false' }))
    await populate(db.kysely)
    await db.kysely.destroy()
    const login = await fetch(`${server.url}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: 'admin', password, type: 'login' }),
    })
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const get = async (query) => {
      const start = performance.now()
      const res = await fetch(`${server.url}/ui/api/v1/ui/admin/users?${query}`, { headers: { cookie } })
      const body = await res.json()
      const ms = performance.now() - start
      if (res.status !== 200) throw new Error(`users list: ${res.status} ${JSON.stringify(body)}`)
      return { ms, body }
    }
    const first = await get('page=1')
    if (first.body.total < USERS || first.body.items.length !== 100) throw new Error('users list: unexpected page')
    const pages = []
    const searches = []
    for (let i = 0; i < 100; i++) {
      pages.push((await get(`page=${1 + (i % 100)}&sort=${i % 2 ? 'name' : 'createdAt'}&order=${i % 3 ? 'asc' : 'desc'}`)).ms)
      searches.push((await get(`search=user-0${i % 10}&page=1`)).ms)
    }
    const p50 = median(pages)
    const s50 = median(searches)
    row(
      'users list page (10,000 users, 100 a page)',
      p50.toFixed(1),
      'ms',
      '< 30 p50',
      p50 < 30,
      `p95 ${percentile(pages, 0.95).toFixed(1)} ms, sorted by name or date`,
    )
    row(
      'users list search (10,000 users)',
      s50.toFixed(1),
      'ms',
      '< 30 p50',
      s50 < 30,
      `p95 ${percentile(searches, 0.95).toFixed(1)} ms`,
    )
  } finally {
    await server.stop()
  }
}

/** @param {import('./stats.mjs').Row} row */
export async function benchAccess(row) {
  await benchPermissionCheck(row)
  await benchUsersList(row)
}
