import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import { HttpError } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import { findUserById, type UserRow } from '../users/repo.js'

/** How recent a single sign-on must be to stand in for "enter your password again". */
export const SSO_REAUTH_WINDOW_MS = 15 * 60 * 1000
export const SSO_REAUTH_REQUIRED =
  'You signed in through your provider more than 15 minutes ago: sign out and in again to do this'

/**
 * Users of an OAuth or SAML realm have no Trove password to enter again. For them a fresh sign-in
 * at their provider (a session opened in the last 15 minutes) counts instead. Answers the user when
 * that applies, null for users with a password (they re-enter it as usual), and refuses a
 * passwordless user whose sign-in is older.
 */
export async function passwordlessReauth(db: Kysely<Database>, principal: Principal, now = Date.now()): Promise<UserRow | null> {
  const user = await findUserById(db, principal.userId)
  if (!user || user.password_hash !== null) return null
  if (principal.via !== 'session' || !principal.sessionId) throw new HttpError(401, SSO_REAUTH_REQUIRED)
  const session = await db.selectFrom('sessions').select('created_at').where('id', '=', principal.sessionId).executeTakeFirst()
  if (!session || now - session.created_at > SSO_REAUTH_WINDOW_MS) throw new HttpError(401, SSO_REAUTH_REQUIRED)
  return user
}
