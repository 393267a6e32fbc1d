import {
  AccessMessages,
  type Action,
  type PermissionSummary,
  type PermissionTarget,
  RESOURCE_KINDS,
  type ResourceKind,
} from '@trove/contracts/access'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import { recordChange } from './audit.js'
import { actionsToMask } from './authorizer.js'
import { userIds } from './groups.js'

interface StoredResources {
  names: string[]
  include: string[]
  exclude: string[]
}

export async function listPermissionTargets(db: Kysely<Database>): Promise<PermissionSummary[]> {
  const [targets, grants] = await Promise.all([
    db.selectFrom('permission_targets').select(['id', 'name', 'resources']).orderBy('name').execute(),
    db.selectFrom('permission_grants').select(['target_id', 'grantee_kind', 'grantee_id']).execute(),
  ])
  return targets.map((t) => {
    const mine = grants.filter((g) => g.target_id === t.id)
    const resources = JSON.parse(t.resources) as Partial<Record<ResourceKind, StoredResources>>
    return {
      name: t.name,
      resources: RESOURCE_KINDS.filter((k) => resources[k]),
      users: new Set(mine.filter((g) => g.grantee_kind === 'user').map((g) => g.grantee_id)).size,
      groups: new Set(mine.filter((g) => g.grantee_kind === 'group').map((g) => g.grantee_id)).size,
    }
  })
}

export async function getPermissionTarget(db: Kysely<Database>, name: string): Promise<PermissionTarget & { id: number }> {
  const target = await db.selectFrom('permission_targets').selectAll().where('name', '=', name).executeTakeFirst()
  if (!target) throw notFound(`Permission ${name} does not exist`)
  const grants = await db
    .selectFrom('permission_grants')
    .leftJoin('users', (j) =>
      j.onRef('users.id', '=', 'permission_grants.grantee_id').on('permission_grants.grantee_kind', '=', 'user'),
    )
    .leftJoin('groups', (j) =>
      j.onRef('groups.id', '=', 'permission_grants.grantee_id').on('permission_grants.grantee_kind', '=', 'group'),
    )
    .select([
      'permission_grants.resource_kind',
      'permission_grants.grantee_kind',
      'permission_grants.actions',
      'users.name as user',
      'groups.name as group',
    ])
    .where('permission_grants.target_id', '=', target.id)
    .execute()
  const resources = JSON.parse(target.resources) as Partial<Record<ResourceKind, StoredResources>>
  const result: PermissionTarget & { id: number } = {
    id: target.id,
    name: target.name,
    repositories: null,
    builds: null,
    releaseBundles: null,
  }
  for (const kind of RESOURCE_KINDS) {
    const set = resources[kind]
    if (!set) continue
    result[kind] = {
      resources: set,
      grants: grants
        .filter((g) => g.resource_kind === kind)
        .map((g) => ({
          kind: g.grantee_kind,
          name: g.grantee_kind === 'user' ? (g.user ?? '') : g.grantee_kind === 'group' ? (g.group ?? '') : '',
          actions: g.actions.split(',') as Action[],
        }))
        .sort((a, b) => `${a.kind}${a.name}`.localeCompare(`${b.kind}${b.name}`)),
    }
  }
  return result
}

async function writeGrants(db: Kysely<Database>, targetId: number, input: PermissionTarget): Promise<void> {
  await db.deleteFrom('permission_grants').where('target_id', '=', targetId).execute()
  const rows: Database['permission_grants'][] = []
  for (const kind of RESOURCE_KINDS) {
    const grants = input[kind]?.grants ?? []
    const users = await userIds(
      db,
      grants.filter((g) => g.kind === 'user').map((g) => g.name),
      `${kind}.grants`,
    )
    const groupNames = [...new Set(grants.filter((g) => g.kind === 'group').map((g) => g.name))]
    const groups =
      groupNames.length > 0 ? await db.selectFrom('groups').select(['id', 'name']).where('name', 'in', groupNames).execute() : []
    const missing = groupNames.filter((n) => !groups.some((g) => g.name === n))
    if (missing.length > 0) throw badRequest(`${kind}.grants: no group named ${missing.join(', ')}`)
    const merged = new Map<string, Database['permission_grants']>()
    for (const g of grants) {
      const id =
        g.kind === 'user'
          ? (users.get(g.name) as number)
          : g.kind === 'group'
            ? (groups.find((x) => x.name === g.name)?.id as number)
            : 0
      const key = `${g.kind}:${id}`
      const prior = merged.get(key)?.actions.split(',') ?? []
      const actions = [...new Set([...prior, ...g.actions])]
      merged.set(key, {
        target_id: targetId,
        resource_kind: kind,
        grantee_kind: g.kind,
        grantee_id: id,
        actions: actions.join(','),
      })
    }
    rows.push(...merged.values())
  }
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('permission_grants')
      .values(rows.slice(i, i + 500))
      .execute()
}

