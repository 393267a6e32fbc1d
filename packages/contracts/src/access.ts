import { z } from 'zod'
import { Limits } from './limits.js'
import { Messages } from './messages.js'

/** Trove's own texts of the access area (the spec quotes the others, in messages.ts). */
export const AccessMessages = {
  projectKeyCharacters: 'Project key can only contain lowercase letters and digits',
  lastAdmin: 'The last administrator cannot be removed, disabled or demoted',
  cannotGrantMore: 'You cannot grant more than you hold',
  notProjectAdmin: 'You do not administer this project',
  predefinedRole: 'Predefined roles cannot be changed',
  selfDelete: 'You cannot delete yourself',
} as const

/** Names of users, groups, permission targets and roles (shell §5): letters, digits, dash, underscore, period. */
export const NAME_PATTERN = /^[A-Za-z0-9._-]+$/
export const EntityName = z.string().min(1, Messages.fieldMandatory).max(64).regex(NAME_PATTERN, Messages.invalidName)

/** Project keys (shell §3, §9): start with a lowercase letter, then lowercase letters and digits. */
export const PROJECT_KEY_START = /^[a-z]/
export const PROJECT_KEY_PATTERN = /^[a-z][a-z0-9]*$/
export const ProjectKey = z
  .string()
  .min(1, Messages.fieldMandatory)
  .max(Limits.projectKeyMaxLength)
  .regex(PROJECT_KEY_START, Messages.projectKeyLowercase)
  .regex(PROJECT_KEY_PATTERN, AccessMessages.projectKeyCharacters)

/** What a principal may do on a repository, build or release bundle (docs/decisions.md, Access). */
export const ACTIONS = ['read', 'annotate', 'deploy', 'delete', 'manage'] as const
export const Action = z.enum(ACTIONS)
export type Action = z.infer<typeof Action>
export const ACTION_LABELS: Record<Action, string> = {
  read: 'Read',
  annotate: 'Annotate',
  deploy: 'Deploy/Cache',
  delete: 'Delete/Overwrite',
  manage: 'Manage',
}

/** GET/PUT …/ui/admin/security/anonymous-access */
export const AnonymousAccess = z.object({ enabled: z.boolean() }).meta({ id: 'AnonymousAccess' })
export type AnonymousAccess = z.infer<typeof AnonymousAccess>

// ---- Users ----

