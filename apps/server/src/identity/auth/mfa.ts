import type { MfaStatus } from '@trove/contracts/auth'
import type { Kysely } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import { HttpError } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { getSetting, MFA_REQUIRED_SETTING } from '../../core/settings.js'
import type { UserRow } from '../users/repo.js'

export const MFA_PERIOD_S = 30
/** Wrong codes allowed for one pending sign-in before it has to start again. */
export const MFA_MAX_FAILURES = 5
export const INVALID_CODE = 'The one-time code is not valid'
export const SIGN_IN_AGAIN = 'Sign in again to enter a one-time code'
export const TOO_MANY_CODES = 'Too many wrong one-time codes: sign in again'
const ISSUER = 'Trove'

const totp = (base32: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: MFA_PERIOD_S, secret: Secret.fromBase32(base32) })

/** What a user must do after the password: enroll (MFA required, none set up), verify, or nothing. */
export async function mfaStatusOf(db: Kysely<Database>, user: UserRow): Promise<MfaStatus> {
  if (user.mfa_secret_encrypted) return 'verify'
  const required = Boolean(user.mfa_required) || (await getSetting(db, MFA_REQUIRED_SETTING, false))
  return required ? 'enroll' : 'none'
}

export interface Enrollment {
  secret: string
  otpauthUrl: string
  /** A PNG data URL of the otpauth URL, for any authenticator app's camera. */
  qrCode: string
}

/** Starts (or restarts) enrolment: a new secret, kept aside until a code from it is confirmed. */
export async function startEnrollment(db: Kysely<Database>, box: SecretBox, user: UserRow): Promise<Enrollment> {
  const secret = new Secret({ size: 20 }).base32
  await db
    .updateTable('users')
    .set({ mfa_enroll_secret_encrypted: box.seal(secret) })
    .where('id', '=', user.id)
    .execute()
  const otpauthUrl = totp(secret, user.name).toString()
  // Loaded on first enrolment, not at start-up (~70 ms of imports).
  const { default: QRCode } = await import('qrcode')
  return { secret, otpauthUrl, qrCode: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 200 }) }
}

/**
 * Checks a code against a secret with a window of one step either side. A step already used by
 * this user is refused, so a code cannot be replayed. Answers the accepted step, or null.
 */
function acceptedStep(base32: string, user: UserRow, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totp(base32, user.name).validate({ token: code, timestamp: now, window: 1 })
  if (delta === null) return null
  const step = Math.floor(now / 1000 / MFA_PERIOD_S) + delta
  return user.mfa_last_step !== null && step <= user.mfa_last_step ? null : step
}

/** Confirms enrolment with a code from the new secret: the secret becomes the user's. */
export async function confirmEnrollment(
  db: Kysely<Database>,
  box: SecretBox,
  user: UserRow,
  code: string,
  now = Date.now(),
): Promise<boolean> {
  if (!user.mfa_enroll_secret_encrypted) throw new HttpError(409, 'Start the enrolment first')
  const step = acceptedStep(box.open(user.mfa_enroll_secret_encrypted), user, code, now)
  if (step === null) return false
  await db
    .updateTable('users')
    .set({ mfa_secret_encrypted: user.mfa_enroll_secret_encrypted, mfa_enroll_secret_encrypted: null, mfa_last_step: step })
    .where('id', '=', user.id)
    .execute()
  return true
}

/** Checks a code against the user's secret and marks its step used. */
export async function verifyCode(
  db: Kysely<Database>,
  box: SecretBox,
  user: UserRow,
  code: string,
  now = Date.now(),
): Promise<boolean> {
  if (!user.mfa_secret_encrypted) return false
  const step = acceptedStep(box.open(user.mfa_secret_encrypted), user, code, now)
  if (step === null) return false
  // Only move forward: two requests racing with the same code cannot both pass.
  const result = await db
    .updateTable('users')
    .set({ mfa_last_step: step })
    .where('id', '=', user.id)
    .where((eb) => eb.or([eb('mfa_last_step', 'is', null), eb('mfa_last_step', '<', step)]))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
