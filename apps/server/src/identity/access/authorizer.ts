import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import type { Authorizer, RepoAction } from '../../core/permissions.js'
import type { Database } from '../../core/schema.js'
import { ANONYMOUS_ACCESS_SETTING, getSetting } from '../../core/settings.js'
import { servesStale } from '../../core/staleWhileDown.js'
import { type ResourceMatcher, resourceMatcher } from './patterns.js'

/** Bumped in the same transaction as every change of users' groups, targets, roles or projects. */
export const ACCESS_VERSION_SETTING = 'access.version'

const ACTIONS: RepoAction[] = ['read', 'annotate', 'deploy', 'delete', 'manage']
const BIT: Record<RepoAction, number> = { read: 1, annotate: 2, deploy: 4, delete: 8, manage: 16 }
const ALL_BITS = 31
/** What a token of narrower scope may do at most, whatever its owner holds. */
const SCOPE_BITS: Record<NonNullable<Principal['scope']>, number> = {
  deploy: BIT.read | BIT.annotate | BIT.deploy,
  read: BIT.read,
}

export const actionsToMask = (actions: readonly string[]) => actions.reduce((mask, a) => mask | (BIT[a as RepoAction] ?? 0), 0)
export const maskToActions = (mask: number) => ACTIONS.filter((a) => mask & BIT[a])

type Kind = 'repositories' | 'builds' | 'releaseBundles'
/** A grantee key: `u<id>`, `g<id>` or `a` for the anonymous caller. */
type GranteeKey = string

interface CompiledTarget {
  matcher: ResourceMatcher
  grants: Map<GranteeKey, number>
}

/** One target as it concerns one grantee: what it matches and what it grants them. */
interface Grantable {
  matcher: ResourceMatcher
  mask: number
}

interface Snapshot {
  anonymous: boolean
  groupsOf: Map<number, number[]>
  adminGroups: Set<number>
  /** kind → grantee key → the targets that grant that grantee something */
  byGrantee: Record<Kind, Map<GranteeKey, Grantable[]>>
  /** project key → member grantee → actions of their roles */
  projects: { prefix: string; members: Map<GranteeKey, number> }[]
  /** user id → keys of projects where they hold a role with manage_members */
  projectAdminOf: Map<number, string[]>
  /** group id → keys of projects where the group holds such a role */
  projectAdminGroups: Map<number, string[]>
  /** `<who>\0<kind>\0<name>` → mask; emptied with the snapshot */
  decisions: Map<string, number>
  /** `<kind>\0<user id or a>` → the caller's grantee keys and the targets that name them, merged once */
  callers: Map<string, { keys: GranteeKey[]; targets: Grantable[] }>
}

const DECISION_CACHE_LIMIT = 200_000
/** How often a node looks for changes other nodes made (one cheap query). */
const VERSION_CHECK_MS = 2_000

