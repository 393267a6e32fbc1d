import crypto from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database, OAuthProvidersTable } from '../../core/schema.js'

export type ProviderRow = Selectable<OAuthProvidersTable>

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex')

export function listProviders(db: Kysely<Database>): Promise<ProviderRow[]> {
  return db.selectFrom('oauth_providers').selectAll().orderBy('name').execute()
}

export function findProvider(db: Kysely<Database>, name: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('oauth_providers').selectAll().where('name', '=', name).executeTakeFirst()
}

export function findProviderById(db: Kysely<Database>, id: number): Promise<ProviderRow | undefined> {
  return db.selectFrom('oauth_providers').selectAll().where('id', '=', id).executeTakeFirst()
}

export interface ProviderValues {
  name: string
  type: string
  issuer_url: string
  client_id: string
  client_secret_sealed: string
  icon: string | null
  enabled: number
  auto_create_users: number
  default_groups: string
}

export async function insertProvider(db: Kysely<Database>, values: ProviderValues): Promise<void> {
  const now = Date.now()
  await db
    .insertInto('oauth_providers')
    .values({ ...values, created_at: now, updated_at: now })
    .execute()
}

export async function updateProvider(db: Kysely<Database>, id: number, values: ProviderValues): Promise<void> {
  await db
    .updateTable('oauth_providers')
    .set({ ...values, updated_at: Date.now() })
    .where('id', '=', id)
    .execute()
}

export async function deleteProvider(db: Kysely<Database>, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sso_states').where('provider_id', '=', id).execute()
    await trx.deleteFrom('oauth_providers').where('id', '=', id).execute()
  })
}

export interface PendingAuthorization {
  providerId: number
  nonce: string
  codeVerifier: string
  redirectUri: string
}

/** Authorization requests live this long: the user signs in at the provider meanwhile. */
export const STATE_LIFETIME_MS = 10 * 60 * 1000

export async function saveState(db: Kysely<Database>, state: string, pending: PendingAuthorization): Promise<void> {
  const now = Date.now()
  await db.deleteFrom('sso_states').where('expires_at', '<=', now).execute()
  await db
    .insertInto('sso_states')
    .values({
      state_hash: sha256(state),
      provider_id: pending.providerId,
      nonce: pending.nonce,
      code_verifier: pending.codeVerifier,
      redirect_uri: pending.redirectUri,
      created_at: now,
      expires_at: now + STATE_LIFETIME_MS,
    })
    .execute()
}

/** Takes an authorization request out (it works once); null if unknown, used or expired. */
export async function takeState(db: Kysely<Database>, state: string): Promise<PendingAuthorization | null> {
  const hash = sha256(state)
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('sso_states').selectAll().where('state_hash', '=', hash).executeTakeFirst()
    if (!row) return null
    const gone = await trx.deleteFrom('sso_states').where('state_hash', '=', hash).executeTakeFirst()
    if (Number(gone.numDeletedRows) !== 1 || row.expires_at <= Date.now()) return null
    return { providerId: row.provider_id, nonce: row.nonce, codeVerifier: row.code_verifier, redirectUri: row.redirect_uri }
  })
}