export const USER_SORTS = ['name', 'email', 'createdAt', 'admin', 'disabled'] as const
export const UserListQuery = z.object({
  search: z.string().max(255).optional(),
  sort: z.enum(USER_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(Limits.defaultPageSize),
})
export interface UserListQuery {
  search?: string
  sort?: (typeof USER_SORTS)[number]
  order?: 'asc' | 'desc'
  page?: number
  pageSize?: number
}

export const UserSummary = z
  .object({
    name: z.string(),
    email: z.string().nullable(),
    admin: z.boolean(),
    disabled: z.boolean(),
    mfaRequired: z.boolean(),
    realm: z.string(),
    createdAt: z.number(),
  })
  .meta({ id: 'UserSummary' })
export type UserSummary = z.infer<typeof UserSummary>

export const UserPage = z
  .object({ items: z.array(UserSummary), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'UserPage' })
export type UserPage = z.infer<typeof UserPage>

export const UserDetail = UserSummary.extend({
  groups: z.array(z.string()),
  /** Admin through the flag or through a group with admin privileges. */
  effectiveAdmin: z.boolean(),
}).meta({ id: 'UserDetail' })
export type UserDetail = z.infer<typeof UserDetail>

/** A user's sign-in lock (too many failed attempts, from one address or from everywhere). */
export const SignInLock = z
  .object({
    /** When the latest lock on the name ends (ms since the epoch), or null when none holds. */
    lockedUntil: z.number().nullable(),
  })
  .meta({ id: 'SignInLock' })
export type SignInLock = z.infer<typeof SignInLock>

const Email = z.email().max(320)
const Password = z.string().min(8, 'Password must be at least 8 characters').max(1024)

export const CreateUser = z
  .object({
    name: EntityName,
    email: Email.nullable().optional(),
    password: Password,
    admin: z.boolean().default(false),
    disabled: z.boolean().default(false),
    mfaRequired: z.boolean().default(false),
    groups: z.array(EntityName).max(1000).optional(),
  })
  .meta({ id: 'CreateUser' })
export type CreateUser = z.infer<typeof CreateUser>
export type CreateUserInput = z.input<typeof CreateUser>

export const UpdateUser = z
  .object({
    email: Email.nullable().optional(),
    admin: z.boolean().optional(),
    disabled: z.boolean().optional(),
    mfaRequired: z.boolean().optional(),
    groups: z.array(EntityName).max(1000).optional(),
  })
  .meta({ id: 'UpdateUser' })
export type UpdateUser = z.infer<typeof UpdateUser>

export const ResetUserPassword = z.object({ password: Password }).meta({ id: 'ResetUserPassword' })

// ---- Groups ----

export const Group = z
  .object({
    name: EntityName,
    description: z.string().max(1024).default(''),
    autoJoin: z.boolean().default(false),
    adminPrivileges: z.boolean().default(false),
    members: z.array(z.string().min(1).max(255)).max(100_000).default([]),
  })
  .meta({ id: 'Group' })
export type Group = z.infer<typeof Group>
export type GroupInput = z.input<typeof Group>
export const GroupSummary = z
  .object({
    name: z.string(),
    description: z.string(),
    autoJoin: z.boolean(),
    adminPrivileges: z.boolean(),
    memberCount: z.number().int(),
  })
  .meta({ id: 'GroupSummary' })
export type GroupSummary = z.infer<typeof GroupSummary>

// ---- Permission targets ----

const Pattern = z.string().min(1).max(255)
/** A set of resources by name and by include/exclude patterns ('**' any, '*' within a segment, '?' one character). */
export const ResourceSet = z.object({
  names: z.array(z.string().min(1).max(255)).max(10_000).default([]),
  include: z.array(Pattern).max(100).default([]),
  exclude: z.array(Pattern).max(100).default([]),
})
export type ResourceSet = z.infer<typeof ResourceSet>

export const RESOURCE_KINDS = ['repositories', 'builds', 'releaseBundles'] as const
export const ResourceKind = z.enum(RESOURCE_KINDS)
export type ResourceKind = z.infer<typeof ResourceKind>
export const RESOURCE_LABELS: Record<ResourceKind, string> = {
  repositories: 'Repositories',
  builds: 'Builds',
  releaseBundles: 'Release Bundles',
}

export const GRANTEE_KINDS = ['user', 'group', 'anonymous'] as const
export const Grant = z.object({
  kind: z.enum(GRANTEE_KINDS),
  /** User or group name; empty for the anonymous caller. */
  name: z.string().max(255).default(''),
  actions: z.array(Action).min(1).max(ACTIONS.length),
})
export type Grant = z.infer<typeof Grant>

export const ResourceGrants = z.object({ resources: ResourceSet, grants: z.array(Grant).max(10_000).default([]) })
export type ResourceGrants = z.infer<typeof ResourceGrants>

export const PermissionTarget = z
  .object({
    name: EntityName,
    repositories: ResourceGrants.nullable().default(null),
    builds: ResourceGrants.nullable().default(null),
    releaseBundles: ResourceGrants.nullable().default(null),
  })
  .meta({ id: 'PermissionTarget' })
export type PermissionTarget = z.infer<typeof PermissionTarget>
export type PermissionTargetInput = z.input<typeof PermissionTarget>

export const PermissionSummary = z
  .object({ name: z.string(), resources: z.array(ResourceKind), users: z.number().int(), groups: z.number().int() })
  .meta({ id: 'PermissionSummary' })
export type PermissionSummary = z.infer<typeof PermissionSummary>

// ---- Roles and projects ----

/** Project-level capabilities a role can carry beyond repository actions. */
export const ROLE_CAPABILITIES = ['manage_members', 'manage_resources'] as const
export const RoleCapability = z.enum(ROLE_CAPABILITIES)
export const PREDEFINED_ROLES = ['Project Admin', 'Developer', 'Contributor', 'Viewer'] as const
export const PROJECT_ADMIN_ROLE = 'Project Admin'

export const Role = z
  .object({
    name: z
      .string()
      .min(1, Messages.fieldMandatory)
      .max(64)
      .regex(/^[A-Za-z0-9._ -]+$/, Messages.invalidName),
    description: z.string().max(1024).default(''),
    /** project: defined for members of projects; global: spans every project. */
    type: z.enum(['project', 'global']).default('global'),
    actions: z.array(Action).max(ACTIONS.length).default([]),
    capabilities: z.array(RoleCapability).max(ROLE_CAPABILITIES.length).default([]),
  })
  .meta({ id: 'Role' })
export type Role = z.infer<typeof Role>
export type RoleInput = z.input<typeof Role>
export const RoleInfo = Role.extend({ predefined: z.boolean() }).meta({ id: 'RoleInfo' })
export type RoleInfo = z.infer<typeof RoleInfo>

export const ProjectMember = z.object({
  kind: z.enum(['user', 'group']),
  name: z.string().min(1).max(255),
  roles: z.array(z.string().min(1).max(64)).min(1).max(50),
})
export type ProjectMember = z.infer<typeof ProjectMember>
export const ProjectMembers = z.object({ members: z.array(ProjectMember).max(10_000) }).meta({ id: 'ProjectMembers' })
export type ProjectMembers = z.infer<typeof ProjectMembers>

export const CreateProject = z
  .object({
    key: ProjectKey,
    displayName: z.string().min(1, Messages.fieldMandatory).max(255),
    description: z.string().max(1024).default(''),
    /** Bytes; null means no limit. */
    storageQuotaBytes: z.number().int().min(0).nullable().default(null),
  })
  .meta({ id: 'CreateProject' })
export type CreateProject = z.infer<typeof CreateProject>
export type CreateProjectInput = z.input<typeof CreateProject>
export const UpdateProject = CreateProject.omit({ key: true }).partial().meta({ id: 'UpdateProject' })
export type UpdateProject = z.infer<typeof UpdateProject>
export const Project = z
  .object({
    key: z.string(),
    displayName: z.string(),
    description: z.string(),
    storageQuotaBytes: z.number().nullable(),
    createdAt: z.number(),
    memberCount: z.number().int(),
  })
  .meta({ id: 'Project' })
export type Project = z.infer<typeof Project>

// ---- The caller's own access, for the console ----

export const MyAccess = z
  .object({
    anonymous: z.boolean(),
    name: z.string().nullable(),
    admin: z.boolean(),
    /** Keys of the projects the caller administers (all of them for an admin). */
    projectAdminOf: z.array(z.string()),
    canAdministerProjects: z.boolean(),
  })
  .meta({ id: 'MyAccess' })
export type MyAccess = z.infer<typeof MyAccess>

export const EffectiveRepoActions = z
  .object({ repoKey: z.string(), actions: z.array(Action) })
  .meta({ id: 'EffectiveRepoActions' })
export type EffectiveRepoActions = z.infer<typeof EffectiveRepoActions>

// ---- Audit ----

export const AuditEvent = z
  .object({
    id: z.number().int(),
    at: z.number(),
    actor: z.string(),
    action: z.string(),
    targetType: z.enum(['user', 'group', 'permission', 'project', 'role', 'security']),
    targetName: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEvent' })
export type AuditEvent = z.infer<typeof AuditEvent>
export const AuditQuery = z.object({
  targetType: AuditEvent.shape.targetType.optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(Limits.defaultPageSize),
})
export const AuditPage = z
  .object({ items: z.array(AuditEvent), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'AuditPage' })
export type AuditPage = z.infer<typeof AuditPage>

// ---- The caller's effective permissions (the Authorization screen) ----

/** GET …/ui/access/me/repositories: a name filter and one page. */
export const MyRepositoriesQuery = z.object({
  search: z.string().max(255).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(Limits.defaultPageSize),
})
export interface MyRepositoriesQuery {
  search?: string
  page?: number
  pageSize?: number
}

export const RepositoryPermission = z
  .object({
    repoKey: z.string(),
    rclass: z.enum(['local', 'remote', 'virtual']),
    packageType: z.string(),
    actions: z.array(Action),
  })
  .meta({ id: 'RepositoryPermission' })
export type RepositoryPermission = z.infer<typeof RepositoryPermission>

/**
 * The repositories on which the caller holds at least one action, with those actions. `admin`
 * says the caller holds everything everywhere (the admin flag or a group with admin privileges).
 */
export const MyRepositoryPermissions = z
  .object({
    admin: z.boolean(),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    items: z.array(RepositoryPermission),
  })
  .meta({ id: 'MyRepositoryPermissions' })
export type MyRepositoryPermissions = z.infer<typeof MyRepositoryPermissions>

/** A project role the caller holds, and through whom: themselves or a group they belong to. */
export const HeldRole = z.object({ role: z.string(), via: z.enum(['user', 'group']), group: z.string().nullable() })
export type HeldRole = z.infer<typeof HeldRole>

export const ProjectPermission = z
  .object({
    key: z.string(),
    displayName: z.string(),
    roles: z.array(HeldRole),
    /** Actions on the project's repositories (keyed `<project key>-…`). */
    actions: z.array(Action),
    capabilities: z.array(RoleCapability),
  })
  .meta({ id: 'ProjectPermission' })
export type ProjectPermission = z.infer<typeof ProjectPermission>

/** GET …/ui/access/me/projects: every project the caller is a member of (all of them for an admin). */
export const MyProjectPermissions = z
  .object({ admin: z.boolean(), items: z.array(ProjectPermission) })
  .meta({ id: 'MyProjectPermissions' })
export type MyProjectPermissions = z.infer<typeof MyProjectPermissions>
