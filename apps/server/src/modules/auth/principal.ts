import { SESSION_COOKIE } from '@trove/contracts/http'
import { parse } from 'cookie'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Principal, PrincipalResolver } from '../../core/access.js'
import type { Database } from '../../core/schema.js'
import { findLiveToken, TOKEN_PATTERN, touchToken } from '../tokens/repo.js'
import { verifyCredentials } from './service.js'
import { findSessionPrincipal } from './sessions.js'

/** last_used_at is written at most this often per token, not on every call. */
const TOUCH_EVERY_MS = 60_000

/** The session token a request carries, if any. Cookies are parsed only where a session is looked up. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie
  return header ? parse(header)[SESSION_COOKIE] : undefined
}

/** User name and secret of a Basic Authorization header. */
export function basicCredentials(request: FastifyRequest): { user: string; secret: string } | undefined {
  const header = request.headers.authorization
  if (!header?.toLowerCase().startsWith('basic ')) return undefined
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return undefined
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

async function tokenPrincipal(db: Kysely<Database>, secret: string): Promise<Principal | null> {
  const row = await findLiveToken(db, secret)
  if (!row || row.disabled) return null
  const now = Date.now()
  if (!row.last_used_at || now - row.last_used_at > TOUCH_EVERY_MS) await touchToken(db, row.id, now)
  const principal: Principal = {
    userId: row.user_id,
    name: row.name,
    admin: Boolean(row.admin),
    realm: row.realm,
    via: 'token',
    tokenId: row.id,
  }
  if (row.scope !== 'full') principal.scope = row.scope
  return principal
}

async function resolve(db: Kysely<Database>, request: FastifyRequest): Promise<Principal | null> {
  const cookieToken = sessionToken(request)
  if (cookieToken) {
    const session = await findSessionPrincipal(db, cookieToken)
    if (session) return session
  }
  const header = request.headers.authorization
  if (header?.toLowerCase().startsWith('bearer ')) return tokenPrincipal(db, header.slice(7).trim())
  const basic = basicCredentials(request)
  if (!basic) return null
  if (TOKEN_PATTERN.test(basic.secret)) {
    // Package clients send a token as the password of Basic auth; the user name must be its owner's
    // (or `__token__`, the name twine and pip users are told to give with a token).
    const principal = await tokenPrincipal(db, basic.secret)
    const named = basic.user === '__token__' || principal?.name.toLowerCase() === basic.user.toLowerCase()
    return principal && named ? principal : null
  }
  const user = await verifyCredentials(db, { user: basic.user, password: basic.secret, ip: request.ip })
  return { userId: user.id, name: user.name, admin: Boolean(user.admin), realm: user.realm, via: 'password' }
}

const resolved = new WeakMap<FastifyRequest, Promise<Principal | null>>()

/**
 * Resolves the caller once per request: a session cookie, else an `Authorization` header with a
 * Bearer token, or Basic with a token or a password as the secret. Later calls reuse the answer.
 */
export function principalResolver(db: Kysely<Database>): PrincipalResolver {
  return (request) => {
    let principal = resolved.get(request)
    if (!principal) {
      principal = resolve(db, request)
      resolved.set(request, principal)
    }
    return principal
  }
}
