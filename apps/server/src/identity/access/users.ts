import {
  AccessMessages,
  type CreateUser,
  type UpdateUser,
  type UserDetail,
  type UserPage,
  type UserSummary,
} from '@trove/contracts/access'
import type { Kysely, Selectable, Updateable } from 'kysely'
import { badRequest, conflict, notFound } from '../../core/errors.js'
import { hashPassword } from '../../core/passwords.js'
import type { Database, UsersTable } from '../../core/schema.js'
import { contains } from '../../core/sqlLike.js'
import { findUserByName, insertUser } from '../users/repo.js'
import { recordChange } from './audit.js'

type Row = Pick<Selectable<UsersTable>, 'name' | 'email' | 'admin' | 'disabled' | 'mfa_required' | 'realm' | 'created_at'>

const summary = (r: Row): UserSummary => ({
  name: r.name,
  email: r.email,
  admin: Boolean(r.admin),
  disabled: Boolean(r.disabled),
  mfaRequired: Boolean(r.mfa_required),
  realm: r.realm,
  createdAt: r.created_at,
})

const SORT_COLUMNS = { name: 'name', email: 'email', createdAt: 'created_at', admin: 'admin', disabled: 'disabled' } as const

/** One page of users, searched by name or e-mail (case-insensitive), sorted, then by name. */
export async function listUsers(
  db: Kysely<Database>,
  q: { search?: string; sort: keyof typeof SORT_COLUMNS; order: 'asc' | 'desc'; page: number; pageSize: number },
): Promise<UserPage> {
  let base = db.selectFrom('users')
  const search = q.search?.trim().toLowerCase()
  if (search) {
    base = base.where((eb) => eb.or([contains(eb.fn('lower', ['name']), search), contains(eb.fn('lower', ['email']), search)]))
  }
  let rows = base.select(['name', 'email', 'admin', 'disabled', 'mfa_required', 'realm', 'created_at'])
  const column = SORT_COLUMNS[q.sort]
  rows = rows.orderBy(column, q.order)
  if (column !== 'name') rows = rows.orderBy('name', 'asc')
  const [items, count] = await Promise.all([
    rows
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { items: items.map(summary), total: Number(count.n), page: q.page, pageSize: q.pageSize }
}

async function groupIds(db: Kysely<Database>, names: string[]): Promise<number[]> {
  const unique = [...new Set(names)]
  if (unique.length === 0) return []
  const rows = await db.selectFrom('groups').select(['id', 'name']).where('name', 'in', unique).execute()
  const missing = unique.filter((n) => !rows.some((r) => r.name === n))
  if (missing.length > 0) throw badRequest(`groups: no group named ${missing.join(', ')}`)
  return rows.map((r) => r.id)
}

export async function getUser(db: Kysely<Database>, name: string): Promise<UserDetail> {
  const user = await findUserByName(db, name)
  if (!user) throw notFound(`User ${name} does not exist`)
  const groups = await db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select(['groups.name', 'groups.admin_privileges'])
    .where('group_members.user_id', '=', user.id)
    .orderBy('groups.name')
    .execute()
  return {
    ...summary(user),
    groups: groups.map((g) => g.name),
    effectiveAdmin: Boolean(user.admin) || groups.some((g) => g.admin_privileges),
  }
}

/** Enabled users with the admin flag: the instance must always keep one. */
async function activeAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('admin', '=', 1)
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function createUser(db: Kysely<Database>, actor: string, input: CreateUser): Promise<UserDetail> {
  const passwordHash = await hashPassword(input.password)
  await db.transaction().execute(async (trx) => {
    if (await findUserByName(trx, input.name)) throw conflict(`A user named ${input.name} already exists`)
    const ids = await groupIds(trx, input.groups ?? [])
    const id = await insertUser(trx, { name: input.name, email: input.email ?? null, passwordHash, admin: input.admin })
    await trx
      .updateTable('users')
      .set({ disabled: input.disabled ? 1 : 0, mfa_required: input.mfaRequired ? 1 : 0 })
      .where('id', '=', id)
      .execute()
    if (ids.length > 0) {
      await trx
        .insertInto('group_members')
        .values(ids.map((group_id) => ({ group_id, user_id: id })))
        .onConflict((oc) => oc.doNothing())
        .execute()
    }
    await recordChange(trx, {
      actor,
      action: 'user.create',
      targetType: 'user',
      targetName: input.name,
      details: { admin: input.admin, disabled: input.disabled, groups: input.groups ?? [] },
    })
  })
  return getUser(db, input.name)
}

export async function updateUser(db: Kysely<Database>, actor: string, name: string, input: UpdateUser): Promise<UserDetail> {
  await db.transaction().execute(async (trx) => {
    const user = await findUserByName(trx, name)
    if (!user) throw notFound(`User ${name} does not exist`)
    const losesAdmin = user.admin && !user.disabled && (input.admin === false || input.disabled === true)
    if (losesAdmin && (await activeAdmins(trx)) <= 1) throw conflict(AccessMessages.lastAdmin)
    const set: Updateable<UsersTable> = { updated_at: Date.now() }
    if (input.email !== undefined) set.email = input.email
    if (input.admin !== undefined) set.admin = input.admin ? 1 : 0
    if (input.disabled !== undefined) set.disabled = input.disabled ? 1 : 0
    if (input.mfaRequired !== undefined) set.mfa_required = input.mfaRequired ? 1 : 0
    await trx.updateTable('users').set(set).where('id', '=', user.id).execute()
    if (input.groups) {
      const ids = await groupIds(trx, input.groups)
      await trx.deleteFrom('group_members').where('user_id', '=', user.id).execute()
      if (ids.length > 0) {
        await trx
          .insertInto('group_members')
          .values(ids.map((group_id) => ({ group_id, user_id: user.id })))
          .execute()
      }
    }
    // A disabled user is signed out everywhere at once.
    if (input.disabled) await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute()
    await recordChange(trx, { actor, action: 'user.update', targetType: 'user', targetName: name, details: { ...input } })
  })
  return getUser(db, name)
}

export async function deleteUser(db: Kysely<Database>, actor: { name: string; userId: number }, name: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await findUserByName(trx, name)
    if (!user) throw notFound(`User ${name} does not exist`)
    if (user.id === actor.userId) throw conflict(AccessMessages.selfDelete)
    if (user.admin && !user.disabled && (await activeAdmins(trx)) <= 1) throw conflict(AccessMessages.lastAdmin)
    await trx.deleteFrom('permission_grants').where('grantee_kind', '=', 'user').where('grantee_id', '=', user.id).execute()
    await trx.deleteFrom('project_members').where('member_kind', '=', 'user').where('member_id', '=', user.id).execute()
    await trx.deleteFrom('users').where('id', '=', user.id).execute()
    await recordChange(trx, { actor: actor.name, action: 'user.delete', targetType: 'user', targetName: name })
  })
}

/** An administrator sets a new password: the user's sessions end, their tokens stay. */
export async function resetUserPassword(db: Kysely<Database>, actor: string, name: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password)
  await db.transaction().execute(async (trx) => {
    const user = await findUserByName(trx, name)
    if (!user) throw notFound(`User ${name} does not exist`)
    const now = Date.now()
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
      .where('id', '=', user.id)
      .execute()
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute()
    await recordChange(trx, { actor, action: 'user.password.reset', targetType: 'user', targetName: name })
  })
}
