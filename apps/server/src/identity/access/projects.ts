import {
  AccessMessages,
  type CreateProject,
  PROJECT_ADMIN_ROLE,
  type Project,
  type ProjectMember,
  type RoleInfo,
  type Role as RoleInput,
  type UpdateProject,
} from '@trove/contracts/access'
import { DEFAULT_PROJECT } from '@trove/contracts/messages'
import type { Kysely, Updateable } from 'kysely'
import type { Principal } from '../../core/access.js'
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js'
import type { Database, ProjectsTable } from '../../core/schema.js'
import { recordChange } from './audit.js'
import { userIds } from './groups.js'

// ---- roles ----

export async function listRoles(db: Kysely<Database>): Promise<RoleInfo[]> {
  const rows = await db.selectFrom('roles').selectAll().orderBy('predefined', 'desc').orderBy('id').execute()
  return rows.map((r) => ({
    name: r.name,
    description: r.description,
    type: r.type,
    actions: r.actions ? (r.actions.split(',') as RoleInfo['actions']) : [],
    capabilities: r.capabilities ? (r.capabilities.split(',') as RoleInfo['capabilities']) : [],
    predefined: Boolean(r.predefined),
  }))
}

export async function createRole(db: Kysely<Database>, actor: string, input: RoleInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('roles').select('id').where('name', '=', input.name).executeTakeFirst()
    if (existing) throw conflict(`A role named ${input.name} already exists`)
    await trx
      .insertInto('roles')
      .values({
        name: input.name,
        description: input.description,
        type: input.type,
        actions: input.actions.join(','),
        capabilities: input.capabilities.join(','),
        predefined: 0,
        created_at: Date.now(),
      })
      .execute()
    await recordChange(trx, { actor, action: 'role.create', targetType: 'role', targetName: input.name, details: { ...input } })
  })
}

async function customRole(db: Kysely<Database>, name: string) {
  const role = await db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst()
  if (!role) throw notFound(`Role ${name} does not exist`)
  if (role.predefined) throw forbidden(AccessMessages.predefinedRole)
  return role
}

export async function updateRole(db: Kysely<Database>, actor: string, name: string, input: RoleInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const role = await customRole(trx, name)
    if (input.name !== name && (await trx.selectFrom('roles').select('id').where('name', '=', input.name).executeTakeFirst())) {
      throw conflict(`A role named ${input.name} already exists`)
    }
    await trx
      .updateTable('roles')
      .set({
        name: input.name,
        description: input.description,
        type: input.type,
        actions: input.actions.join(','),
        capabilities: input.capabilities.join(','),
      })
      .where('id', '=', role.id)
      .execute()
    await recordChange(trx, {
      actor,
      action: 'role.update',
      targetType: 'role',
      targetName: input.name,
      details: { previousName: name, ...input },
    })
  })
}

export async function deleteRole(db: Kysely<Database>, actor: string, name: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const role = await customRole(trx, name)
    await trx.deleteFrom('project_members').where('role_id', '=', role.id).execute()
    await trx.deleteFrom('roles').where('id', '=', role.id).execute()
    await recordChange(trx, { actor, action: 'role.delete', targetType: 'role', targetName: name })
  })
}

// ---- projects ----

/** May this caller administer this project? Administrators administer all. */
export function requireProjectAdmin(principal: Principal, adminOf: string[], key: string): void {
  if (!principal.admin && !adminOf.includes(key)) throw forbidden(AccessMessages.notProjectAdmin)
}

export async function listProjects(db: Kysely<Database>, onlyKeys: string[] | null): Promise<Project[]> {
  if (onlyKeys?.length === 0) return []
  let q = db.selectFrom('projects').selectAll().orderBy('key')
  if (onlyKeys) q = q.where('key', 'in', onlyKeys)
  const rows = await q.execute()
  const members = await db
    .selectFrom('project_members')
    .select(['project_id', 'member_kind', 'member_id'])
    .distinct()
    .where('project_id', 'in', rows.map((r) => r.id).concat(-1))
    .execute()
  return rows.map((r) => ({
    key: r.key,
    displayName: r.display_name,
    description: r.description,
    storageQuotaBytes: r.storage_quota_bytes,
    createdAt: r.created_at,
    memberCount: members.filter((m) => m.project_id === r.id).length,
  }))
}

export async function getProject(db: Kysely<Database>, key: string): Promise<Project> {
  const [project] = (await listProjects(db, [key])) as (Project | undefined)[]
  if (!project) throw notFound(`Project ${key} does not exist`)
  return project
}

export async function createProject(db: Kysely<Database>, actor: string, input: CreateProject): Promise<Project> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('projects').select('id').where('key', '=', input.key).executeTakeFirst()
    if (existing) throw conflict(`A project with the key ${input.key} already exists`)
    const sameName = await trx
      .selectFrom('projects')
      .select('id')
      .where('display_name', '=', input.displayName)
      .executeTakeFirst()
    if (sameName) throw conflict(`A project named ${input.displayName} already exists`)
    const now = Date.now()
    await trx
      .insertInto('projects')
      .values({
        key: input.key,
        display_name: input.displayName,
        description: input.description,
        storage_quota_bytes: input.storageQuotaBytes,
        created_at: now,
        updated_at: now,
      })
      .execute()
    await recordChange(trx, {
      actor,
      action: 'project.create',
      targetType: 'project',
      targetName: input.key,
      details: { ...input },
    })
  })
  return getProject(db, input.key)
}

