import { SESSION_COOKIE } from '@trove/contracts/http'
import { parse } from 'cookie'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Principal, PrincipalResolver } from '../../core/access.js'
import type { WriteWatch } from '../../core/dbWrites.js'
import type { Database } from '../../core/schema.js'
import { servesStale } from '../../core/staleWhileDown.js'
import { findLiveToken, hashSecret, TOKEN_PATTERN, touchToken } from '../users/tokenRepo.js'
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

/**
 * How long a node reuses a token or session it looked up. A change on this node (a token revoked,
 * a session ended, a user disabled, renamed or made admin) drops every cached caller at once, as the
 * database reports the committed write; a change made on another node of a cluster is seen here
 * within this time.
 */
export const CALLER_CACHE_MS = 2000
const CALLER_CACHE_LIMIT = 50_000
/** Tables whose committed writes drop the cached callers. */
const CALLER_TABLES = ['tokens', 'sessions', 'users', '*']

interface CachedCaller {
  principal: Principal
  /** When the token or session itself ends (ms), or null. */
  expiresAt: number | null
  loadedAt: number
  /** The token's last_used_at as last written (tokens only). */
  lastUsedAt: number | null
}

/**
 * The callers behind tokens and session cookies, kept briefly per node so a package client's
 * stream of requests does not look its token up each time. Only live callers are kept (an unknown
 * secret is looked up every time). A lookup that raced with a change is not stored.
 */
export class CallerCache {
  private readonly entries = new Map<string, CachedCaller>()
  private generation = 0

  constructor(
    private readonly db: Kysely<Database>,
    writes?: WriteWatch,
    private readonly ttlMs = CALLER_CACHE_MS,
  ) {
    writes?.on((tables) => {
      if (CALLER_TABLES.some((t) => tables.has(t))) this.clear()
    })
  }

  clear(): void {
    this.generation++
    this.entries.clear()
  }

  /** The entry kept for a key, and whether it is fresh; an entry whose token or session ended is dropped. */
  private kept(key: string, now: number): { hit?: CachedCaller; fresh: boolean } {
    const hit = this.entries.get(key)
    if (!hit) return { fresh: false }
    if (hit.expiresAt !== null && hit.expiresAt <= now) {
      this.entries.delete(key)
      return { fresh: false }
    }
    return { hit, fresh: now - hit.loadedAt < this.ttlMs }
  }

  /** A fresh lookup, or the kept entry when the database cannot be reached (core/staleWhileDown.ts). */
  private async lookup(
    kept: CachedCaller | undefined,
    now: number,
    load: () => Promise<CachedCaller | null>,
  ): Promise<CachedCaller | null> {
    try {
      return await load()
    } catch (error) {
      if (kept && servesStale(error, kept.loadedAt, now)) return kept
      throw error
    }
  }

  private store(key: string, generation: number, entry: CachedCaller): void {
    if (generation !== this.generation) return
    if (this.entries.size >= CALLER_CACHE_LIMIT) this.entries.clear()
    this.entries.set(key, entry)
  }

  async token(secret: string): Promise<Principal | null> {
    const key = `t${hashSecret(secret)}`
    const now = Date.now()
    const { hit, fresh } = this.kept(key, now)
    let entry = fresh ? hit : undefined
    if (!entry) {
      const generation = this.generation
      const found = await this.lookup(hit, now, async () => {
        const row = await findLiveToken(this.db, secret, now)
        if (!row || row.disabled) return null
        return {
          principal: {
            userId: row.user_id,
            name: row.name,
            admin: Boolean(row.admin),
            realm: row.realm,
            via: 'token',
            tokenId: row.id,
            ...(row.scope !== 'full' ? { scope: row.scope } : {}),
          },
          expiresAt: row.expires_at,
          loadedAt: now,
          lastUsedAt: row.last_used_at,
        }
      })
      if (!found) return null
      entry = found
      if (entry !== hit) this.store(key, generation, entry)
    }
    if (!entry.lastUsedAt || now - entry.lastUsedAt > TOUCH_EVERY_MS) {
      entry.lastUsedAt = now
      // Bookkeeping only: a write the database refuses (its disk full) must not refuse the caller.
      await touchToken(this.db, entry.principal.tokenId as string, now).catch(() => {})
    }
    return { ...entry.principal }
  }

  async session(cookieToken: string): Promise<Principal | null> {
    const key = `s${hashSecret(cookieToken)}`
    const now = Date.now()
    const { hit, fresh } = this.kept(key, now)
    let entry = fresh ? hit : undefined
    if (!entry) {
      const generation = this.generation
      const found = await this.lookup(hit, now, async () => {
        const session = await findSessionPrincipal(this.db, cookieToken)
        return session && { principal: session.principal, expiresAt: session.expiresAt, loadedAt: now, lastUsedAt: null }
      })
      if (!found) return null
      entry = found
      if (entry !== hit) this.store(key, generation, entry)
    }
    return { ...entry.principal }
  }
}

async function resolve(db: Kysely<Database>, callers: CallerCache, request: FastifyRequest): Promise<Principal | null> {
  const cookieToken = sessionToken(request)
  if (cookieToken) {
    const session = await callers.session(cookieToken)
    if (session) return session
  }
  const header = request.headers.authorization
  if (header === undefined) return null
  if (header.length > 7 && header.slice(0, 7).toLowerCase() === 'bearer ') return callers.token(header.slice(7).trim())
  const basic = basicCredentials(request)
  if (!basic) return null
  if (TOKEN_PATTERN.test(basic.secret)) {
    // Package clients send a token as the password of Basic auth; the user name must be its owner's
    // (or `__token__`, the name twine and pip users are told to give with a token).
    const principal = await callers.token(basic.secret)
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
 * Tokens and sessions come from the node's short-lived caller cache (see CallerCache).
 */
export function principalResolver(db: Kysely<Database>, callers = new CallerCache(db)): PrincipalResolver {
  return (request) => {
    let principal = resolved.get(request)
    if (!principal) {
      principal = resolve(db, callers, request)
      resolved.set(request, principal)
    }
    return principal
  }
}
