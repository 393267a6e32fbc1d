import crypto from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import { HttpError } from '../../core/errors.js'
import { mailBaseUrl, sendMail } from '../../core/mail.js'
import { hashPassword } from '../../core/passwords.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { getSetting } from '../../core/settings.js'
import { findUserById, findUserByName, setPassword, type UserRow } from '../users/repo.js'
import { clearUser } from './throttle.js'

export const RESET_LINK_LIFETIME_MS = 60 * 60 * 1000
export const INVALID_LINK = 'This link is not valid: it was used, has expired, or never existed'
export const PASSWORD_EXPIRED = 'Your password has expired: choose a new one'
export const PASSWORD_EXPIRY_SETTING = 'security.passwordExpiryDays'

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

/** True when the policy says this user's password is too old. */
export async function passwordExpired(db: Kysely<Database>, user: UserRow, now = Date.now()): Promise<boolean> {
  const days = await getSetting(db, PASSWORD_EXPIRY_SETTING, 0)
  if (!days || user.password_changed_at === null) return false
  return now - user.password_changed_at > days * 24 * 60 * 60 * 1000
}

/**
 * Mails a single-use reset link valid for an hour. Answers the same whether or not the user exists
 * or has an address, so it cannot be used to find users; what happened goes to the log.
 */
export async function requestPasswordReset(
  db: Kysely<Database>,
  box: SecretBox,
  log: FastifyBaseLogger,
  input: { user: string; fallbackBaseUrl: string | undefined },
): Promise<void> {
  const user = await findUserByName(db, input.user)
  if (!user?.email || user.disabled) {
    log.info({ user: input.user }, 'password reset asked for a user without an address: no mail')
    return
  }
  const key = crypto.randomBytes(32).toString('base64url')
  const now = Date.now()
  await db
    .insertInto('mail_tokens')
    .values({
      key_hash: sha256(key),
      user_id: user.id,
      purpose: 'reset',
      created_at: now,
      expires_at: now + RESET_LINK_LIFETIME_MS,
      used_at: null,
    })
    .execute()
  const base = (await mailBaseUrl(db, input.fallbackBaseUrl)) ?? ''
  const link = `${base}/ui/login/reset-password?key=${key}`
  await sendMail(db, box, {
    to: user.email,
    subject: 'Reset your Trove password',
    text: `Someone asked to reset the password of ${user.name} on Trove.\n\nTo choose a new password, open this link within an hour:\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
  })
  log.info({ user: user.name }, 'password reset mail sent')
}

/** The user a live reset key belongs to. */
export async function userOfResetKey(db: Kysely<Database>, key: string, now = Date.now()): Promise<UserRow> {
  const row = await db
    .selectFrom('mail_tokens')
    .selectAll()
    .where('key_hash', '=', sha256(key))
    .where('purpose', '=', 'reset')
    .executeTakeFirst()
  if (!row || row.used_at !== null || row.expires_at <= now) throw new HttpError(400, INVALID_LINK)
  const user = await findUserById(db, row.user_id)
  if (!user || user.disabled) throw new HttpError(400, INVALID_LINK)
  return user
}

/** Sets a new password through a reset key, which is then spent. */
export async function resetPassword(
  db: Kysely<Database>,
  input: { key: string; user: string; password: string },
): Promise<UserRow> {
  const user = await userOfResetKey(db, input.key)
  if (user.name.toLowerCase() !== input.user.toLowerCase()) throw new HttpError(400, INVALID_LINK)
  const hash = await hashPassword(input.password)
  await db.transaction().execute(async (trx) => {
    // Spend the key first, guarded, so two racing resets cannot both pass.
    const spent = await trx
      .updateTable('mail_tokens')
      .set({ used_at: Date.now() })
      .where('key_hash', '=', sha256(input.key))
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (Number(spent.numUpdatedRows) !== 1) throw new HttpError(400, INVALID_LINK)
    await setPassword(trx, user.id, hash)
    // A new password ends every session opened with the old one, every other reset link, and
    // any sign-in lock on the name: the mail proved the owner.
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute()
    await spendResetLinks(trx, user.id)
    await clearUser(trx, user.name)
  })
  return user
}

/** Changes a password given the current one (also the way out of an expired password). */
export async function changePassword(
  db: Kysely<Database>,
  user: UserRow,
  input: { newPassword: string; keepSessionId?: string | undefined },
): Promise<void> {
  const hash = await hashPassword(input.newPassword)
  await db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, hash)
    let ended = trx.deleteFrom('sessions').where('user_id', '=', user.id)
    if (input.keepSessionId) ended = ended.where('id', '!=', input.keepSessionId)
    await ended.execute()
    await spendResetLinks(trx, user.id)
  })
}

/** A reset link mailed before the password changed no longer works after it. */
async function spendResetLinks(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('mail_tokens')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('purpose', '=', 'reset')
    .where('used_at', 'is', null)
    .execute()
}
