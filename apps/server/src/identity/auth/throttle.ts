import crypto from 'node:crypto'
import ipaddr from 'ipaddr.js'
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { HttpError } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'

/**
 * Guessing a password is limited by attempts reserved before the password is looked at: each
 * attempt first takes a slot of each of its counters in one statement that increments and returns
 * the count, so of any number of attempts in flight at once, at most the limit are checked. The
 * counters (a window of 15 minutes each):
 *
 * - the name from one address (`pair`): 5 attempts, then that address is locked out of that name
 *   for 5 minutes, even against the right password;
 * - the address (`ip`, an IPv6 client by its /64): 20 attempts over any names;
 * - the name alone (`user`): 100 attempts from anywhere. Much higher than the pair's limit, so
 *   someone who guesses from one place cannot lock the owner out from theirs; reached only by a
 *   guess spread over many addresses.
 *
 * A success clears the name's count from its address and gives its other slots back. A lock ends by
 * itself, by a password reset from the mail link, or by an administrator (lockRoutes.ts); a locked
 * user can still sign in by single sign-on, which never guesses a password. From an attempt's
 * third slot on, a failure answers later (250 ms, 500 ms, 1 s, … up to 4 s). Unknown names count
 * like known ones, so the answers do not tell which users exist. The counts live in the database,
 * so every node of a cluster enforces the same limits.
 */
export const ThrottlePolicy = {
  windowMs: 15 * 60_000,
  lockMs: 5 * 60_000,
  pairLockAfter: 5,
  addressLockAfter: 20,
  userLockAfter: 100,
  delayAfter: 2,
  baseDelayMs: 250,
  maxDelayMs: 4000,
}

/**
 * A name as it goes into a key: lower-cased, and a long one (any caller may send any name) by its
 * sha256, so every key fits the column and a name's keys stay one prefix.
 */
const lower = (name: string) => {
  const folded = name.toLowerCase()
  return folded.length > 128 ? `sha256-${crypto.createHash('sha256').update(folded).digest('hex')}` : folded
}
export const userKey = (name: string) => `user:${lower(name)}`
/** Every `pair:` key of a name starts with this. */
const pairPrefix = (name: string) => `pair:${lower(name)}\n`
export const pairKey = (name: string, ip: string) => `${pairPrefix(name)}${clientOf(ip)}`
export const addressKey = (ip: string) => `ip:${clientOf(ip)}`

/**
 * The client an address stands for: an IPv4 address (also when written IPv4-mapped), or an IPv6
 * client's /64 — one host gets a whole /64 and can pick any address in it.
 */
export function clientOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const parsed = ipaddr.process(ip)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4)
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`
}

/** How long until a lock ends, in whole minutes for people: `1 minute`, `5 minutes`. */
function minutesUntil(until: number, now: number): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000))
  return `${minutes} minute${minutes === 1 ? '' : 's'}`
}

export function lockMessage(until: number, now = Date.now()): string {
  return `Too many failed sign-in attempts: try again in ${minutesUntil(until, now)}`
}

export interface Reservation {
  /** The attempt's count from where it comes (the pair's; the name's without an address): sets the delay. */
  failures: number
  /** Set when a counter was already past its limit: the attempt must not be checked. */
  lockedUntil: number | null
  /** The counters this attempt took the last slot of: locked if it fails. */
  locked: string[]
}

/**
 * Takes one slot of a counter; answers the count and the lock, in one statement. A window that
 * ended, or a lock that ran out, starts the count again. The lock is set by the attempt that takes
 * the last slot, so the attempts refused after it do not make it longer.
 */
async function reserve(db: Kysely<Database>, key: string, limit: number, now: number) {
  const stale = sql<boolean>`(signin_failures.first_failure_at <= ${now - ThrottlePolicy.windowMs} or (signin_failures.locked_until is not null and signin_failures.locked_until <= ${now}))`
  const row = await db
    .insertInto('signin_failures')
    .values({ key, failures: 1, first_failure_at: now, locked_until: limit === 1 ? now + ThrottlePolicy.lockMs : null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when ${stale} then 1 else signin_failures.failures + 1 end`,
        first_failure_at: sql`case when ${stale} then ${now} else signin_failures.first_failure_at end`,
        locked_until: sql`case when ${stale} then null when signin_failures.failures + 1 = ${limit} then ${now + ThrottlePolicy.lockMs} else signin_failures.locked_until end`,
      }),
    )
    .returning(['failures', 'locked_until'])
    .executeTakeFirstOrThrow()
  return { failures: Number(row.failures), lockedUntil: row.locked_until === null ? null : Number(row.locked_until) }
}

