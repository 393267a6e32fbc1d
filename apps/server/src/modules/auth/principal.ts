import { SESSION_COOKIE } from '@trove/contracts/http'
import { parse } from 'cookie'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Principal, PrincipalResolver } from '../../core/access.js'
import type { Database } from '../../core/schema.js'
import { findSessionPrincipal } from './sessions.js'

const resolved = new WeakMap<FastifyRequest, Promise<Principal | null>>()

/** Resolves the caller once per request from the session cookie; later calls reuse the answer. */
export function principalResolver(db: Kysely<Database>): PrincipalResolver {
  return (request) => {
    let principal = resolved.get(request)
    if (!principal) {
      const token = sessionToken(request)
      principal = token ? findSessionPrincipal(db, token) : Promise.resolve(null)
      resolved.set(request, principal)
    }
    return principal
  }
}

/** The session token a request carries, if any. Cookies are parsed only where a session is looked up. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie
  return header ? parse(header)[SESSION_COOKIE] : undefined
}
