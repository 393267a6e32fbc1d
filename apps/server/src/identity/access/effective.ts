import {
  ACTIONS,
  type Action,
  type HeldRole,
  type MyProjectPermissions,
  type MyRepositoryPermissions,
  ROLE_CAPABILITIES,
} from '@trove/contracts/access'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'

import type { Authorizer } from '../../core/permissions.js'
import type { Database } from '../../core/schema.js'
import { contains } from '../../core/sqlLike.js'

type RoleCapability = (typeof ROLE_CAPABILITIES)[number]

/** Repositories are read this many at a time while the caller's page is gathered. */
const BATCH = 1000

/**
 * One page of the repositories on which the caller holds at least one action, by key. Each
 * candidate is decided by the authorizer, which answers from memory, so a page costs one pass over
 * the keys that match the filter, read in batches: memory holds one batch and the page, whatever
 * the number of repositories.
 */
export async function myRepositories(
  db: Kysely<Database>,
  authz: Authorizer,
  principal: Principal,
  q: { search?: string; page: number; pageSize: number },
): Promise<MyRepositoryPermissions> {
  const search = q.search?.trim().toLowerCase()
  const first = (q.page - 1) * q.pageSize
  const items: MyRepositoryPermissions['items'] = []
  let total = 0
  for (let after: string | null = null; ; ) {
    let query = db.selectFrom('repositories').select(['key', 'rclass', 'package_type']).orderBy('key').limit(BATCH)
    if (search) query = query.where((eb) => contains(eb.fn('lower', ['key']), search))
    if (after !== null) query = query.where('key', '>', after)
    const rows = await query.execute()
    for (const row of rows) {
      const actions = await authz.repoActions(principal, row.key)
      if (actions.length === 0) continue
      if (total >= first && items.length < q.pageSize) {
        items.push({ repoKey: row.key, rclass: row.rclass, packageType: row.package_type, actions })
      }
      total++
    }
    if (rows.length < BATCH) break
    after = rows[rows.length - 1]?.key ?? null
  }
  return { admin: principal.admin, total, page: q.page, pageSize: q.pageSize, items }
}

const split = <T extends string>(list: string, known: readonly T[]): T[] =>
  list
    .split(',')
    .filter((v): v is T => (known as readonly string[]).includes(v))
    .sort((a, b) => known.indexOf(a) - known.indexOf(b))

/**
 * The projects the caller is a member of, directly or through a group, with the roles held there
 * and what they add up to. An administrator sees every project and holds everything in each.
 */
export async function myProjects(db: Kysely<Database>, principal: Principal): Promise<MyProjectPermissions> {
  const groups = await db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .select(['groups.id', 'groups.name'])
    .where('group_members.user_id', '=', principal.userId)
    .execute()
  const groupName = new Map(groups.map((g) => [g.id, g.name]))
  const memberships = await db
    .selectFrom('project_members')
    .innerJoin('roles', 'roles.id', 'project_members.role_id')
    .select([
      'project_members.project_id',
      'project_members.member_kind',
      'project_members.member_id',
      'roles.name',
      'roles.actions',
      'roles.capabilities',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('project_members.member_kind', '=', 'user'), eb('project_members.member_id', '=', principal.userId)]),
        eb.and([
          eb('project_members.member_kind', '=', 'group'),
          eb('project_members.member_id', 'in', [...groupName.keys(), -1]),
        ]),
      ]),
    )
    .execute()
  const projectIds = [...new Set(memberships.map((m) => m.project_id))]
  let projectsQuery = db.selectFrom('projects').select(['id', 'key', 'display_name']).orderBy('key')
  if (!principal.admin) projectsQuery = projectsQuery.where('id', 'in', [...projectIds, -1])
  const projects = await projectsQuery.execute()
  return {
    admin: principal.admin,
    items: projects.map((p) => {
      const held = memberships.filter((m) => m.project_id === p.id)
      const roles: HeldRole[] = held
        .map((m) => ({
          role: m.name,
          via: m.member_kind,
          group: m.member_kind === 'group' ? (groupName.get(m.member_id) ?? null) : null,
        }))
        .sort((a, b) => a.role.localeCompare(b.role) || (a.group ?? '').localeCompare(b.group ?? ''))
      const actions = new Set<Action>(principal.admin ? ACTIONS : held.flatMap((m) => split(m.actions, ACTIONS)))
      const capabilities = new Set<RoleCapability>(
        principal.admin ? ROLE_CAPABILITIES : held.flatMap((m) => split(m.capabilities, ROLE_CAPABILITIES)),
      )
      return {
        key: p.key,
        displayName: p.display_name,
        roles,
        actions: ACTIONS.filter((a) => actions.has(a)),
        capabilities: ROLE_CAPABILITIES.filter((c) => capabilities.has(c)),
      }
    }),
  }
}