async function loadSnapshot(db: Kysely<Database>): Promise<Snapshot> {
  const [anonymous, members, groups, targets, grants, projects, projectMembers, roles] = await Promise.all([
    getSetting(db, ANONYMOUS_ACCESS_SETTING, false),
    db.selectFrom('group_members').select(['group_id', 'user_id']).execute(),
    db.selectFrom('groups').select(['id', 'admin_privileges']).execute(),
    db.selectFrom('permission_targets').select(['id', 'resources']).execute(),
    db.selectFrom('permission_grants').selectAll().execute(),
    db.selectFrom('projects').select(['id', 'key']).execute(),
    db.selectFrom('project_members').selectAll().execute(),
    db.selectFrom('roles').select(['id', 'actions', 'capabilities']).execute(),
  ])
  const groupsOf = new Map<number, number[]>()
  for (const m of members) {
    const list = groupsOf.get(m.user_id)
    if (list) list.push(m.group_id)
    else groupsOf.set(m.user_id, [m.group_id])
  }
  const adminGroups = new Set(groups.filter((g) => g.admin_privileges).map((g) => g.id))

  const byTarget = new Map<number, Partial<Record<Kind, CompiledTarget>>>()
  const compiled: Record<Kind, CompiledTarget[]> = { repositories: [], builds: [], releaseBundles: [] }
  for (const t of targets) {
    const resources = JSON.parse(t.resources) as Partial<Record<Kind, { names: string[]; include: string[]; exclude: string[] }>>
    const entry: Partial<Record<Kind, CompiledTarget>> = {}
    for (const kind of ['repositories', 'builds', 'releaseBundles'] as Kind[]) {
      const set = resources[kind]
      if (!set) continue
      const c = { matcher: resourceMatcher(set), grants: new Map<GranteeKey, number>() }
      entry[kind] = c
      compiled[kind].push(c)
    }
    byTarget.set(t.id, entry)
  }
  for (const g of grants) {
    const c = byTarget.get(g.target_id)?.[g.resource_kind]
    if (!c) continue
    const key = g.grantee_kind === 'anonymous' ? 'a' : `${g.grantee_kind === 'user' ? 'u' : 'g'}${g.grantee_id}`
    c.grants.set(key, (c.grants.get(key) ?? 0) | actionsToMask(g.actions.split(',')))
  }
  // Index by grantee, so a check looks only at the targets that name the caller or their groups.
  const byGrantee: Record<Kind, Map<GranteeKey, Grantable[]>> = {
    repositories: new Map(),
    builds: new Map(),
    releaseBundles: new Map(),
  }
  for (const kind of ['repositories', 'builds', 'releaseBundles'] as Kind[]) {
    for (const target of compiled[kind]) {
      for (const [key, mask] of target.grants) {
        const list = byGrantee[kind].get(key)
        if (list) list.push({ matcher: target.matcher, mask })
        else byGrantee[kind].set(key, [{ matcher: target.matcher, mask }])
      }
    }
  }

  const roleById = new Map(
    roles.map((r) => [
      r.id,
      { mask: actionsToMask(r.actions.split(',')), admin: r.capabilities.split(',').includes('manage_members') },
    ]),
  )
  const projectById = new Map(
    projects.map((p) => [p.id, { prefix: `${p.key}-`, key: p.key, members: new Map<GranteeKey, number>() }]),
  )
  const projectAdminOf = new Map<number, string[]>()
  const projectAdminGroups = new Map<number, string[]>()
  for (const m of projectMembers) {
    const project = projectById.get(m.project_id)
    const role = roleById.get(m.role_id)
    if (!project || !role) continue
    const key = `${m.member_kind === 'user' ? 'u' : 'g'}${m.member_id}`
    project.members.set(key, (project.members.get(key) ?? 0) | role.mask)
    if (role.admin) {
      const map = m.member_kind === 'user' ? projectAdminOf : projectAdminGroups
      const list = map.get(m.member_id) ?? []
      if (!list.includes(project.key)) list.push(project.key)
      map.set(m.member_id, list)
    }
  }
  return {
    anonymous,
    groupsOf,
    adminGroups,
    byGrantee,
    projects: [...projectById.values()].map(({ prefix, members }) => ({ prefix, members })),
    projectAdminOf,
    projectAdminGroups,
    decisions: new Map(),
    callers: new Map(),
  }
}

/**
 * The authorizer built from permission targets and project roles. It keeps one in-memory
 * snapshot of every target, grant, group membership and project role; a decision is computed
 * once per (caller, resource) and then served from a map until something changes. Changes made
 * on this node drop the snapshot at once (invalidate()); changes made on other nodes are seen
 * within VERSION_CHECK_MS through the access version setting.
 */
export class PermissionAuthorizer implements Authorizer {
  private snapshot: Snapshot | null = null
  /** When the snapshot held was last known current: read, or its version checked (ms). */
  private confirmedAt = 0
  private loading: Promise<Snapshot> | null = null
  private generation = 0
  private version: number | null = null
  private checkedAt = 0

  constructor(
    private readonly db: Kysely<Database>,
    private readonly versionCheckMs = VERSION_CHECK_MS,
  ) {}

  /** Forget everything: the next check reloads. Call after committing a change. */
  invalidate(): void {
    this.generation++
    this.snapshot = null
    this.loading = null
    // The next check records the (new) version without reloading twice.
    this.version = null
    this.checkedAt = 0
  }

  private async current(): Promise<Snapshot> {
    const now = Date.now()
    if (now - this.checkedAt > this.versionCheckMs) {
      this.checkedAt = now
      let version: number
      try {
        version = await getSetting(this.db, ACCESS_VERSION_SETTING, 0)
      } catch (error) {
        // The database is away: decisions go on from the snapshot held, for a bounded time
        // (core/staleWhileDown.ts), and the version is asked again on the next check.
        this.checkedAt = 0
        if (this.snapshot && servesStale(error, this.confirmedAt, now)) return this.snapshot
        throw error
      }
      if (this.version !== null && version !== this.version) this.invalidate()
      this.version = version
      this.confirmedAt = now
    }
    if (this.snapshot) return this.snapshot
    if (!this.loading) {
      const generation = this.generation
      const loading = loadSnapshot(this.db).then((s) => {
        if (generation === this.generation) {
          this.snapshot = s
          this.confirmedAt = now
        }
        return s
      })
      this.loading = loading
      loading.catch(() => {
        if (this.loading === loading) this.loading = null
      })
    }
    return this.loading
  }

