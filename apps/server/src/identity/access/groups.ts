import type { Group, GroupSummary } from '@trove/contracts/access'
import type { Kysely } from 'kysely'
import { badRequest, conflict, notFound } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import { recordChange } from './audit.js'

export async function listGroups(db: Kysely<Database>): Promise<GroupSummary[]> {
  const rows = await db
    .selectFrom('groups')
    .leftJoin('group_members', 'group_members.group_id', 'groups.id')
    .select((eb) => [
      'groups.name',
      'groups.description',
      'groups.auto_join',
      'groups.admin_privileges',
      eb.fn.count<number | string>('group_members.user_id').as('members'),
    ])
    .groupBy(['groups.id', 'groups.name', 'groups.description', 'groups.auto_join', 'groups.admin_privileges'])
    .orderBy('groups.name')
    .execute()
  return rows.map((r) => ({
    name: r.name,
    description: r.description,
    autoJoin: Boolean(r.auto_join),
    adminPrivileges: Boolean(r.admin_privileges),
    memberCount: Number(r.members),
  }))
}

export async function getGroup(db: Kysely<Database>, name: string): Promise<Group> {
  const group = await db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst()
  if (!group) throw notFound(`Group ${name} does not exist`)
  const members = await db
    .selectFrom('group_members')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .select('users.name')
    .where('group_members.group_id', '=', group.id)
    .orderBy('users.name')
    .execute()
  return {
    name: group.name,
    description: group.description,
    autoJoin: Boolean(group.auto_join),
    adminPrivileges: Boolean(group.admin_privileges),
    members: members.map((m) => m.name),
  }
}

/** User ids of the named users; 400 naming the first unknown ones. */
export async function userIds(db: Kysely<Database>, names: string[], field: string): Promise<Map<string, number>> {
  const unique = [...new Set(names)]
  const found = new Map<string, number>()
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('name', 'in', unique.slice(i, i + 500))
      .execute()
    for (const r of rows) found.set(r.name, r.id)
  }
  const missing = unique.filter((n) => !found.has(n))
  if (missing.length > 0) throw badRequest(`${field}: no user named ${missing.slice(0, 5).join(', ')}`)
  return found
}

async function setMembers(db: Kysely<Database>, groupId: number, members: string[]): Promise<void> {
  const ids = await userIds(db, members, 'members')
  await db.deleteFrom('group_members').where('group_id', '=', groupId).execute()
  const values = [...ids.values()].map((user_id) => ({ group_id: groupId, user_id }))
  for (let i = 0; i < values.length; i += 500)
    await db
      .insertInto('group_members')
      .values(values.slice(i, i + 500))
      .execute()
}

export async function createGroup(db: Kysely<Database>, actor: string, input: Group): Promise<Group> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('groups').select('id').where('name', '=', input.name).executeTakeFirst()
    if (existing) throw conflict(`A group named ${input.name} already exists`)
    const now = Date.now()
    const row = await trx
      .insertInto('groups')
      .values({
        name: input.name,
        description: input.description,
        auto_join: input.autoJoin ? 1 : 0,
        admin_privileges: input.adminPrivileges ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await setMembers(trx, row.id, input.members)
    await recordChange(trx, {
      actor,
      action: 'group.create',
      targetType: 'group',
      targetName: input.name,
      details: { autoJoin: input.autoJoin, adminPrivileges: input.adminPrivileges, members: input.members.length },
    })
  })
  return getGroup(db, input.name)
}

export async function updateGroup(db: Kysely<Database>, actor: string, name: string, input: Group): Promise<Group> {
  await db.transaction().execute(async (trx) => {
    const group = await trx.selectFrom('groups').select('id').where('name', '=', name).executeTakeFirst()
    if (!group) throw notFound(`Group ${name} does not exist`)
    if (input.name !== name) {
      const clash = await trx.selectFrom('groups').select('id').where('name', '=', input.name).executeTakeFirst()
      if (clash) throw conflict(`A group named ${input.name} already exists`)
    }
    await trx
      .updateTable('groups')
      .set({
        name: input.name,
        description: input.description,
        auto_join: input.autoJoin ? 1 : 0,
        admin_privileges: input.adminPrivileges ? 1 : 0,
        updated_at: Date.now(),
      })
      .where('id', '=', group.id)
      .execute()
    await setMembers(trx, group.id, input.members)
    await recordChange(trx, {
      actor,
      action: 'group.update',
      targetType: 'group',
      targetName: input.name,
      details: { previousName: name, autoJoin: input.autoJoin, adminPrivileges: input.adminPrivileges, members: input.members },
    })
  })
  return getGroup(db, input.name)
}

export async function deleteGroup(db: Kysely<Database>, actor: string, name: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const group = await trx.selectFrom('groups').select('id').where('name', '=', name).executeTakeFirst()
    if (!group) throw notFound(`Group ${name} does not exist`)
    await trx.deleteFrom('permission_grants').where('grantee_kind', '=', 'group').where('grantee_id', '=', group.id).execute()
    await trx.deleteFrom('project_members').where('member_kind', '=', 'group').where('member_id', '=', group.id).execute()
    await trx.deleteFrom('groups').where('id', '=', group.id).execute()
    await recordChange(trx, { actor, action: 'group.delete', targetType: 'group', targetName: name })
  })
}
