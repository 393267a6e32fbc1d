import { Messages } from '@trove/contracts/messages'
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { HttpError } from '../../core/errors.js'
import { isReadOnly } from '../../core/instance.js'
import type { Database } from '../../core/schema.js'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Calls that still work in read-only mode: signing in and out, and turning the mode off. */
const EXEMPT = [/^\/ui\/api\/v1\/ui\/auth\//, /^\/ui\/api\/v1\/ui\/generalConfig(\?|$)/, /^\/access\/api\/v1\/tokens\/refresh/]

export const READ_ONLY_CODE = 'READ_ONLY'

/**
 * Read-only mode (shell §8): every call that would change something is refused with
 * 'You cannot use this option in read-only mode' (403, code READ_ONLY), after its access rule.
 * Routes that take a query in a POST body and change nothing say so (`config.reads`) and pass,
 * without the mode being looked up.
 */
export function enforceReadOnly(app: FastifyInstance, db: Kysely<Database>): void {
  // Reads pass synchronously, without a promise: this hook runs on every request.
  app.addHook('preHandler', (request, _reply, done) => {
    if (SAFE.has(request.method) || request.routeOptions.config?.reads) return done()
    if (EXEMPT.some((re) => re.test(request.url))) return done()
    isReadOnly(db).then(
      (readOnly) => done(readOnly ? new HttpError(403, Messages.readOnlyMode, READ_ONLY_CODE) : undefined),
      done,
    )
  })
}
