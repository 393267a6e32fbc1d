import {
  AnonymousAccess,
  AuditPage,
  AuditQuery,
  CreateProject,
  CreateUser,
  EffectiveRepoActions,
  Group,
  GroupSummary,
  MyAccess,
  MyProjectPermissions,
  MyRepositoriesQuery,
  MyRepositoryPermissions,
  PermissionSummary,
  PermissionTarget,
  Project,
  ProjectMembers,
  ResetUserPassword,
  Role,
  RoleInfo,
  UpdateProject,
  UpdateUser,
  UserDetail,
  UserListQuery,
  UserPage,
} from '@trove/contracts/access'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import { unauthorized } from '../../core/errors.js'
import { ANONYMOUS_ACCESS_SETTING, getSetting, setSetting } from '../../core/settings.js'
import { listAudit, recordChange } from './audit.js'
import type { PermissionAuthorizer } from './authorizer.js'
import { myProjects, myRepositories } from './effective.js'
import { createGroup, deleteGroup, getGroup, listGroups, updateGroup } from './groups.js'
import {
  createPermissionTarget,
  deletePermissionTarget,
  listPermissionTargets,
  managedTarget,
  updatePermissionTarget,
} from './permissionTargets.js'
import {
  createProject,
  createRole,
  deleteProject,
  deleteRole,
  getMembers,
  getProject,
  listProjects,
  listRoles,
  requireProjectAdmin,
  setMembers,
  updateProject,
  updateRole,
} from './projects.js'
import { createUser, deleteUser, getUser, listUsers, resetUserPassword, updateUser } from './users.js'

const NameParam = z.object({ name: z.string().min(1).max(255) })
const KeyParam = z.object({ key: z.string().min(1).max(128) })

/**
 * Users, groups, permissions, roles, projects, audit and the anonymous-access switch, under
 * /ui/api/v1/ui/admin. Every change is audited and drops the authorizer's cache.
 */
