import type { AccessTokenCreated, TokenScope } from '@trove/contracts/tokens'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import { conflict, forbidden, HttpError, notFound } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import type { SecretBox } from '../../core/secretBox.js'
import { basicCredentials } from '../auth/principal.js'
import { passwordlessReauth } from '../auth/reauth.js'
import { verifyCredentials } from '../auth/service.js'
import { findUserByName } from '../users/repo.js'
import { deleteTokens, insertToken, listTokens, newSecret } from '../users/tokenRepo.js'

export const REAUTH_REQUIRED = 'Enter your password again to manage your API key'

/** Makes an access token for `name`: the caller's own, or anyone's when the caller is an admin. */
export async function createAccessToken(
  db: Kysely<Database>,
  caller: Principal,
  input: { name: string; expiresIn: number; description?: string | undefined; scope?: TokenScope | undefined },
): Promise<AccessTokenCreated> {
  if (caller.name.toLowerCase() !== input.name.toLowerCase() && !caller.admin) {
    throw forbidden('Only an administrator can create tokens for another user')
  }
  const owner = await findUserByName(db, input.name)
  if (!owner) throw notFound(`User ${input.name} does not exist`)
  const secret = newSecret('access')
  const row = await insertToken(db, {
    userId: owner.id,
    kind: 'access',
    secret,
    encrypted: null,
    description: input.description ?? null,
    expiresAt: Date.now() + input.expiresIn * 1000,
    scope: input.scope ?? 'full',
  })
  return {
    token_id: row.id,
    access_token: secret,
    expires_in: input.expiresIn,
    token_type: 'Bearer',
    username: owner.name,
    scope: input.scope ?? 'full',
  }
}

/**
 * Managing an API key needs the password again (as the spec's IDE flow sends it): a caller who
 * signed in with Basic and a password has just given it; any other sends it in a Basic header.
 */
export async function requireReauthentication(db: Kysely<Database>, request: FastifyRequest, caller: Principal): Promise<void> {
  if (caller.via === 'password') return
  // OAuth and SAML users have no password: a fresh sign-in at their provider stands in for it.
  if (await passwordlessReauth(db, caller)) return
  const basic = basicCredentials(request)
  if (!basic || basic.user.toLowerCase() !== caller.name.toLowerCase()) throw new HttpError(401, REAUTH_REQUIRED)
  await verifyCredentials(db, { user: basic.user, password: basic.secret, ip: request.ip })
}

export async function showApiKey(
  db: Kysely<Database>,
  box: SecretBox,
  caller: Principal,
  username: string,
): Promise<string | null> {
  if (caller.name.toLowerCase() !== username.toLowerCase()) throw forbidden('You can only see your own API key')
  const [key] = await listTokens(db, caller.userId, 'api_key')
  return key?.secret_encrypted ? box.open(key.secret_encrypted) : null
}

/** Creates the caller's API key; with `replace`, an existing one is revoked first. */
export async function issueApiKey(db: Kysely<Database>, box: SecretBox, caller: Principal, replace: boolean): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const existing = await listTokens(trx, caller.userId, 'api_key')
    if (existing.length > 0 && !replace) throw conflict('You already have an API key: regenerate it instead')
    await deleteTokens(trx, { userId: caller.userId, kind: 'api_key' })
    const secret = newSecret('api_key')
    await insertToken(trx, {
      userId: caller.userId,
      kind: 'api_key',
      secret,
      encrypted: box.seal(secret),
      description: 'API key',
      expiresAt: null,
    })
    return secret
  })
}
