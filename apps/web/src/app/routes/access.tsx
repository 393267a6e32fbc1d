import type { QueryClient } from '@tanstack/react-query'
import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router'
import { Limits } from '@trove/contracts/limits'
import { Messages } from '@trove/contracts/messages'
import { myAccessQuery } from '../../features/access/api/myAccess'
import { selectedProject } from '../../features/shell/projectSelection'
import { notify } from '../../lib/notify'
import { loadChunk } from '../chunks'

/** A screen of the access area, as a lazily loaded chunk. */
function screen<M extends Record<string, unknown>>(id: string, importer: () => Promise<M>, exportName: keyof M & string) {
  return lazyRouteComponent(() => loadChunk(id, importer), exportName)
}

function refuse(): never {
  notify({ color: 'red', message: Messages.notAuthorized, autoClose: Limits.toastMs })
  throw redirect({ to: '/', replace: true })
}

/** Admin screens: anyone else gets the not-authorized notice (shell §8) and goes home. */
const queryClientOf = (context: unknown) => (context as { queryClient: QueryClient }).queryClient

async function adminOnly({ context }: { context: unknown }) {
  const me = await queryClientOf(context).fetchQuery(myAccessQuery())
  if (!me.admin) refuse()
}
/** Project screens: administrators and project administrators. */
async function projectAdminOnly({ context }: { context: unknown }) {
  const me = await queryClientOf(context).fetchQuery(myAccessQuery())
  if (!me.canAdministerProjects) refuse()
}

/**
 * The project a project screen is about: `?project=` (the access screens' links) or `?projectKey=`
 * (the shell's Administration menu target); else the project chosen in the top bar.
 */
const projectSearch = (search: Record<string, unknown>) => {
  const named = [search.project, search.projectKey].find((v): v is string => typeof v === 'string' && v !== '')
  return { project: named ?? selectedProject() ?? '' }
}

/** Users, groups, permissions, global roles, projects and audit, under the signed-in layout. */
export function accessRoutes<P extends AnyRoute>(parent: P) {
  const users = () => import('../../features/access/UsersPage')
  const userForm = () => import('../../features/access/UserFormPage')
  const groups = () => import('../../features/access/GroupsPage')
  const groupForm = () => import('../../features/access/GroupFormPage')
  const permissions = () => import('../../features/access/PermissionsPage')
  const permissionForm = () => import('../../features/access/PermissionFormPage')
  const UserFormLazy = screen('access-user-form', userForm, 'UserFormPage')
  const GroupFormLazy = screen('access-group-form', groupForm, 'GroupFormPage')
  const PermissionFormLazy = screen('access-permission-form', permissionForm, 'PermissionFormPage')
  const OverviewLazy = screen(
    'access-project-overview',
    () => import('../../features/access/ProjectOverviewPage'),
    'ProjectOverviewPage',
  )
  const MembersLazy = screen(
    'access-project-members',
    () => import('../../features/access/ProjectMembersPage'),
    'ProjectMembersPage',
  )

  const usersRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/users',
    staticData: { name: 'admin.management.users', title: 'Users' },
    beforeLoad: adminOnly,
    component: screen('access-users', users, 'UsersPage'),
  })
  const userNewRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/users/new',
    staticData: { name: 'admin.management.users.new', title: 'New user' },
    beforeLoad: adminOnly,
    component: () => <UserFormLazy />,
  })
  const userEditRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/users/$name',
    staticData: { name: 'admin.management.users.edit', title: 'Edit user' },
    beforeLoad: adminOnly,
    component: function UserEdit() {
      const { name } = userEditRoute.useParams() as { name: string }
      return <UserFormLazy name={name} />
    },
  })
  const groupsRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/groups',
    staticData: { name: 'admin.management.groups', title: 'Groups' },
    beforeLoad: adminOnly,
    component: screen('access-groups', groups, 'GroupsPage'),
  })
  const groupNewRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/groups/new',
    staticData: { name: 'admin.management.groups.new', title: 'New group' },
    beforeLoad: adminOnly,
    component: () => <GroupFormLazy />,
  })
  const groupEditRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/groups/$name',
    staticData: { name: 'admin.management.groups.edit', title: 'Edit group' },
    beforeLoad: adminOnly,
    component: function GroupEdit() {
      const { name } = groupEditRoute.useParams() as { name: string }
      return <GroupFormLazy name={name} />
    },
  })
  const permissionsRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/permissions',
    staticData: { name: 'admin.management.permissions', title: 'Permissions' },
    beforeLoad: adminOnly,
    component: screen('access-permissions', permissions, 'PermissionsPage'),
  })
  const permissionNewRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/permissions/create',
    staticData: { name: 'admin.management.permissions.create', title: 'New permission' },
    beforeLoad: adminOnly,
    component: () => <PermissionFormLazy />,
  })
  const permissionEditRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/permissions/$name',
    staticData: { name: 'admin.management.permissions.edit', title: 'Edit permission' },
    // Open to a signed-in user: one who manages this permission may change its grants (the server decides).
    component: function PermissionEdit() {
      const { name } = permissionEditRoute.useParams() as { name: string }
      return <PermissionFormLazy name={name} />
    },
  })
  const rolesRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/global_roles',
    staticData: { name: 'admin.management.global_roles', title: 'Global roles' },
    beforeLoad: adminOnly,
    component: screen('access-roles', () => import('../../features/access/GlobalRolesPage'), 'GlobalRolesPage'),
  })
  const auditRoute = createRoute({
    getParentRoute: () => parent,
    path: 'management/audit',
    staticData: { name: 'admin.management.audit', title: 'Audit' },
    beforeLoad: adminOnly,
    component: screen('access-audit', () => import('../../features/access/AuditPage'), 'AuditPage'),
  })
  const projectsRoute = createRoute({
    getParentRoute: () => parent,
    path: 'projects/list',
    staticData: { name: 'projects.main', title: 'Projects' },
    beforeLoad: projectAdminOnly,
    component: screen('access-projects', () => import('../../features/access/ProjectsListPage'), 'ProjectsListPage'),
  })
  const projectCreateRoute = createRoute({
    getParentRoute: () => parent,
    path: 'projects/create',
    staticData: { name: 'projects.create', title: 'Create project' },
    beforeLoad: adminOnly,
    component: screen('access-project-create', () => import('../../features/access/ProjectCreatePage'), 'ProjectCreatePage'),
  })
  const projectOverviewRoute = createRoute({
    getParentRoute: () => parent,
    path: 'projects/overview',
    staticData: { name: 'projects.overview', title: 'Project overview' },
    validateSearch: projectSearch,
    beforeLoad: projectAdminOnly,
    component: function Overview() {
      const { project } = projectOverviewRoute.useSearch() as { project: string }
      return <OverviewLazy projectKey={project} />
    },
  })
  const projectMembersRoute = createRoute({
    getParentRoute: () => parent,
    path: 'projects/members',
    staticData: { name: 'projects.members', title: 'Project members' },
    validateSearch: projectSearch,
    beforeLoad: projectAdminOnly,
    component: function Members() {
      const { project } = projectMembersRoute.useSearch() as { project: string }
      return <MembersLazy projectKey={project} />
    },
  })
  return [
    usersRoute,
    userNewRoute,
    userEditRoute,
    groupsRoute,
    groupNewRoute,
    groupEditRoute,
    permissionsRoute,
    permissionNewRoute,
    permissionEditRoute,
    rolesRoute,
    auditRoute,
    projectsRoute,
    projectCreateRoute,
    projectOverviewRoute,
    projectMembersRoute,
  ] as const
}