  private static isAdmin(s: Snapshot, principal: Principal): boolean {
    return principal.admin || (s.groupsOf.get(principal.userId) ?? []).some((g) => s.adminGroups.has(g))
  }

  /** The caller's grantee keys (user, groups, or anonymous) and every target naming one of them. */
  private static caller(s: Snapshot, principal: Principal | null, kind: Kind) {
    const id = `${kind}\0${principal ? principal.userId : 'a'}`
    let entry = s.callers.get(id)
    if (!entry) {
      const keys: GranteeKey[] = principal
        ? [`u${principal.userId}`, ...(s.groupsOf.get(principal.userId) ?? []).map((g) => `g${g}`)]
        : ['a']
      entry = { keys, targets: keys.flatMap((key) => s.byGrantee[kind].get(key) ?? []) }
      if (s.callers.size >= DECISION_CACHE_LIMIT) s.callers.clear()
      s.callers.set(id, entry)
    }
    return entry
  }

  private mask(s: Snapshot, principal: Principal | null, kind: Kind, name: string): number {
    const held = this.heldMask(s, principal, kind, name)
    return principal?.scope ? held & SCOPE_BITS[principal.scope] : held
  }

  private heldMask(s: Snapshot, principal: Principal | null, kind: Kind, name: string): number {
    if (principal && PermissionAuthorizer.isAdmin(s, principal)) return ALL_BITS
    if (!principal && !s.anonymous) return 0
    const cacheKey = `${principal ? principal.userId : 'a'}\0${kind}\0${name}`
    const cached = s.decisions.get(cacheKey)
    if (cached !== undefined) return cached
    const { keys, targets } = PermissionAuthorizer.caller(s, principal, kind)
    let mask = 0
    for (const target of targets) {
      if (target.mask & ~mask && target.matcher.matches(name)) mask |= target.mask
      if (mask === ALL_BITS) break
    }
    // A project's repositories are keyed `<project key>-…`; its members hold their roles' actions there.
    if (kind === 'repositories' && principal) {
      for (const project of s.projects) {
        if (!name.startsWith(project.prefix)) continue
        for (const key of keys) mask |= project.members.get(key) ?? 0
      }
    }
    if (s.decisions.size >= DECISION_CACHE_LIMIT) s.decisions.clear()
    s.decisions.set(cacheKey, mask)
    return mask
  }

  async canOnRepo(principal: Principal | null, action: RepoAction, repoKey: string): Promise<boolean> {
    return (this.mask(await this.current(), principal, 'repositories', repoKey) & BIT[action]) !== 0
  }

  async canOnBuild(principal: Principal | null, action: RepoAction, buildName: string): Promise<boolean> {
    return (this.mask(await this.current(), principal, 'builds', buildName) & BIT[action]) !== 0
  }

  async canOnReleaseBundle(principal: Principal | null, action: RepoAction, bundleName: string): Promise<boolean> {
    return (this.mask(await this.current(), principal, 'releaseBundles', bundleName) & BIT[action]) !== 0
  }

  async repoActions(principal: Principal | null, repoKey: string): Promise<RepoAction[]> {
    return maskToActions(this.mask(await this.current(), principal, 'repositories', repoKey))
  }

  async readableRepoKeys(principal: Principal | null, repoKeys: readonly string[]): Promise<string[]> {
    const s = await this.current()
    return repoKeys.filter((key) => this.mask(s, principal, 'repositories', key) & BIT.read)
  }

  /** Whether anonymous callers may browse (the security configuration's switch). */
  async anonymousAccess(): Promise<boolean> {
    return (await this.current()).anonymous
  }

  /** Admin through the user's flag or through a group with admin privileges. */
  async isAdmin(principal: Principal): Promise<boolean> {
    return PermissionAuthorizer.isAdmin(await this.current(), principal)
  }

  /** Keys of the projects this user administers (a project role that manages members). */
  async projectAdminOf(userId: number): Promise<string[]> {
    const s = await this.current()
    const keys = new Set(s.projectAdminOf.get(userId) ?? [])
    for (const g of s.groupsOf.get(userId) ?? []) for (const k of s.projectAdminGroups.get(g) ?? []) keys.add(k)
    return [...keys]
  }
}
