import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import type { Database } from '../../core/schema.js'

/** A browser-session sign-in lasts this long on the server even if the browser stays open. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000
/** Remember-me sign-ins last this long (the default of the sign-in issue: 14 days). */
export const REMEMBER_ME_TTL_MS = 14 * 24 * 60 * 60 * 1000

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

export interface NewSession {
  /** The secret for the cookie; only its hash is stored. */
  token: string
  csrfToken: string
  expiresAt: number
}

export async function createSession(
  db: Kysely<Database>,
  input: { userId: number; rememberMe: boolean; ip: string | null; userAgent: string | null; mfaPending?: boolean },
): Promise<NewSession> {
  const token = crypto.randomBytes(32).toString('base64url')
  const csrfToken = crypto.randomBytes(24).toString('base64url')
  const now = Date.now()
  const expiresAt = now + (input.rememberMe ? REMEMBER_ME_TTL_MS : SESSION_TTL_MS)
  await db
    .insertInto('sessions')
    .values({
      id: sha256(token),
      user_id: input.userId,
      csrf_token: csrfToken,
      remember_me: input.rememberMe ? 1 : 0,
      created_at: now,
      expires_at: expiresAt,
      last_seen_at: now,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
      mfa_pending: input.mfaPending ? 1 : 0,
    })
    .execute()
  return { token, csrfToken, expiresAt }
}

/** The signed-in principal behind a cookie token and when its session ends, or null if the session is unknown, expired or its user disabled. */
export async function findSessionPrincipal(
  db: Kysely<Database>,
  token: string,
): Promise<{ principal: Principal; expiresAt: number } | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.csrf_token',
      'sessions.expires_at',
      'users.id as user_id',
      'users.name',
      'users.admin',
      'users.realm',
      'users.disabled',
    ])
    .where('sessions.id', '=', sha256(token))
    // A sign-in still waiting for its one-time code grants nothing.
    .where('sessions.mfa_pending', '=', 0)
    .executeTakeFirst()
  if (!row || row.expires_at <= Date.now() || row.disabled) return null
  return {
    principal: {
      userId: row.user_id,
      name: row.name,
      admin: Boolean(row.admin),
      realm: row.realm,
      via: 'session',
      sessionId: row.id,
      csrfToken: row.csrf_token,
    },
    expiresAt: row.expires_at,
  }
}

export async function deleteSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute()
}

export async function deleteExpiredSessions(db: Kysely<Database>): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', Date.now()).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** A sign-in that passed the password and waits for its one-time code. */
export interface PendingSession {
  sessionId: string
  userId: number
  csrfToken: string
  failures: number
}

/** The pending (password passed, code not yet) session behind a cookie token, if live. */
export async function findPendingSession(db: Kysely<Database>, token: string): Promise<PendingSession | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'csrf_token', 'mfa_failures', 'expires_at'])
    .where('id', '=', sha256(token))
    .where('mfa_pending', '=', 1)
    .executeTakeFirst()
  if (!row || row.expires_at <= Date.now()) return null
  return { sessionId: row.id, userId: row.user_id, csrfToken: row.csrf_token, failures: row.mfa_failures }
}

/** The code was right: the session becomes a full one. */
export async function completeSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ mfa_pending: 0, mfa_failures: 0 }).where('id', '=', sessionId).execute()
}

/**
 * Takes one of a pending sign-in's code attempts before the code is checked, in one statement:
 * of any number sent at once, at most `max` are checked. Answers the attempt's number, or null
 * when none is left.
 */
export async function reserveMfaAttempt(db: Kysely<Database>, sessionId: string, max: number): Promise<number | null> {
  const row = await db
    .updateTable('sessions')
    .set((eb) => ({ mfa_failures: eb('mfa_failures', '+', 1) }))
    .where('id', '=', sessionId)
    .where('mfa_failures', '<', max)
    .returning('mfa_failures')
    .executeTakeFirst()
  return row ? Number(row.mfa_failures) : null
}

/** Ends whatever session a cookie token names, full or pending. */
export async function deleteSessionByToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sha256(token)).execute()
}
