import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'

/**
 * Failed sign-ins are counted per user name and per address within a window. From the third
 * failure on, each further failure answers later (250 ms, 500 ms, 1 s, … up to 4 s); the fifth for
 * a user name, or the twentieth from one address, locks it for five minutes, even against the
 * right password. A success clears the user name's count. Counting unknown user names the same way
 * keeps the answers from telling which users exist. The counts live in the database, so every node
 * of a cluster enforces the same limits.
 */
export const ThrottlePolicy = {
  windowMs: 15 * 60_000,
  lockMs: 5 * 60_000,
  userLockAfter: 5,
  addressLockAfter: 20,
  delayAfter: 2,
  baseDelayMs: 250,
  maxDelayMs: 4000,
}

export const userKey = (name: string) => `user:${name.toLowerCase()}`
export const addressKey = (ip: string) => `ip:${ip}`

export function lockMessage(until: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000))
  return `Too many failed sign-in attempts: try again in ${minutes} minute${minutes === 1 ? '' : 's'}`
}

/** The latest time any of these keys is locked until, or null when none is locked. */
export async function lockedUntil(db: Kysely<Database>, keys: string[], now = Date.now()): Promise<number | null> {
  const rows = await db.selectFrom('signin_failures').select('locked_until').where('key', 'in', keys).execute()
  const until = Math.max(0, ...rows.map((r) => r.locked_until ?? 0))
  return until > now ? until : null
}

/** Counts one failure for a key; answers the count in the current window. */
async function countFailure(db: Kysely<Database>, key: string, lockAfter: number, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('signin_failures').selectAll().where('key', '=', key).executeTakeFirst()
    const fresh = !row || now - row.first_failure_at > ThrottlePolicy.windowMs
    const failures = fresh ? 1 : row.failures + 1
    const locked_until = failures >= lockAfter ? now + ThrottlePolicy.lockMs : null
    await trx
      .insertInto('signin_failures')
      .values({ key, failures, first_failure_at: now, locked_until })
      .onConflict((oc) => oc.column('key').doUpdateSet({ failures, locked_until, ...(fresh ? { first_failure_at: now } : {}) }))
      .execute()
    return failures
  })
}

/** Records a failed sign-in; answers how long to hold the answer back. */
export async function recordFailure(db: Kysely<Database>, user: string, ip: string | null, now = Date.now()): Promise<number> {
  const failures = await countFailure(db, userKey(user), ThrottlePolicy.userLockAfter, now)
  if (ip) await countFailure(db, addressKey(ip), ThrottlePolicy.addressLockAfter, now)
  if (failures <= ThrottlePolicy.delayAfter) return 0
  return Math.min(ThrottlePolicy.baseDelayMs * 2 ** (failures - ThrottlePolicy.delayAfter - 1), ThrottlePolicy.maxDelayMs)
}

export async function clearFailures(db: Kysely<Database>, user: string): Promise<void> {
  await db.deleteFrom('signin_failures').where('key', '=', userKey(user)).execute()
}
