import crypto from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database, TokenKind, TokensTable } from '../../core/schema.js'

export type TokenRow = Selectable<TokensTable>

const PREFIX: Record<TokenKind, string> = { access: 'trove_at_', api_key: 'trove_ak_', refresh: 'trove_rt_' }

/** Secrets look like `trove_at_<43 chars>`: recognisable in a leak scan, and never confused with a password. */
export const TOKEN_PATTERN = /^trove_(at|ak)_[A-Za-z0-9_-]{43}$/

/** One-shot sha256 (no Hash object): it runs on every request that carries a token. */
export const hashSecret = (secret: string) => crypto.hash('sha256', secret, 'hex')

export function newSecret(kind: TokenKind): string {
  return `${PREFIX[kind]}${crypto.randomBytes(32).toString('base64url')}`
}

export async function insertToken(
  db: Kysely<Database>,
  token: {
    userId: number
    kind: TokenKind
    secret: string
    encrypted: string | null
    description: string | null
    expiresAt: number | null
    scope?: TokenRow['scope']
  },
): Promise<TokenRow> {
  const row: TokenRow = {
    id: `tk_${crypto.randomBytes(8).toString('hex')}`,
    user_id: token.userId,
    kind: token.kind,
    secret_hash: hashSecret(token.secret),
    secret_encrypted: token.encrypted,
    description: token.description,
    created_at: Date.now(),
    expires_at: token.expiresAt,
    last_used_at: null,
    scope: token.scope ?? 'full',
  }
  await db.insertInto('tokens').values(row).execute()
  return row
}

/** The live token behind a secret, with its owner, or undefined. Refresh tokens are found only when asked for. */
export function findLiveToken(
  db: Kysely<Database>,
  secret: string,
  now = Date.now(),
  kinds: TokenKind[] = ['access', 'api_key'],
) {
  return db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select([
      'tokens.id',
      'tokens.kind',
      'tokens.expires_at',
      'tokens.last_used_at',
      'tokens.scope',
      'users.id as user_id',
      'users.name',
      'users.admin',
      'users.realm',
      'users.disabled',
    ])
    .where('tokens.secret_hash', '=', hashSecret(secret))
    .where('tokens.kind', 'in', kinds)
    .where((eb) => eb.or([eb('tokens.expires_at', 'is', null), eb('tokens.expires_at', '>', now)]))
    .executeTakeFirst()
}

export async function touchToken(db: Kysely<Database>, id: string, now = Date.now()): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: now }).where('id', '=', id).execute()
}

export function listTokens(db: Kysely<Database>, userId: number, kind: TokenKind): Promise<TokenRow[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .execute()
}

export async function deleteTokens(
  db: Kysely<Database>,
  where: { userId: number; kind: TokenKind; id?: string },
): Promise<number> {
  let query = db.deleteFrom('tokens').where('user_id', '=', where.userId).where('kind', '=', where.kind)
  if (where.id) query = query.where('id', '=', where.id)
  const result = await query.executeTakeFirst()
  return Number(result.numDeletedRows)
}

export async function deleteTokenById(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', id).execute()
}
