import type { QueryClient } from '@tanstack/react-query'
import type { UserData } from '@trove/contracts/auth'
import type { Entitlements, Features, LocalStorage } from '@trove/contracts/shell'
import { generalConfigQuery } from '../features/adminConfig/api/generalConfig'
import { currentUserQuery } from '../features/auth/api/currentUser'
import { footerQuery } from '../features/auth/api/footer'
import {
  availablePackagesQuery,
  blockedUsagesQuery,
  entitlementsQuery,
  featureConfigQuery,
  frontendVersionQuery,
  localStorageQuery,
  microservicesQuery,
  onboardingStatusQuery,
  projectsQuery,
  repoDataQuery,
  samlLogoutUrlQuery,
} from '../features/shell/api/startup'
import { type ShellContext, shellContext } from '../features/shell/model'
import { selectedProject } from '../features/shell/projectSelection'

/** What the start-up leaves for the guards and the frame. */
export interface Boot {
  ctx: ShellContext
  storage: LocalStorage
  /** False when a start-up call failed (silently, §4.5 step 7): the frame works with defaults. */
  complete: boolean
}

/** Shell §4.5 state: fetched once per signed-in user; reset on failure. */
export const startupState = { initialDataFetched: false, loading: false, cloudTrial: false }

let started: { key: string; promise: Promise<Boot> } | null = null

const keyOf = (user: UserData) => `${user.anonymous ? 'anonymous' : user.name}`

/** Shell §4.5 step 5: analytics only for a signed-in cloud user, not on the Alibaba cloud, with the feature on. */
export function analyticsAllowed(user: UserData, e: Entitlements | undefined, f: Partial<Features>, alibaba = false): boolean {
  return !user.anonymous && e?.deployment === 'cloud' && !alibaba && f.analytics === true
}

/**
 * Shell §4.5: the application start-up. Runs once for the signed-in user (again after another
 * user signs in). The sequence:
 *  1. set the initial-data-fetched flag;
 *  2. user data, frontend version, microservices, footer, entitlements, in that order;
 *  3. when signed in or anonymous access is allowed: feature config and local storage, then in
 *     parallel projects, the SAML logout URL, available packages, repo data and onboarding data
 *     (each unless its flag skips it) and the quota;
 *  4. the cloud-trial flag; 5. analytics (never here: no analytics integration is bundled);
 *  6. the admin's general configuration (no scanner service runs in this process);
 *  7. on failure, loading off and the flag reset, silently.
 */
export function startApplication(queryClient: QueryClient): Promise<Boot> {
  const cachedUser = queryClient.getQueryData(currentUserQuery().queryKey)
  if (started && cachedUser && started.key === keyOf(cachedUser)) return started.promise
  const promise = run(queryClient)
  started = { key: cachedUser ? keyOf(cachedUser) : '', promise }
  void promise.then((boot) => {
    if (started?.promise === promise) started = { key: keyOf(boot.ctx.user), promise }
    if (!boot.complete && started?.promise === promise) started = null
  })
  return promise
}

/** Forget the start-up (sign-out): the next page starts the application again. */
export function resetStartup(): void {
  started = null
  startupState.initialDataFetched = false
}

async function run(queryClient: QueryClient): Promise<Boot> {
  startupState.initialDataFetched = true
  startupState.loading = true
  const q = queryClient
  let user: UserData = { name: 'anonymous', realm: 'internal', admin: false, anonymous: true, mfaStatus: 'none' }
  let entitlements: Entitlements | undefined
  let features: Partial<Features> = {}
  let storage: LocalStorage = {}
  let services = new Set<string>()
  let canAdminProjects = false
  try {
    user = await q.ensureQueryData(currentUserQuery())
    await q.ensureQueryData(frontendVersionQuery())
    const microservices = await q.ensureQueryData(microservicesQuery())
    services = new Set(microservices.services.filter((s) => s.enabled).map((s) => s.name))
    await q.ensureQueryData(footerQuery())
    entitlements = await q.ensureQueryData(entitlementsQuery())
    if (!user.anonymous || entitlements.anonymousAccess) {
      const [featureConfig, stored] = await Promise.all([
        q.ensureQueryData(featureConfigQuery()),
        user.anonymous ? Promise.resolve({}) : q.ensureQueryData(localStorageQuery()),
      ])
      features = featureConfig.features
      storage = stored
      const [projects] = await Promise.all([
        q.ensureQueryData(projectsQuery()),
        q.ensureQueryData(samlLogoutUrlQuery()),
        q.ensureQueryData(availablePackagesQuery()),
        features.skipRepoData ? null : q.ensureQueryData(repoDataQuery()),
        features.skipOnboardingData || user.anonymous ? null : q.ensureQueryData(onboardingStatusQuery()),
        q.ensureQueryData(blockedUsagesQuery()),
      ])
      canAdminProjects = projects.projects.some((p) => p.admin)
    }
    startupState.cloudTrial = entitlements.cloudTrial
    if (user.admin && !user.anonymous) await q.ensureQueryData(generalConfigQuery())
    startupState.loading = false
    return { ctx: build(), storage, complete: true }
  } catch {
    // Step 7: swallowed; the console goes on with what it has.
    startupState.loading = false
    startupState.initialDataFetched = false
    return { ctx: build(), storage, complete: false }
  }

  function build(): ShellContext {
    return shellContext(user, entitlements, features, { services, canAdminProjects, selectedProject: selectedProject() })
  }
}
