import { queryOptions, useQuery } from '@tanstack/react-query'
import type {
  AvailablePackages,
  BlockedUsages,
  Entitlements,
  FeatureConfig,
  LocalStorage,
  Microservices,
  OnboardingInitStatus,
  ProjectList,
  RepoData,
} from '@trove/contracts/shell'
import { apiRequest } from '../../../lib/api'

// The console's start-up calls (shell §4.5), each with its fetcher, query options and hook.
// They are fetched once by the start-up sequence and read from the cache afterwards.
const STARTUP = 5 * 60_000

export const getFrontendVersion = () => apiRequest<{ version: string; revision: string }>('/ui/frontend/version')
export const frontendVersionQuery = () =>
  queryOptions({ queryKey: ['shell', 'frontendVersion'], queryFn: getFrontendVersion, staleTime: STARTUP })

export const getMicroservices = () => apiRequest<Microservices>('/ui/microservices')
export const microservicesQuery = () =>
  queryOptions({ queryKey: ['shell', 'microservices'], queryFn: getMicroservices, staleTime: STARTUP })
export const useMicroservices = () => useQuery(microservicesQuery())

export const getEntitlements = () => apiRequest<Entitlements>('/ui/entitlements')
export const entitlementsQuery = () =>
  queryOptions({ queryKey: ['shell', 'entitlements'], queryFn: getEntitlements, staleTime: 30_000 })
export const useEntitlements = () => useQuery(entitlementsQuery())

export const getFeatureConfig = () => apiRequest<FeatureConfig>('/ui/featureConfig')
export const featureConfigQuery = () =>
  queryOptions({ queryKey: ['shell', 'featureConfig'], queryFn: getFeatureConfig, staleTime: STARTUP })
export const useFeatureConfig = () => useQuery(featureConfigQuery())

export const getLocalStorage = () => apiRequest<LocalStorage>('/ui/localStorage')
export const localStorageQuery = () =>
  queryOptions({ queryKey: ['shell', 'localStorage'], queryFn: getLocalStorage, staleTime: Infinity })
export const saveLocalStorage = (values: Record<string, string | null>) =>
  apiRequest<void>('/ui/localStorage', { method: 'PUT', body: values })

export const getProjects = () => apiRequest<ProjectList>('/ui/shell/projects')
export const projectsQuery = () => queryOptions({ queryKey: ['shell', 'projects'], queryFn: getProjects, staleTime: STARTUP })
export const useProjects = () => useQuery(projectsQuery())

export const getSamlLogoutUrl = () => apiRequest<{ logoutUrl: string | null }>('/ui/shell/samlLogoutUrl')
export const samlLogoutUrlQuery = () =>
  queryOptions({ queryKey: ['shell', 'samlLogoutUrl'], queryFn: getSamlLogoutUrl, staleTime: STARTUP })

export const getAvailablePackages = () => apiRequest<AvailablePackages>('/ui/shell/availablePackages')
export const availablePackagesQuery = () =>
  queryOptions({ queryKey: ['shell', 'availablePackages'], queryFn: getAvailablePackages, staleTime: STARTUP })

export const getRepoData = () => apiRequest<RepoData>('/ui/shell/repoData')
export const repoDataQuery = () => queryOptions({ queryKey: ['shell', 'repoData'], queryFn: getRepoData, staleTime: 60_000 })

export const getOnboardingStatus = () => apiRequest<OnboardingInitStatus>('/ui/onboarding/initStatus')
export const onboardingStatusQuery = () =>
  queryOptions({ queryKey: ['shell', 'onboarding'], queryFn: getOnboardingStatus, staleTime: 60_000 })

export const getBlockedUsages = () => apiRequest<BlockedUsages>('/ui/subscription/blockedUsages')
export const blockedUsagesQuery = () =>
  queryOptions({ queryKey: ['shell', 'blockedUsages'], queryFn: getBlockedUsages, staleTime: 60_000 })
export const useBlockedUsages = (enabled: boolean) => useQuery({ ...blockedUsagesQuery(), enabled })

export const getWebServer = () =>
  apiRequest<{ baseUrl: string | null; reverseProxies: string[] }>('/ui/system/configuration/webServer')
export const webServerQuery = () => queryOptions({ queryKey: ['shell', 'webServer'], queryFn: getWebServer, staleTime: STARTUP })
