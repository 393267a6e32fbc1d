import { queryOptions } from '@tanstack/react-query'
import type {
  GettingStarted,
  Personalization,
  PersonalizationSent,
  PersonalizationStep,
  PersonalizationStepUpdate,
  SetMeUpInfo,
} from '@trove/contracts/onboarding'
import type { OnboardingStep } from '@trove/contracts/shellConstants'
import { apiRequest } from '../../../lib/api'

/** GET ui/setMeUp: where clients reach Trove and, with a key, that repository (403 if unreadable). */
export const setMeUpQuery = (repoKey: string | null) =>
  queryOptions({
    queryKey: ['onboarding', 'setMeUp', repoKey],
    queryFn: () => apiRequest<SetMeUpInfo>('/ui/setMeUp', { query: { repoKey: repoKey ?? undefined } }),
  })

export const personalizationQuery = () =>
  queryOptions({
    queryKey: ['onboarding', 'personalization'],
    queryFn: () => apiRequest<Personalization>('/ui/onboarding/personalization'),
  })

export const saveStep = (step: OnboardingStep, update: PersonalizationStepUpdate) =>
  apiRequest<PersonalizationStep>(`/ui/onboarding/personalization/${step}`, { method: 'PUT', body: update })

export const sendPersonalization = () =>
  apiRequest<PersonalizationSent>('/ui/onboarding/personalization/send', { method: 'POST' })

export const gettingStartedQuery = () =>
  queryOptions({
    queryKey: ['onboarding', 'gettingStarted'],
    queryFn: () => apiRequest<GettingStarted>('/ui/onboarding/gettingStarted'),
  })
