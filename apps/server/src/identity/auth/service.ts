import type { UserData } from '@trove/contracts/auth'
import { CREDENTIALS_EXPIRED } from '@trove/contracts/http'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import { HttpError } from '../../core/errors.js'
import { decoyHash, verifyPassword } from '../../core/passwords.js'
import type { Database } from '../../core/schema.js'
import { recordEvent } from '../access/audit.js'
import { findUserByName, type UserRow } from '../users/repo.js'
import { mfaStatusOf } from './mfa.js'
import { PASSWORD_EXPIRED, passwordExpired } from './passwordFlows.js'
import { createSession, type NewSession } from './sessions.js'
import { attemptSucceeded, delayFor, describeLock, lockMessage, reserveAttempt, ThrottlePolicy } from './throttle.js'

export const BAD_CREDENTIALS = 'Incorrect user name or password'
export const USER_DISABLED = 'This user is disabled; ask an administrator to enable it'

export const ANONYMOUS: UserData = { name: 'anonymous', realm: 'anonymous', admin: false, anonymous: true, mfaStatus: 'none' }

export function userData(principal: Principal | null): UserData {
  if (!principal) return ANONYMOUS
  return { name: principal.name, realm: principal.realm, admin: principal.admin, anonymous: false, mfaStatus: 'none' }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Checks a user name and password, with the throttle of throttle.ts: the attempt is counted first,
 * and one past a limit is refused (403) without the password being looked at; a failure is
 * answered after the throttle's delay, and a lock it starts is written to the audit log.
 * The same message answers an unknown user and a wrong password, and both cost one argon2
 * verification, so neither text nor timing tells whether the user exists.
 */
export async function verifyCredentials(
  db: Kysely<Database>,
  input: { user: string; password: string; ip: string | null; allowExpired?: boolean },
): Promise<UserRow> {
  const attempt = await reserveAttempt(db, input.user, input.ip)
  if (attempt.lockedUntil) throw new HttpError(403, lockMessage(attempt.lockedUntil))
  const user = await findUserByName(db, input.user)
  const ok = await verifyPassword(user?.password_hash ?? (await decoyHash()), input.password)
  if (!user?.password_hash || !ok) {
    for (const key of attempt.locked) {
      const lock = describeLock(key)
      await recordEvent(db, {
        actor: 'system',
        action: 'signin.locked',
        targetType: lock.targetType,
        targetName: lock.targetName,
        details: { scope: lock.scope, ip: input.ip, minutes: ThrottlePolicy.lockMs / 60_000 },
      })
    }
    await sleep(delayFor(attempt))
    throw new HttpError(401, BAD_CREDENTIALS)
  }
  if (user.disabled) throw new HttpError(403, USER_DISABLED)
  await attemptSucceeded(db, input.user, input.ip)
  if (!input.allowExpired && (await passwordExpired(db, user))) throw new HttpError(403, PASSWORD_EXPIRED, CREDENTIALS_EXPIRED)
  return user
}

export function toUserData(user: UserRow): UserData {
  return { name: user.name, realm: user.realm, admin: Boolean(user.admin), anonymous: false, mfaStatus: 'none' }
}

/** Checks a user name and password and opens a session (pending when a one-time code must follow). */
export async function signIn(
  db: Kysely<Database>,
  input: { user: string; password: string; rememberMe: boolean; ip: string | null; userAgent: string | null },
): Promise<{ session: NewSession; user: UserData }> {
  const user = await verifyCredentials(db, input)
  const mfaStatus = await mfaStatusOf(db, user)
  // With MFA to enroll or verify, the session stays pending until a code is confirmed.
  const session = await createSession(db, {
    userId: user.id,
    rememberMe: input.rememberMe,
    ip: input.ip,
    userAgent: input.userAgent,
    mfaPending: mfaStatus !== 'none',
  })
  return { session, user: { ...toUserData(user), mfaStatus } }
}
