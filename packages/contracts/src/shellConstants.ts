/** Plain constants of the shell, without zod, so the console's first page can import them cheaply. */
export type LicenseTypeName = 'N/A' | 'OSS' | 'JCR' | 'CE' | 'PRO' | 'ENTERPRISE' | 'ENTERPRISE_PLUS' | 'EDGE' | 'TRIAL'

/**
 * Licence types that unlock the security-and-compliance screens (the spec does not list them). OSS,
 * the licence a fresh Trove carries, is among them: Trove is free, and what a node runs is not locked.
 * The spec's other flavours (JCR, CE, PRO, EDGE) keep their limits when an admin installs one.
 */
export const SECURITY_LICENSES: readonly LicenseTypeName[] = ['OSS', 'ENTERPRISE', 'ENTERPRISE_PLUS', 'TRIAL']
/** Licence types that count as enterprise-plus for the release-bundles source tab (OSS too, as above). */
export const ENTERPRISE_PLUS_LICENSES: readonly LicenseTypeName[] = ['OSS', 'ENTERPRISE_PLUS', 'TRIAL']

/** Logo upload limits. */
export const LOGO_MAX_BYTES = 512 * 1024
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/gif', 'image/webp'] as const

/** The onboarding questionnaire (shell §3, §4.6, §9): its steps, in order. */
export const ONBOARDING_STEPS = ['init', 'purpose', 'details', 'features'] as const
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number]
export const ONBOARDING_PURPOSES = ['Commercial', 'Personal'] as const
export const ONBOARDING_ROLES = ['DevOps Engineer', 'Software Developer', 'DevSecOps Engineer', 'Other'] as const
export const DESIRED_FEATURES = [
  'Binary management',
  'Team Administration',
  'Single Sign On',
  'Vulnerabilities Scanning',
  'License Compliance Checks',
  'CI/CD',
  'Container Registry',
  'Software Bill Of Materials (SBOM)',
] as const
/** Names a user types in the questionnaire: at most this long. */
export const ONBOARDING_NAME_MAX = 100
/** The keys of the per-user console state that hold the onboarding flags (shell §3). */
export const ONBOARDING_STATE_KEYS = {
  wizardClosed: 'onboarding.wizardClosed',
  seenGettingStarted: 'onboarding.seenGettingStarted',
} as const
