import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import type { Database } from '../../core/schema.js'
import { CALLER_CACHE_MS } from '../../identity/index.js'

/** Registry bearer tokens live this long; clients fetch a new one when it runs out. */
export const REGISTRY_TOKEN_TTL_S = 300
const PREFIX = 'oci.'

/**
 * Short-lived bearer tokens of the registry's token endpoint: the caller (or anonymous) and an
 * expiry, signed with a key derived from the cluster's secret, so that every node and worker
 * process takes the tokens any of them issued. They are stateless: clients simply ask the token
 * endpoint again when one runs out. Each names the credential it was bought with (the access
 * token, the session, or the user for a password), which `stillLive` checks again at most every
 * CALLER_CACHE_MS: revoking that token, ending that session or disabling the user ends the
 * registry tokens it bought on every node within that time, as it does for the credential itself.
 */
export class RegistryTokens {
  private readonly key: Buffer

  /** `clusterSecret`: the secret the nodes share (operations/cluster.ts); a random key without it. */
  constructor(clusterSecret?: Buffer) {
    this.key = clusterSecret
      ? Buffer.from(crypto.hkdfSync('sha256', clusterSecret, Buffer.alloc(0), 'trove registry tokens', 32))
      : crypto.randomBytes(32)
  }

  issue(principal: Principal | null, now = Date.now()): string {
    const body = Buffer.from(
      JSON.stringify({
        p: principal
          ? {
              userId: principal.userId,
              name: principal.name,
              admin: principal.admin,
              realm: principal.realm,
              // A token of narrower scope keeps it in the registry token it buys.
              ...(principal.scope ? { scope: principal.scope } : {}),
              ...(principal.tokenId ? { tokenId: principal.tokenId } : {}),
              ...(principal.via === 'session' && principal.sessionId ? { sessionId: principal.sessionId } : {}),
            }
          : null,
        e: now + REGISTRY_TOKEN_TTL_S * 1000,
      }),
    ).toString('base64url')
    return `${PREFIX}${body}.${this.sign(body)}`
  }

  static looksLike(token: string): boolean {
    return token.startsWith(PREFIX)
  }

  /** The caller a token names (`principal` null for anonymous), or undefined when forged or expired. */
  verify(token: string, now = Date.now()): { principal: Principal | null } | undefined {
    if (!token.startsWith(PREFIX)) return undefined
    const [body, mac] = token.slice(PREFIX.length).split('.')
    if (!body || !mac) return undefined
    const want = Buffer.from(this.sign(body))
    const got = Buffer.from(mac)
    if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return undefined
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      p: Omit<Principal, 'via'> | null
      e: number
    }
    if (payload.e < now) return undefined
    return { principal: payload.p ? { ...payload.p, via: 'token' } : null }
  }

  private readonly checked = new Map<string, { live: boolean; at: number }>()

  /** Whether the credential a registry token's caller was bought with still holds (see the class). */
  async stillLive(db: Kysely<Database>, principal: Principal, now = Date.now()): Promise<boolean> {
    const key = principal.tokenId
      ? `t${principal.tokenId}`
      : principal.sessionId
        ? `s${principal.sessionId}`
        : `u${principal.userId}`
    const hit = this.checked.get(key)
    if (hit && now - hit.at < CALLER_CACHE_MS) return hit.live
    let query = db.selectFrom('users').select('users.id').where('users.id', '=', principal.userId).where('users.disabled', '=', 0)
    if (principal.tokenId)
      query = query
        .innerJoin('tokens', 'tokens.user_id', 'users.id')
        .where('tokens.id', '=', principal.tokenId)
        .where((eb) => eb.or([eb('tokens.expires_at', 'is', null), eb('tokens.expires_at', '>', now)]))
    else if (principal.sessionId)
      query = query
        .innerJoin('sessions', 'sessions.user_id', 'users.id')
        .where('sessions.id', '=', principal.sessionId)
        .where('sessions.expires_at', '>', now)
    const live = (await query.executeTakeFirst()) !== undefined
    if (this.checked.size >= 10_000) this.checked.clear()
    this.checked.set(key, { live, at: now })
    return live
  }

  private sign(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url')
  }
}