/**
 * The counters of one attempt at a name's password, from an address (null: not known), in the
 * order they are taken: a counter past its limit stops the attempt before the next is touched, so
 * guesses refused for one address never count against the name everywhere.
 */
function countersOf(user: string, ip: string | null): { key: string; limit: number }[] {
  if (!ip) return [{ key: userKey(user), limit: ThrottlePolicy.userLockAfter }]
  return [
    { key: pairKey(user, ip), limit: ThrottlePolicy.pairLockAfter },
    { key: addressKey(ip), limit: ThrottlePolicy.addressLockAfter },
    { key: userKey(user), limit: ThrottlePolicy.userLockAfter },
  ]
}

/**
 * Reserves an attempt at a user's password before it is verified. When a counter is past its
 * limit, `lockedUntil` says until when, and the password must not be looked at.
 */
export async function reserveAttempt(
  db: Kysely<Database>,
  user: string,
  ip: string | null,
  now = Date.now(),
): Promise<Reservation> {
  const locked: string[] = []
  let failures = 0
  for (const [i, { key, limit }] of countersOf(user, ip).entries()) {
    const counted = await reserve(db, key, limit, now)
    if (i === 0) failures = counted.failures
    if (counted.failures > limit) {
      return { failures, lockedUntil: counted.lockedUntil ?? now + ThrottlePolicy.lockMs, locked: [] }
    }
    if (counted.failures === limit) locked.push(key)
  }
  return { failures, lockedUntil: null, locked }
}

/** How long to hold back the answer to a failure, by the attempt's count. */
export function delayFor(reservation: Reservation): number {
  if (reservation.failures <= ThrottlePolicy.delayAfter) return 0
  return Math.min(
    ThrottlePolicy.baseDelayMs * 2 ** (reservation.failures - ThrottlePolicy.delayAfter - 1),
    ThrottlePolicy.maxDelayMs,
  )
}

/**
 * A success: the name's count from this address goes; the address and the name alone get their
 * slot back (a success elsewhere does not lift another address's lock, nor the count of a guess
 * spread over many addresses).
 */
export async function attemptSucceeded(db: Kysely<Database>, user: string, ip: string | null): Promise<void> {
  if (ip) await db.deleteFrom('signin_failures').where('key', '=', pairKey(user, ip)).execute()
  await giveBack(db, userKey(user), ThrottlePolicy.userLockAfter)
  if (ip) await giveBack(db, addressKey(ip), ThrottlePolicy.addressLockAfter)
}

/**
 * The keys of a name: its own, and its pair with every address. Matched by prefix with `substr`,
 * not by a range: a collation that ignores control characters (PostgreSQL under most locales)
 * would sort the separator away.
 */
function keysOfName(eb: ExpressionBuilder<Database, 'signin_failures'>, user: string) {
  const prefix = pairPrefix(user)
  return eb.or([eb('key', '=', userKey(user)), eb(sql`substr(key, 1, ${prefix.length})`, '=', prefix)])
}

/** Ends every lock and count of a name (from every address): a password reset, an administrator. */
export async function clearUser(db: Kysely<Database>, user: string): Promise<void> {
  await db
    .deleteFrom('signin_failures')
    .where((eb) => keysOfName(eb, user))
    .execute()
}

