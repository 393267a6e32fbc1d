import type { QueryClient } from '@tanstack/react-query'
import { currentUserQuery, useCurrentUser } from '../features/auth/api/currentUser'
import {
  entitlementsQuery,
  featureConfigQuery,
  microservicesQuery,
  projectsQuery,
  useEntitlements,
  useFeatureConfig,
  useMicroservices,
  useProjects,
} from '../features/shell/api/startup'
import { type ShellContext, shellContext } from '../features/shell/model'
import { selectedProject, useSelectedProject } from '../features/shell/projectSelection'

const ANONYMOUS = { name: 'anonymous', realm: 'internal', admin: false, anonymous: true, mfaStatus: 'none' as const }

/** The shell's rules' input from what the start-up put in the cache (guards read it at each navigation). */
export function contextFromCache(q: QueryClient): ShellContext {
  const user = q.getQueryData(currentUserQuery().queryKey) ?? ANONYMOUS
  const services = q.getQueryData(microservicesQuery().queryKey)
  const projects = q.getQueryData(projectsQuery().queryKey)
  return shellContext(
    user,
    q.getQueryData(entitlementsQuery().queryKey),
    q.getQueryData(featureConfigQuery().queryKey)?.features,
    {
      services: new Set(services?.services.filter((s) => s.enabled).map((s) => s.name)),
      canAdminProjects: projects ? projects.projects.some((p) => p.admin) : user.admin && !user.anonymous,
      selectedProject: selectedProject(),
    },
  )
}

/** The same, live, for the frame. */
export function useShellContext(): ShellContext {
  const user = useCurrentUser().data ?? ANONYMOUS
  const entitlements = useEntitlements().data
  const features = useFeatureConfig().data?.features
  const services = useMicroservices().data
  const projects = useProjects().data
  const project = useSelectedProject()
  return shellContext(user, entitlements, features, {
    services: new Set(services?.services.filter((s) => s.enabled).map((s) => s.name)),
    canAdminProjects: projects ? projects.projects.some((p) => p.admin) : user.admin && !user.anonymous,
    selectedProject: project,
  })
}
