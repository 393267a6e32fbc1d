import { useNavigate } from '@tanstack/react-router'
import { ONBOARDING_STATE_KEYS } from '@trove/contracts/shellConstants'
import { GettingStartedPage, type StepTarget } from '../../features/onboarding/GettingStartedPage'
import { OnboardingWizard } from '../../features/onboarding/OnboardingWizard'
import { saveLocalStorage } from '../../features/shell/api/startup'
import { setSetMeUp } from '../../features/shell/navigationStore'
import { QUICK_SETUP_PAGE } from '../shellGuards'

/** The questionnaire; sent, the admin goes on to quick setup; skipped, to the landing page. */
export function OnboardingScreen() {
  const navigate = useNavigate()
  return (
    <OnboardingWizard
      onDone={() => void navigate({ href: QUICK_SETUP_PAGE, replace: true })}
      onSkip={() =>
        void saveLocalStorage({ [ONBOARDING_STATE_KEYS.wizardClosed]: 'true' })
          .catch(() => {})
          .then(() => navigate({ to: '/', replace: true }))
      }
    />
  )
}

function useOpenStep() {
  const navigate = useNavigate()
  return (target: StepTarget) => {
    if ('action' in target) setSetMeUp(true)
    else void navigate({ href: target.path })
  }
}

const markSeen = () => void saveLocalStorage({ [ONBOARDING_STATE_KEYS.seenGettingStarted]: 'true' }).catch(() => {})

export function GettingStartedScreen() {
  return <GettingStartedPage onOpen={useOpenStep()} onSeen={markSeen} />
}

export function TourGettingStartedScreen() {
  return <GettingStartedPage tour onOpen={useOpenStep()} onSeen={markSeen} />
}
