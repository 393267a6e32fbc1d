import type { UserData } from '@trove/contracts/auth'
import { describe, expect, it } from 'vitest'
import { shellContext } from '../features/shell/model'
import { ONBOARDING_PATH, QUICK_SETUP_PAGE, signInOnboardingGuard } from './shellGuards'

const admin: UserData = { name: 'admin', realm: 'internal', admin: true, anonymous: false, mfaStatus: 'none' }
const status = {
  hasOnlyDefaultRepos: true,
  isOnboardingNeeded: true,
  isFirstLogin: true,
  isWizardClosed: false,
  userSeenGettingStarted: false,
}
const ctx = (features: Record<string, boolean>, user = admin) =>
  shellContext(user, undefined, { newOnboarding: true, ...features })

describe('signInOnboardingGuard (shell §4.2, arriving from sign-in)', () => {
  it('sends an admin who needs onboarding to the questionnaire', () => {
    expect(signInOnboardingGuard(ctx({}), status, '/')).toEqual({ kind: 'redirect', to: ONBOARDING_PATH })
  })

  it('sends a first login to quick setup when the quick-deploy landing page is on', () => {
    expect(signInOnboardingGuard(ctx({ quickDeployLandingPage: true }), status, '/')).toEqual({
      kind: 'redirect',
      to: QUICK_SETUP_PAGE,
    })
    // Not a first login: neither quick setup nor the questionnaire (quick deploy is on).
    expect(signInOnboardingGuard(ctx({ quickDeployLandingPage: true }), { ...status, isFirstLogin: false }, '/')).toEqual({
      kind: 'allow',
    })
  })

  it('lets the user through once onboarding is done, on an excluded target, or for a non-admin', () => {
    expect(signInOnboardingGuard(ctx({}), { ...status, isOnboardingNeeded: false }, '/')).toEqual({ kind: 'allow' })
    expect(signInOnboardingGuard(ctx({}), status, '/artifacts/browse/tree/General/x')).toEqual({ kind: 'allow' })
    expect(signInOnboardingGuard(ctx({ platformGetStarted: true }), status, '/')).toEqual({ kind: 'allow' })
    expect(signInOnboardingGuard(ctx({ newOnboarding: false }), status, '/')).toEqual({ kind: 'allow' })
    expect(signInOnboardingGuard(ctx({}, { ...admin, admin: false }), status, '/')).toEqual({ kind: 'allow' })
    expect(signInOnboardingGuard(ctx({}), undefined, '/')).toEqual({ kind: 'allow' })
  })
})