/** The latest lock on a name, from any address, or null: what the Users screen shows. */
export async function userLockedUntil(db: Kysely<Database>, user: string, now = Date.now()): Promise<number | null> {
  const rows = await db
    .selectFrom('signin_failures')
    .select('locked_until')
    .where((eb) => keysOfName(eb, user))
    .execute()
  const until = Math.max(0, ...rows.map((r) => Number(r.locked_until ?? 0)))
  return until > now ? until : null
}

/** Describes a counter's key for the audit log: which name, from where. */
export function describeLock(key: string): { targetType: 'user' | 'security'; targetName: string; scope: string } {
  if (key.startsWith('pair:')) {
    const [name, client] = key.slice('pair:'.length).split('\n')
    return { targetType: 'user', targetName: name ?? '', scope: `from ${client}` }
  }
  if (key.startsWith('user:')) return { targetType: 'user', targetName: key.slice('user:'.length), scope: 'from every address' }
  return { targetType: 'security', targetName: key.slice('ip:'.length), scope: 'address' }
}

/**
 * Single-use secrets a caller presents (a reset link's key, an invitation, a command-line
 * session, a refresh token): long random values nobody guesses, but a script may try. Each try
 * takes a slot of its address's counter before the secret is looked up; a right one gives it back.
 * Past the limit the address is refused for the lock's time, whatever it sends.
 */
export const SECRET_GUESS_LIMIT = 30
export const secretKey = (ip: string) => `secret:${clientOf(ip)}`
export const SECRET_LOCKED = 'Too many wrong links, codes or tokens from this address: try again in {minutes}'

export async function guardSecret<T>(
  db: Kysely<Database>,
  ip: string | null,
  check: () => Promise<T>,
  /** Which refusals mean the secret was wrong (the rest give the slot back): any 4xx by default. */
  wrong: (error: HttpError) => boolean = (error) => error.status < 500,
  now = Date.now(),
): Promise<T> {
  if (!ip) return check()
  const key = secretKey(ip)
  const counted = await reserve(db, key, SECRET_GUESS_LIMIT, now)
  if (counted.failures > SECRET_GUESS_LIMIT) {
    throw new HttpError(
      403,
      SECRET_LOCKED.replace('{minutes}', minutesUntil(counted.lockedUntil ?? now + ThrottlePolicy.lockMs, now)),
    )
  }
  let result: T
  try {
    result = await check()
  } catch (error) {
    // A wrong secret keeps its slot; anything else (the database away) gives it back.
    if (!(error instanceof HttpError && wrong(error))) await giveBack(db, key, SECRET_GUESS_LIMIT)
    throw error
  }
  await giveBack(db, key, SECRET_GUESS_LIMIT)
  return result
}

async function giveBack(db: Kysely<Database>, key: string, limit: number): Promise<void> {
  await db
    .updateTable('signin_failures')
    .set({
      failures: sql`case when failures > 0 then failures - 1 else 0 end`,
      locked_until: sql`case when failures - 1 < ${limit} then null else locked_until end`,
    })
    .where('key', '=', key)
    .execute()
}

/**
 * One-time codes of a user, over every pending sign-in: 5 per pending sign-in, and 10 per user
 * within the window, so someone who has the password cannot start sign-in after sign-in to guess
 * on. Taken before the code is checked; a right code gives its slot back.
 */
export const OTP_USER_LIMIT = 10
const otpKey = (userId: number) => `otp:${userId}`

/** Takes a user's code slot; false when none is left. */
export async function reserveOtp(db: Kysely<Database>, userId: number, now = Date.now()): Promise<boolean> {
  return (await reserve(db, otpKey(userId), OTP_USER_LIMIT, now)).failures <= OTP_USER_LIMIT
}

export async function otpSucceeded(db: Kysely<Database>, userId: number): Promise<void> {
  await db.deleteFrom('signin_failures').where('key', '=', otpKey(userId)).execute()
}