export const accessAdminRoutes =
  (ctx: AppContext, authz: PermissionAuthorizer): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const caller = async (request: FastifyRequest): Promise<Principal> => {
      const principal = await ctx.principal(request)
      if (!principal) throw unauthorized()
      return principal
    }
    /** Runs a change, then makes every later check see it. */
    const changing = async <T>(work: Promise<T>): Promise<T> => {
      try {
        return await work
      } finally {
        authz.invalidate()
      }
    }
    const admin = { access: 'admin' } as const
    const projectAdmin = { access: 'projectAdmin' } as const

    // ---- users ----
    app.get(
      '/users',
      {
        config: admin,
        schema: {
          tags: ['access'],
          summary: 'Users: search, sort, one page',
          querystring: UserListQuery,
          response: { 200: UserPage },
        },
      },
      async (request) => listUsers(db, request.query),
    )
    app.post(
      '/users',
      { config: admin, schema: { tags: ['access'], summary: 'Create a user', body: CreateUser, response: { 201: UserDetail } } },
      async (request, reply) => {
        const actor = await caller(request)
        const user = await changing(createUser(db, actor.name, request.body))
        return reply.code(201).send(user)
      },
    )
    app.get(
      '/users/:name',
      {
        config: admin,
        schema: { tags: ['access'], summary: 'One user with their groups', params: NameParam, response: { 200: UserDetail } },
      },
      async (request) => getUser(db, request.params.name),
    )
    app.put(
      '/users/:name',
      {
        config: admin,
        schema: {
          tags: ['access'],
          summary: 'Change a user (e-mail, admin, disabled, MFA, groups)',
          params: NameParam,
          body: UpdateUser,
          response: { 200: UserDetail },
        },
      },
      async (request) => changing(updateUser(db, (await caller(request)).name, request.params.name, request.body)),
    )
    app.delete(
      '/users/:name',
      { config: admin, schema: { tags: ['access'], summary: 'Delete a user', params: NameParam } },
      async (request, reply) => {
        await changing(deleteUser(db, await caller(request), request.params.name))
        return reply.code(204).send()
      },
    )
    app.post(
      '/users/:name/password',
      {
        config: admin,
        schema: {
          tags: ['access'],
          summary: "Set a user's password (their sessions end)",
          params: NameParam,
          body: ResetUserPassword,
        },
      },
      async (request, reply) => {
        await resetUserPassword(db, (await caller(request)).name, request.params.name, request.body.password)
        return reply.code(204).send()
      },
    )

    // ---- groups ----
    app.get(
      '/groups',
      { config: admin, schema: { tags: ['access'], summary: 'Groups', response: { 200: z.array(GroupSummary) } } },
      async () => listGroups(db),
    )
    app.post(
      '/groups',
      { config: admin, schema: { tags: ['access'], summary: 'Create a group', body: Group, response: { 201: Group } } },
      async (request, reply) => reply.code(201).send(await changing(createGroup(db, (await caller(request)).name, request.body))),
    )
    app.get(
      '/groups/:name',
      {
        config: admin,
        schema: { tags: ['access'], summary: 'One group with its members', params: NameParam, response: { 200: Group } },
      },
      async (request) => getGroup(db, request.params.name),
    )
    app.put(
      '/groups/:name',
      {
        config: admin,
        schema: { tags: ['access'], summary: 'Change a group', params: NameParam, body: Group, response: { 200: Group } },
      },
      async (request) => changing(updateGroup(db, (await caller(request)).name, request.params.name, request.body)),
    )
    app.delete(
      '/groups/:name',
      { config: admin, schema: { tags: ['access'], summary: 'Delete a group', params: NameParam } },
      async (request, reply) => {
        await changing(deleteGroup(db, (await caller(request)).name, request.params.name))
        return reply.code(204).send()
      },
    )

    // ---- permission targets ----
    app.get(
      '/permissions',
      { config: admin, schema: { tags: ['access'], summary: 'Permissions', response: { 200: z.array(PermissionSummary) } } },
      async () => listPermissionTargets(db),
    )
    app.post(
      '/permissions',
      {
        config: admin,
        schema: { tags: ['access'], summary: 'Create a permission', body: PermissionTarget, response: { 201: PermissionTarget } },
      },
      async (request, reply) =>
        reply.code(201).send(await changing(createPermissionTarget(db, (await caller(request)).name, request.body))),
    )
    app.get(
      '/permissions/:name',
      {
        config: { access: 'user' },
        schema: {
          tags: ['access'],
          summary: 'One permission (administrators, and users who manage it)',
          params: NameParam,
          response: { 200: PermissionTarget },
        },
      },
      async (request) => (await managedTarget(db, await caller(request), request.params.name)).target,
    )
    app.put(
      '/permissions/:name',
      {
        config: { access: 'user' },
        schema: {
          tags: ['access'],
          summary: 'Change a permission (a manager changes only grants, within what they hold)',
          params: NameParam,
          body: PermissionTarget,
          response: { 200: PermissionTarget },
        },
      },
      async (request) => changing(updatePermissionTarget(db, await caller(request), request.params.name, request.body)),
    )
    app.delete(
      '/permissions/:name',
      { config: admin, schema: { tags: ['access'], summary: 'Delete a permission', params: NameParam } },
      async (request, reply) => {
        await changing(deletePermissionTarget(db, (await caller(request)).name, request.params.name))
        return reply.code(204).send()
      },
    )

    // ---- roles ----
    app.get(
      '/roles',
      {
        config: projectAdmin,
        schema: { tags: ['access'], summary: 'Project and global roles', response: { 200: z.array(RoleInfo) } },
      },
      async () => listRoles(db),
    )
    app.post(
      '/roles',
      { config: admin, schema: { tags: ['access'], summary: 'Create a global role', body: Role } },
      async (request, reply) => {
        await changing(createRole(db, (await caller(request)).name, request.body))
        return reply.code(201).send()
      },
    )
    app.put(
      '/roles/:name',
      { config: admin, schema: { tags: ['access'], summary: 'Change a custom role', params: NameParam, body: Role } },
      async (request, reply) => {
        await changing(updateRole(db, (await caller(request)).name, request.params.name, request.body))
        return reply.code(204).send()
      },
    )
    app.delete(
      '/roles/:name',
      { config: admin, schema: { tags: ['access'], summary: 'Delete a custom role', params: NameParam } },
      async (request, reply) => {
        await changing(deleteRole(db, (await caller(request)).name, request.params.name))
        return reply.code(204).send()
      },
    )

    // ---- projects ----
    const adminOf = async (principal: Principal) => (principal.admin ? [] : authz.projectAdminOf(principal.userId))
    app.get(
      '/projects',
      {
        config: projectAdmin,
        schema: {
          tags: ['access'],
          summary: 'Projects the caller administers (all for an admin)',
          response: { 200: z.array(Project) },
        },
      },
      async (request) => {
        const principal = await caller(request)
        return listProjects(db, principal.admin ? null : await adminOf(principal))
      },
    )
    app.post(
      '/projects',
      {
        config: admin,
        schema: { tags: ['access'], summary: 'Create a project', body: CreateProject, response: { 201: Project } },
      },
      async (request, reply) =>
        reply.code(201).send(await changing(createProject(db, (await caller(request)).name, request.body))),
    )
    app.get(
      '/projects/:key',
      {
        config: projectAdmin,
        schema: { tags: ['access'], summary: 'One project', params: KeyParam, response: { 200: Project } },
      },
      async (request) => {
        const principal = await caller(request)
        requireProjectAdmin(principal, await adminOf(principal), request.params.key)
        return getProject(db, request.params.key)
      },
    )
    app.put(
      '/projects/:key',
      {
        config: projectAdmin,
        schema: {
          tags: ['access'],
          summary: 'Change a project',
          params: KeyParam,
          body: UpdateProject,
          response: { 200: Project },
        },
      },
      async (request) => {
        const principal = await caller(request)
        requireProjectAdmin(principal, await adminOf(principal), request.params.key)
        return changing(updateProject(db, principal.name, request.params.key, request.body))
      },
    )
    app.delete(
      '/projects/:key',
      { config: admin, schema: { tags: ['access'], summary: 'Delete a project', params: KeyParam } },
      async (request, reply) => {
        await changing(deleteProject(db, (await caller(request)).name, request.params.key))
        return reply.code(204).send()
      },
    )
    app.get(
      '/projects/:key/members',
      {
        config: projectAdmin,
        schema: {
          tags: ['access'],
          summary: "A project's members and their roles",
          params: KeyParam,
          response: { 200: ProjectMembers },
        },
      },
      async (request) => {
        const principal = await caller(request)
        requireProjectAdmin(principal, await adminOf(principal), request.params.key)
        return { members: await getMembers(db, request.params.key) }
      },
    )
    app.put(
      '/projects/:key/members',
      {
        config: projectAdmin,
        schema: {
          tags: ['access'],
          summary: "Replace a project's members",
          params: KeyParam,
          body: ProjectMembers,
          response: { 200: ProjectMembers },
        },
      },
      async (request) => {
        const principal = await caller(request)
        requireProjectAdmin(principal, await adminOf(principal), request.params.key)
        return { members: await changing(setMembers(db, principal, request.params.key, request.body.members)) }
      },
    )

    // ---- audit and the anonymous-access switch ----
    app.get(
      '/audit',
      {
        config: admin,
        schema: {
          tags: ['access'],
          summary: 'Who changed which user, group, permission, role or project',
          querystring: AuditQuery,
          response: { 200: AuditPage },
        },
      },
      async (request) => listAudit(db, request.query),
    )
    app.get(
      '/security/anonymous-access',
      {
        config: admin,
        schema: { tags: ['security'], summary: 'Whether anonymous callers may browse', response: { 200: AnonymousAccess } },
      },
      async () => ({ enabled: await getSetting(db, ANONYMOUS_ACCESS_SETTING, false) }),
    )
    app.put(
      '/security/anonymous-access',
      {
        config: admin,
        schema: {
          tags: ['security'],
          summary: 'Allow anonymous access, or not',
          body: AnonymousAccess,
          response: { 200: AnonymousAccess },
        },
      },
      async (request) => {
        const actor = await caller(request)
        await changing(
          db.transaction().execute(async (trx) => {
            await setSetting(trx, ANONYMOUS_ACCESS_SETTING, request.body.enabled)
            await recordChange(trx, {
              actor: actor.name,
              action: 'security.anonymous-access',
              targetType: 'security',
              targetName: 'anonymous-access',
              details: { enabled: request.body.enabled },
            })
          }),
        )
        return { enabled: request.body.enabled }
      },
    )
  }

