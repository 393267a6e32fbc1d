import {
  type GettingStarted,
  missingFields,
  type Personalization,
  type PersonalizationSent,
  type PersonalizationStep,
  STEP_DATA,
} from '@trove/contracts/onboarding'
import { SAMPLE_REPOSITORIES } from '@trove/contracts/repositoryConstants'
import { ONBOARDING_STATE_KEYS, ONBOARDING_STEPS, type OnboardingStep } from '@trove/contracts/shellConstants'
import type { Kysely } from 'kysely'
import { badRequest } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'

type Db = Kysely<Database>

/** The console state key that says a user closed the onboarding wizard (shell §3). */
export const WIZARD_CLOSED_KEY = ONBOARDING_STATE_KEYS.wizardClosed
/** The console state key that says a user has seen the getting-started screen (shell §3). */
export const SEEN_GETTING_STARTED_KEY = ONBOARDING_STATE_KEYS.seenGettingStarted

const SAMPLE_KEYS = new Set(Object.values(SAMPLE_REPOSITORIES).flatMap((samples) => samples.map((s) => s.key)))

/**
 * Packages §3 "Other": true until a repository other than the quick-setup samples (npm-local,
 * npm-remote, …) exists. One query: the first repository whose key is not a sample's.
 */
export async function hasOnlyDefaultRepos(db: Db): Promise<boolean> {
  const other = await db
    .selectFrom('repositories')
    .select('key')
    .where('key', 'not in', [...SAMPLE_KEYS])
    .limit(1)
    .executeTakeFirst()
  return other === undefined
}

const EMPTY_STEP: PersonalizationStep = { stepDataObject: {}, isCompleted: false, isValid: false }

/**
 * The onboarding questionnaire (shell §4.6), kept per user and per step on the server: each step
 * is saved as the user fills it in, and sending merges the steps into the user's custom data.
 */
export class OnboardingService {
  constructor(private readonly db: Db) {}

  async personalization(userId: number): Promise<Personalization> {
    const rows = await this.db.selectFrom('onboarding_steps').selectAll().where('user_id', '=', userId).execute()
    const sent = await this.db
      .selectFrom('user_custom_data')
      .select('updated_at')
      .where('user_id', '=', userId)
      .executeTakeFirst()
    const steps = Object.fromEntries(ONBOARDING_STEPS.map((s) => [s, { ...EMPTY_STEP, isValid: s === 'init' }])) as Record<
      OnboardingStep,
      PersonalizationStep
    >
    for (const row of rows) {
      if (!(ONBOARDING_STEPS as readonly string[]).includes(row.step)) continue
      steps[row.step as OnboardingStep] = {
        stepDataObject: JSON.parse(row.data),
        isCompleted: row.is_completed === 1,
        isValid: row.is_valid === 1,
      }
    }
    return { steps, sentAt: sent?.updated_at ?? null }
  }

  /**
   * Saves one step. A value that is not one the step allows is refused field by field (400) and
   * nothing of the step changes; a step may be saved incomplete, but not marked completed while a
   * field it needs is missing. The other steps are never touched.
   */
  async saveStep(
    userId: number,
    step: OnboardingStep,
    input: { stepDataObject: unknown; isCompleted: boolean },
  ): Promise<PersonalizationStep> {
    const parsed = STEP_DATA[step].safeParse(input.stepDataObject)
    if (!parsed.success) {
      throw badRequest(parsed.error.issues.map((i) => `${[step, ...i.path].join('.')}: ${i.message}`).join('; '))
    }
    const data = parsed.data as Record<string, unknown>
    const purpose = step === 'purpose' ? data.purpose : (await this.personalization(userId)).steps.purpose.stepDataObject.purpose
    const missing = missingFields(step, data, purpose)
    if (input.isCompleted && missing.length > 0) {
      throw badRequest(missing.map((field) => `${step}.${field}: This field is mandatory`).join('; '))
    }
    const row = {
      data: JSON.stringify(data),
      is_completed: input.isCompleted ? 1 : 0,
      is_valid: missing.length === 0 ? 1 : 0,
      updated_at: Date.now(),
    }
    await this.db
      .insertInto('onboarding_steps')
      .values({ user_id: userId, step, ...row })
      .onConflict((oc) => oc.columns(['user_id', 'step']).doUpdateSet(row))
      .execute()
    return { stepDataObject: data, isCompleted: input.isCompleted, isValid: missing.length === 0 }
  }

  /**
   * Sends the questionnaire (shell §4.6): every step must be valid; the steps are merged into the
   * user's custom data, the stored steps are cleared and the wizard is closed, in one transaction.
   */
  async send(userId: number): Promise<PersonalizationSent> {
    const { steps } = await this.personalization(userId)
    const purpose = steps.purpose.stepDataObject.purpose
    const missing = ONBOARDING_STEPS.flatMap((s) =>
      missingFields(s, steps[s].stepDataObject, purpose).map((field) => `${s}.${field}: This field is mandatory`),
    )
    if (missing.length > 0) throw badRequest(missing.join('; '))
    const merged = Object.assign({}, ...ONBOARDING_STEPS.map((s) => steps[s].stepDataObject)) as PersonalizationSent
    // A personal project has no company; a named role other than Other has no other role.
    if (merged.purpose !== 'Commercial') delete merged.companyName
    if (merged.role !== 'Other') delete merged.otherRole
    const now = Date.now()
    await this.db.transaction().execute(async (tx) => {
      const data = JSON.stringify(merged)
      await tx
        .insertInto('user_custom_data')
        .values({ user_id: userId, data, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ data, updated_at: now }))
        .execute()
      await tx.deleteFrom('onboarding_steps').where('user_id', '=', userId).execute()
      await tx
        .insertInto('user_local_storage')
        .values({ user_id: userId, key: WIZARD_CLOSED_KEY, value: 'true', updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value: 'true', updated_at: now }))
        .execute()
    })
    return merged
  }

  /**
   * The getting-started checklist, each step ticked from the instance's state: a repository
   * exists, a file was deployed to a local repository, a second user or an invitation exists, the
   * user holds an access token, the user has MFA on.
   */
  async gettingStarted(userId: number): Promise<GettingStarted> {
    const db = this.db
    const exists = async (query: { executeTakeFirst(): Promise<unknown> }) => (await query.executeTakeFirst()) !== undefined
    const [repository, pkg, teammate, invited, token, user] = await Promise.all([
      exists(db.selectFrom('repositories').select('key').limit(1)),
      exists(
        db
          .selectFrom('files')
          .innerJoin('repositories', 'repositories.key', 'files.repo_key')
          .select('files.path')
          .where('repositories.rclass', '=', 'local')
          .limit(1),
      ),
      exists(db.selectFrom('users').select('id').where('id', '!=', userId).limit(1)),
      exists(db.selectFrom('invitations').select('key_hash').limit(1)),
      exists(db.selectFrom('tokens').select('id').where('user_id', '=', userId).where('kind', '=', 'access').limit(1)),
      db.selectFrom('users').select('mfa_secret_encrypted').where('id', '=', userId).executeTakeFirst(),
    ])
    const done = { repository, package: pkg, teammate: teammate || invited, token, mfa: Boolean(user?.mfa_secret_encrypted) }
    return { steps: (Object.keys(done) as (keyof typeof done)[]).map((id) => ({ id, done: done[id] })) }
  }
}
