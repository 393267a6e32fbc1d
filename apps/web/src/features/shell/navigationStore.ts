import { useSyncExternalStore } from 'react'

/** Shell §3 navigation state: the few pieces of client state the frame keeps. */
export interface NavigationState {
  sidebarCollapsed: boolean
  quickSetupVisible: boolean
  /** Whether the quick-setup panel tracks onboarding progress (reset on close). */
  onboardingTracking: boolean
  singlePackageSelection: boolean
  predefinedPackageType: string | null
  setMeUpVisible: boolean
  /** What the set-me-up panel shows; closing resets it to the active node. */
  setMeUpConfig: { target: 'activeNode' } | { target: 'repository'; repoKey: string }
  quickActionBubble: boolean
  lastApplicationPath: string | undefined
  lastAdministrationPath: string | undefined
}

const initial: NavigationState = {
  sidebarCollapsed: false,
  quickSetupVisible: false,
  onboardingTracking: false,
  singlePackageSelection: false,
  predefinedPackageType: null,
  setMeUpVisible: false,
  setMeUpConfig: { target: 'activeNode' },
  quickActionBubble: true,
  lastApplicationPath: undefined,
  lastAdministrationPath: undefined,
}

let state = initial
const listeners = new Set<() => void>()

export function navigationState(): NavigationState {
  return state
}

export function updateNavigation(patch: Partial<NavigationState>): void {
  state = { ...state, ...patch }
  for (const listener of listeners) listener()
}

export function resetNavigation(): void {
  updateNavigation(initial)
}

/** Shell §4.3: quick setup opens or closes; closing resets tracking, single-package selection and the package type. */
export function setQuickSetup(open: boolean, options: { packageType?: string; singlePackage?: boolean } = {}): void {
  if (open) {
    updateNavigation({
      quickSetupVisible: true,
      onboardingTracking: true,
      predefinedPackageType: options.packageType ?? state.predefinedPackageType,
      singlePackageSelection: options.singlePackage ?? state.singlePackageSelection,
    })
  } else {
    updateNavigation({
      quickSetupVisible: false,
      onboardingTracking: false,
      singlePackageSelection: false,
      predefinedPackageType: null,
    })
  }
}

/** Shell §4.3: set-me-up opens or closes; closing resets its config to the active node. */
export function setSetMeUp(open: boolean, config?: NavigationState['setMeUpConfig']): void {
  if (open) updateNavigation({ setMeUpVisible: true, ...(config ? { setMeUpConfig: config } : {}) })
  else updateNavigation({ setMeUpVisible: false, setMeUpConfig: { target: 'activeNode' } })
}

export function useNavigationState(): NavigationState {
  return useSyncExternalStore((listener) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }, navigationState)
}
