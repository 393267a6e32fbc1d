import crypto from 'node:crypto'
import type { Principal } from '../../core/access.js'

/** Registry bearer tokens live this long; clients fetch a new one when it runs out. */
export const REGISTRY_TOKEN_TTL_S = 300
const PREFIX = 'oci.'

/**
 * Short-lived bearer tokens of the registry's token endpoint: the caller (or anonymous) and an
 * expiry, signed with a key derived from the cluster's secret, so that every node and worker
 * process takes the tokens any of them issued. They are stateless: clients simply ask the token
 * endpoint again when one runs out.
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

  private sign(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url')
  }
}