const storedResources = (input: PermissionTarget) =>
  JSON.stringify(Object.fromEntries(RESOURCE_KINDS.filter((k) => input[k]).map((k) => [k, input[k]?.resources])))

function requireSomeResource(input: PermissionTarget): void {
  if (!RESOURCE_KINDS.some((k) => input[k])) throw badRequest('repositories: a permission names at least one kind of resource')
}

export async function createPermissionTarget(
  db: Kysely<Database>,
  actor: string,
  input: PermissionTarget,
): Promise<PermissionTarget> {
  requireSomeResource(input)
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('permission_targets').select('id').where('name', '=', input.name).executeTakeFirst()
    if (existing) throw conflict(`A permission named ${input.name} already exists`)
    const now = Date.now()
    const row = await trx
      .insertInto('permission_targets')
      .values({ name: input.name, resources: storedResources(input), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await writeGrants(trx, row.id, input)
    await recordChange(trx, {
      actor,
      action: 'permission.create',
      targetType: 'permission',
      targetName: input.name,
      details: describe(input),
    })
  })
  return getPermissionTarget(db, input.name)
}

const describe = (input: PermissionTarget) => Object.fromEntries(RESOURCE_KINDS.filter((k) => input[k]).map((k) => [k, input[k]]))

/** The actions a caller holds in a target through grants to them or their groups, per kind. */
async function heldInTarget(db: Kysely<Database>, targetId: number, principal: Principal): Promise<Record<ResourceKind, number>> {
  const groups = await db.selectFrom('group_members').select('group_id').where('user_id', '=', principal.userId).execute()
  const grants = await db.selectFrom('permission_grants').selectAll().where('target_id', '=', targetId).execute()
  const held: Record<ResourceKind, number> = { repositories: 0, builds: 0, releaseBundles: 0 }
  for (const g of grants) {
    const mine =
      (g.grantee_kind === 'user' && g.grantee_id === principal.userId) ||
      (g.grantee_kind === 'group' && groups.some((x) => x.group_id === g.grantee_id))
    if (mine) held[g.resource_kind] |= actionsToMask(g.actions.split(','))
  }
  return held
}

/**
 * May this caller read and change this target? Administrators may change any; a user holding
 * `manage` in a target may change its grants (not its resources), and only within what they hold.
 */
export async function managedTarget(db: Kysely<Database>, principal: Principal, name: string) {
  const target = await getPermissionTarget(db, name)
  if (principal.admin) return { target, held: null }
  const held = await heldInTarget(db, target.id, principal)
  if (!RESOURCE_KINDS.some((k) => held[k] & actionsToMask(['manage']))) throw notFound(`Permission ${name} does not exist`)
  return { target, held }
}

export async function updatePermissionTarget(
  db: Kysely<Database>,
  principal: Principal,
  name: string,
  input: PermissionTarget,
): Promise<PermissionTarget> {
  requireSomeResource(input)
  const { held } = await managedTarget(db, principal, name)
  await db.transaction().execute(async (trx) => {
    const target = await getPermissionTarget(trx, name)
    if (held) {
      // A manager changes who holds what, within what they hold themselves; never the resources or the name.
      if (input.name !== name || storedResources(input) !== storedResources(target)) {
        throw forbidden('Only an administrator can change the resources or the name of a permission')
      }
      for (const kind of RESOURCE_KINDS) {
        for (const grant of input[kind]?.grants ?? []) {
          if (actionsToMask(grant.actions) & ~held[kind]) throw forbidden(AccessMessages.cannotGrantMore)
        }
      }
    }
    if (input.name !== name) {
      const clash = await trx.selectFrom('permission_targets').select('id').where('name', '=', input.name).executeTakeFirst()
      if (clash) throw conflict(`A permission named ${input.name} already exists`)
    }
    await trx
      .updateTable('permission_targets')
      .set({ name: input.name, resources: storedResources(input), updated_at: Date.now() })
      .where('id', '=', target.id)
      .execute()
    await writeGrants(trx, target.id, input)
    await recordChange(trx, {
      actor: principal.name,
      action: 'permission.update',
      targetType: 'permission',
      targetName: input.name,
      details: { previousName: name, ...describe(input) },
    })
  })
  return getPermissionTarget(db, input.name)
}

export async function deletePermissionTarget(db: Kysely<Database>, actor: string, name: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom('permission_targets').select('id').where('name', '=', name).executeTakeFirst()
    if (!target) throw notFound(`Permission ${name} does not exist`)
    await trx.deleteFrom('permission_targets').where('id', '=', target.id).execute()
    await recordChange(trx, { actor, action: 'permission.delete', targetType: 'permission', targetName: name })
  })
}