/** The caller's own access, under /ui/api/v1/ui/access: what the console shows or hides. */
export const accessSelfRoutes =
  (ctx: AppContext, authz: PermissionAuthorizer): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/me',
      {
        config: { access: 'public' },
        schema: { tags: ['access'], summary: 'What the caller may administer', response: { 200: MyAccess } },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store')
        const principal = await ctx.principal(request)
        if (!principal) return { anonymous: true, name: null, admin: false, projectAdminOf: [], canAdministerProjects: false }
        const keys = principal.admin
          ? (await listProjects(ctx.db.kysely, null)).map((p) => p.key)
          : await authz.projectAdminOf(principal.userId)
        return {
          anonymous: false,
          name: principal.name,
          admin: principal.admin,
          projectAdminOf: keys,
          canAdministerProjects: principal.admin || keys.length > 0,
        }
      },
    )
    // The Authorization screen: what the signed-in caller may do, by repository and by project.
    app.get(
      '/me/repositories',
      {
        config: { access: 'user' },
        schema: {
          tags: ['access'],
          summary: 'The repositories the caller holds actions on, with those actions (filtered, one page)',
          querystring: MyRepositoriesQuery,
          response: { 200: MyRepositoryPermissions },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store')
        const principal = await ctx.principal(request)
        if (!principal) throw unauthorized()
        return myRepositories(ctx.db.kysely, ctx.authz, principal, request.query)
      },
    )
    app.get(
      '/me/projects',
      {
        config: { access: 'user' },
        schema: {
          tags: ['access'],
          summary: 'The projects the caller is a member of, with the roles held there',
          response: { 200: MyProjectPermissions },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store')
        const principal = await ctx.principal(request)
        if (!principal) throw unauthorized()
        return myProjects(ctx.db.kysely, principal)
      },
    )
    app.get(
      '/repositories/:repoKey/actions',
      {
        config: { access: 'public' },
        schema: {
          tags: ['access'],
          summary: "The caller's effective actions on a repository",
          params: z.object({ repoKey: z.string().min(1).max(255) }),
          response: { 200: EffectiveRepoActions },
        },
      },
      async (request) => {
        const principal = await ctx.principal(request)
        return { repoKey: request.params.repoKey, actions: await ctx.authz.repoActions(principal, request.params.repoKey) }
      },
    )
  }
