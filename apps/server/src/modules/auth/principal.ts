import { SESSION_COOKIE } from '@trove/contracts/http'
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
      const token = request.cookies[SESSION_COOKIE]
      principal = token ? findSessionPrincipal(db, token) : Promise.resolve(null)
      resolved.set(request, principal)
    }
    return principal
  }
}