export async function updateProject(db: Kysely<Database>, actor: string, key: string, input: UpdateProject): Promise<Project> {
  await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom('projects').select('id').where('key', '=', key).executeTakeFirst()
    if (!project) throw notFound(`Project ${key} does not exist`)
    const set: Updateable<ProjectsTable> = { updated_at: Date.now() }
    if (input.displayName !== undefined) set.display_name = input.displayName
    if (input.description !== undefined) set.description = input.description
    if (input.storageQuotaBytes !== undefined) set.storage_quota_bytes = input.storageQuotaBytes
    await trx.updateTable('projects').set(set).where('id', '=', project.id).execute()
    await recordChange(trx, { actor, action: 'project.update', targetType: 'project', targetName: key, details: { ...input } })
  })
  return getProject(db, key)
}

export async function deleteProject(db: Kysely<Database>, actor: string, key: string): Promise<void> {
  if (key === DEFAULT_PROJECT.key) throw badRequest(`key: the default project ${DEFAULT_PROJECT.key} cannot be deleted`)
  await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom('projects').select('id').where('key', '=', key).executeTakeFirst()
    if (!project) throw notFound(`Project ${key} does not exist`)
    await trx.deleteFrom('projects').where('id', '=', project.id).execute()
    await recordChange(trx, { actor, action: 'project.delete', targetType: 'project', targetName: key })
  })
}

export async function getMembers(db: Kysely<Database>, key: string): Promise<ProjectMember[]> {
  const project = await db.selectFrom('projects').select('id').where('key', '=', key).executeTakeFirst()
  if (!project) throw notFound(`Project ${key} does not exist`)
  const rows = await db
    .selectFrom('project_members')
    .innerJoin('roles', 'roles.id', 'project_members.role_id')
    .leftJoin('users', (j) =>
      j.onRef('users.id', '=', 'project_members.member_id').on('project_members.member_kind', '=', 'user'),
    )
    .leftJoin('groups', (j) =>
      j.onRef('groups.id', '=', 'project_members.member_id').on('project_members.member_kind', '=', 'group'),
    )
    .select(['project_members.member_kind', 'users.name as user', 'groups.name as group', 'roles.name as role'])
    .where('project_members.project_id', '=', project.id)
    .execute()
  const members = new Map<string, ProjectMember>()
  for (const r of rows) {
    const name = (r.member_kind === 'user' ? r.user : r.group) ?? ''
    const k = `${r.member_kind}:${name}`
    const m = members.get(k) ?? { kind: r.member_kind, name, roles: [] }
    m.roles.push(r.role)
    members.set(k, m)
  }
  return [...members.values()].sort((a, b) => `${a.kind}${a.name}`.localeCompare(`${b.kind}${b.name}`))
}

/**
 * Replaces a project's members. A project admin who is not an administrator cannot take the
 * Project Admin role away from themselves (they would lock themselves out).
 */
export async function setMembers(
  db: Kysely<Database>,
  principal: Principal,
  key: string,
  members: ProjectMember[],
): Promise<ProjectMember[]> {
  await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom('projects').select('id').where('key', '=', key).executeTakeFirst()
    if (!project) throw notFound(`Project ${key} does not exist`)
    const roleNames = [...new Set(members.flatMap((m) => m.roles))]
    const roles =
      roleNames.length > 0 ? await trx.selectFrom('roles').select(['id', 'name']).where('name', 'in', roleNames).execute() : []
    const unknownRole = roleNames.find((n) => !roles.some((r) => r.name === n))
    if (unknownRole) throw badRequest(`members.roles: no role named ${unknownRole}`)
    const users = await userIds(
      trx,
      members.filter((m) => m.kind === 'user').map((m) => m.name),
      'members',
    )
    const groupNames = [...new Set(members.filter((m) => m.kind === 'group').map((m) => m.name))]
    const groups =
      groupNames.length > 0 ? await trx.selectFrom('groups').select(['id', 'name']).where('name', 'in', groupNames).execute() : []
    const unknownGroup = groupNames.find((n) => !groups.some((g) => g.name === n))
    if (unknownGroup) throw badRequest(`members: no group named ${unknownGroup}`)
    if (!principal.admin) {
      const self = members.find((m) => m.kind === 'user' && m.name === principal.name)
      if (!self?.roles.includes(PROJECT_ADMIN_ROLE)) throw forbidden('You cannot remove your own Project Admin role')
    }
    await trx.deleteFrom('project_members').where('project_id', '=', project.id).execute()
    const rows = new Map<string, Database['project_members']>()
    for (const m of members) {
      const memberId = m.kind === 'user' ? (users.get(m.name) as number) : (groups.find((g) => g.name === m.name)?.id as number)
      for (const roleName of m.roles) {
        const roleId = roles.find((r) => r.name === roleName)?.id as number
        rows.set(`${m.kind}:${memberId}:${roleId}`, {
          project_id: project.id,
          member_kind: m.kind,
          member_id: memberId,
          role_id: roleId,
        })
      }
    }
    if (rows.size > 0)
      await trx
        .insertInto('project_members')
        .values([...rows.values()])
        .execute()
    await recordChange(trx, {
      actor: principal.name,
      action: 'project.members',
      targetType: 'project',
      targetName: key,
      details: { members },
    })
  })
  return getMembers(db, key)
}
