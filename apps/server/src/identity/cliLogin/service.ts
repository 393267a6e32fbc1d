import crypto from 'node:crypto'
import type { CliTokens } from '@trove/contracts/cli'
import type { Kysely } from 'kysely'
import { conflict, HttpError, notFound } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { deleteTokenById, findLiveToken, insertToken, newSecret } from '../users/tokenRepo.js'

/** How long a client waits for the browser to approve. */
export const CLI_LOGIN_TTL_MS = 5 * 60_000
export const ACCESS_TTL_S = 30 * 24 * 60 * 60
export const REFRESH_TTL_S = 90 * 24 * 60 * 60
export const UNKNOWN_CLI_LOGIN = 'This command-line sign-in is unknown or has expired: run the login command again'
export const NOT_APPROVED_YET = 'Waiting for the sign-in to be approved in the browser'
export const INVALID_REFRESH = 'The refresh token is not valid'

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

export async function openCliLogin(db: Kysely<Database>, session: string, now = Date.now()): Promise<void> {
  await db.deleteFrom('cli_logins').where('expires_at', '<=', now).execute()
  const existing = await db
    .selectFrom('cli_logins')
    .select('session_hash')
    .where('session_hash', '=', sha256(session))
    .executeTakeFirst()
  if (existing) throw conflict('This session id is already waiting: make a new one')
  await db
    .insertInto('cli_logins')
    .values({
      session_hash: sha256(session),
      created_at: now,
      expires_at: now + CLI_LOGIN_TTL_MS,
      approved_by: null,
      tokens_sealed: null,
    })
    .execute()
}

/** A fresh access token and refresh token for a user, for a client that signs in on its own behalf. */
export async function issueClientTokens(db: Kysely<Database>, userId: number, description: string): Promise<CliTokens> {
  const access = newSecret('access')
  const refresh = newSecret('refresh')
  const now = Date.now()
  await insertToken(db, {
    userId,
    kind: 'access',
    secret: access,
    encrypted: null,
    description,
    expiresAt: now + ACCESS_TTL_S * 1000,
  })
  await insertToken(db, {
    userId,
    kind: 'refresh',
    secret: refresh,
    encrypted: null,
    description,
    expiresAt: now + REFRESH_TTL_S * 1000,
  })
  return { access_token: access, refresh_token: refresh, expires_in: ACCESS_TTL_S, token_type: 'Bearer' }
}

/** The signed-in user approves the waiting client: its tokens are made and kept sealed for it. */
export async function approveCliLogin(
  db: Kysely<Database>,
  box: SecretBox,
  session: string,
  user: { id: number; name: string },
  now = Date.now(),
): Promise<void> {
  const row = await db.selectFrom('cli_logins').selectAll().where('session_hash', '=', sha256(session)).executeTakeFirst()
  if (!row || row.expires_at <= now || row.approved_by !== null) throw notFound(UNKNOWN_CLI_LOGIN)
  const tokens = await issueClientTokens(db, user.id, `command-line sign-in of ${user.name}`)
  await db
    .updateTable('cli_logins')
    .set({ approved_by: user.id, tokens_sealed: box.seal(JSON.stringify(tokens)) })
    .where('session_hash', '=', row.session_hash)
    .execute()
}

/** The client collects its tokens once: 400 while waiting, then the tokens, then nothing. */
export async function collectCliTokens(
  db: Kysely<Database>,
  box: SecretBox,
  session: string,
  now = Date.now(),
): Promise<CliTokens> {
  const row = await db.selectFrom('cli_logins').selectAll().where('session_hash', '=', sha256(session)).executeTakeFirst()
  if (!row || row.expires_at <= now) throw notFound(UNKNOWN_CLI_LOGIN)
  if (!row.tokens_sealed) throw new HttpError(400, NOT_APPROVED_YET)
  const taken = await db.deleteFrom('cli_logins').where('session_hash', '=', row.session_hash).executeTakeFirst()
  if (Number(taken.numDeletedRows) !== 1) throw notFound(UNKNOWN_CLI_LOGIN)
  return JSON.parse(box.open(row.tokens_sealed)) as CliTokens
}

/** Trades a refresh token for a new pair; the old refresh token stops working. */
export async function refreshTokens(db: Kysely<Database>, refreshToken: string): Promise<CliTokens> {
  const row = await findLiveToken(db, refreshToken, Date.now(), ['refresh'])
  if (!row || row.disabled) throw new HttpError(401, INVALID_REFRESH)
  await deleteTokenById(db, row.id)
  return issueClientTokens(db, row.user_id, `refreshed for ${row.name}`)
}
