import { z } from 'zod'
import { PackageType, RepoClass } from './repositories.js'
import {
  DESIRED_FEATURES,
  ONBOARDING_NAME_MAX,
  ONBOARDING_PURPOSES,
  ONBOARDING_ROLES,
  ONBOARDING_STEPS,
  type OnboardingStep,
} from './shellConstants.js'

/** GET /ui/api/v1/ui/setMeUp: where clients reach Trove, and the repository asked about. */
export const SetMeUpInfo = z
  .object({
    baseUrl: z.string(),
    repository: z.object({ key: z.string(), packageType: PackageType, rclass: RepoClass }).nullable(),
  })
  .meta({ id: 'SetMeUpInfo' })
export type SetMeUpInfo = z.infer<typeof SetMeUpInfo>

const name = z.string().trim().max(ONBOARDING_NAME_MAX, `at most ${ONBOARDING_NAME_MAX} characters`)

/**
 * Each questionnaire step's data (shell §3, §4.6). Every field may still be missing while the user
 * is on the step (it is saved as it is typed); a value that is there must be a valid one.
 */
export const STEP_DATA = {
  init: z.object({}).strict(),
  purpose: z.object({ purpose: z.enum(ONBOARDING_PURPOSES).optional() }).strict(),
  details: z
    .object({
      companyName: name.optional(),
      ossProjectName: name.optional(),
      role: z.enum(ONBOARDING_ROLES).optional(),
      otherRole: name.optional(),
    })
    .strict(),
  features: z.object({ desiredFeature: z.array(z.enum(DESIRED_FEATURES)).max(DESIRED_FEATURES.length).optional() }).strict(),
} satisfies Record<OnboardingStep, z.ZodType>

export type StepData = { [S in OnboardingStep]: z.infer<(typeof STEP_DATA)[S]> }

/** A step as stored: its data, whether the user finished it, and whether its data is complete. */
export const PersonalizationStep = z.object({
  stepDataObject: z.record(z.string(), z.unknown()),
  isCompleted: z.boolean(),
  isValid: z.boolean(),
})
export type PersonalizationStep = z.infer<typeof PersonalizationStep>

/** GET /ui/api/v1/ui/onboarding/personalization: every step, keyed by step. */
export const Personalization = z
  .object({
    steps: z.record(z.enum(ONBOARDING_STEPS), PersonalizationStep),
    /** When the user sent the questionnaire (ms), or null. */
    sentAt: z.number().int().nullable(),
  })
  .meta({ id: 'Personalization' })
export type Personalization = z.infer<typeof Personalization>

/** PUT /ui/api/v1/ui/onboarding/personalization/{step}. */
export const PersonalizationStepUpdate = z
  .object({ stepDataObject: z.record(z.string(), z.unknown()), isCompleted: z.boolean().default(false) })
  .meta({ id: 'PersonalizationStepUpdate' })
export type PersonalizationStepUpdate = z.input<typeof PersonalizationStepUpdate>

/** The flattened questionnaire (all steps merged), as kept with the user once sent. */
export const PersonalizationSent = z
  .object({
    purpose: z.enum(ONBOARDING_PURPOSES),
    companyName: z.string().optional(),
    ossProjectName: z.string().optional(),
    role: z.enum(ONBOARDING_ROLES),
    otherRole: z.string().optional(),
    desiredFeature: z.array(z.enum(DESIRED_FEATURES)),
  })
  .meta({ id: 'PersonalizationSent' })
export type PersonalizationSent = z.infer<typeof PersonalizationSent>

/**
 * Which fields a step still needs (shell §4.6), given the purpose chosen: an empty list means the
 * step is valid. Purpose needs a purpose; details a role, `otherRole` for Other and `companyName`
 * for Commercial; features at least one feature.
 */
export function missingFields(step: OnboardingStep, data: Record<string, unknown>, purpose: unknown): string[] {
  const filled = (key: string) => typeof data[key] === 'string' && (data[key] as string).trim() !== ''
  switch (step) {
    case 'init':
      return []
    case 'purpose':
      return filled('purpose') ? [] : ['purpose']
    case 'details': {
      const missing = filled('role') ? [] : ['role']
      if (data.role === 'Other' && !filled('otherRole')) missing.push('otherRole')
      if (purpose === 'Commercial' && !filled('companyName')) missing.push('companyName')
      return missing
    }
    case 'features':
      return Array.isArray(data.desiredFeature) && data.desiredFeature.length > 0 ? [] : ['desiredFeature']
  }
}

/** The getting-started checklist (shell §4.1's get_started): each step, ticked from the instance's state. */
export const GETTING_STARTED_STEPS = ['repository', 'package', 'teammate', 'token', 'mfa'] as const
export const GettingStarted = z
  .object({
    steps: z.array(z.object({ id: z.enum(GETTING_STARTED_STEPS), done: z.boolean() })),
  })
  .meta({ id: 'GettingStarted' })
export type GettingStarted = z.infer<typeof GettingStarted>
