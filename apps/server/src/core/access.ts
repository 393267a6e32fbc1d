import { CSRF_HEADER } from '@trove/contracts/http'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { HttpError } from './errors.js'

/**
 * Who may call a route. Every route declares one in `config.access`; a route without one stops
 * the server from starting, so no endpoint is ever open by accident.
 * - public: anyone, no session is looked up (health checks, static files, sign-in)
 * - user: a signed-in user
 * - projectAdmin: a signed-in administrator, or a user who administers at least one project (the
 *   handler then checks the project at hand)
 * - admin: a signed-in administrator
 */
export type Access = 'public' | 'user' | 'projectAdmin' | 'admin'
export const ACCESS_RULES: readonly Access[] = ['public', 'user', 'projectAdmin', 'admin']

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access
    /** A POST that only reads (a query carried in its body): read-only mode lets it through. */
    reads?: boolean
    /**
     * A route whose handler caps a token's actions by its scope itself, through the authorizer
     * (the package formats, repository paths, build-info publishing). Any other route that changes
     * something refuses a scoped token outright (`enforceAccess`).
     */
    scopeCapped?: boolean
  }
}

export interface Principal {
  userId: number
  name: string
  admin: boolean
  realm: string
  /** How the caller proved who they are: a browser session, a token, or a password (Basic). */
  via: 'session' | 'token' | 'password'
  sessionId?: string
  /** Set for sessions: mutating calls must echo it. */
  csrfToken?: string
  tokenId?: string
  /**
   * A token's scope when it is narrower than its owner's rights (absent means full): `deploy`
   * holds read, annotate and deploy; `read` only read. Either changes nothing through a route
   * with an access rule, and the authorizer caps its repository actions.
   */
  scope?: 'deploy' | 'read'
}

export type PrincipalResolver = (request: FastifyRequest) => Promise<Principal | null>

/** Marks every route registered in `app` (a plugin context) public unless it says otherwise. */
export function defaultAccess(app: FastifyInstance, access: Access): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access: route.config?.access ?? access }
  })
}

/** Collects every route and refuses to start if one has no access rule. Returns the live list. */
export function requireAccessRules(app: FastifyInstance): RouteOptions[] {
  const routes: RouteOptions[] = []
  app.addHook('onRoute', (route) => {
    routes.push(route)
  })
  app.addHook('onReady', async () => {
    const missing = routes
      .filter((r) => !r.config?.access || !ACCESS_RULES.includes(r.config.access))
      .map((r) => `${[r.method].flat().join(',')} ${r.url}`)
    if (missing.length > 0) throw new Error(`Routes without an access rule: ${missing.join(', ')}`)
  })
  return routes
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
export const CSRF_REFUSED = 'Missing or invalid CSRF token'
export const ROUTE_REFUSED = 'You are not allowed to do this'
export const SCOPE_REFUSED = 'This token may not change anything here: its scope is {scope}'
/** Tells a refusal by a token's scope from other refusals. */
export const SCOPE_REFUSED_CODE = 'TOKEN_SCOPE'
/** Tells a refusal by a route's rule from a refusal by its handler. */
export const ROUTE_REFUSED_CODE = 'ACCESS_RULE'
export const AUTHENTICATION_REQUIRED_CODE = 'AUTHENTICATION_REQUIRED'

/**
 * The caller as handlers that decide by themselves on public routes (package formats, repository
 * paths) see them: a browser session counts for a call that changes something only with its CSRF
 * token. Without it the caller is anonymous, so a page on another site cannot deploy, upload or
 * delete with the cookie the browser sends along. Tokens and passwords are unaffected.
 */
export function csrfBoundSessions(resolve: PrincipalResolver): PrincipalResolver {
  return async (request) => {
    const principal = await resolve(request)
    if (
      principal?.via === 'session' &&
      !SAFE_METHODS.has(request.method) &&
      request.headers[CSRF_HEADER] !== principal.csrfToken
    ) {
      return null
    }
    return principal
  }
}

/**
 * Enforces each route's rule before its handler runs. A call that changes something on behalf of
 * a browser session must also carry the session's CSRF token, which a cross-site page cannot read;
 * tokens and passwords in the Authorization header are not sent by browsers on their own, so they
 * need none.
 */
export function enforceAccess(
  app: FastifyInstance,
  resolve: PrincipalResolver,
  administersAProject: (principal: Principal) => Promise<boolean> = async () => false,
): void {
  const check = async (request: FastifyRequest, access: Access, scopeCapped: boolean) => {
    const principal = await resolve(request)
    if (!principal) throw new HttpError(401, 'Authentication is required', AUTHENTICATION_REQUIRED_CODE)
    if (
      principal.via === 'session' &&
      !SAFE_METHODS.has(request.method) &&
      request.headers[CSRF_HEADER] !== principal.csrfToken
    ) {
      throw new HttpError(403, CSRF_REFUSED)
    }
    if (principal.scope && !SAFE_METHODS.has(request.method) && !scopeCapped) {
      throw new HttpError(403, SCOPE_REFUSED.replace('{scope}', principal.scope), SCOPE_REFUSED_CODE)
    }
    if (access === 'admin' && !principal.admin) throw new HttpError(403, ROUTE_REFUSED, ROUTE_REFUSED_CODE)
    if (access === 'projectAdmin' && !principal.admin && !(await administersAProject(principal))) {
      throw new HttpError(403, ROUTE_REFUSED, ROUTE_REFUSED_CODE)
    }
  }
  /**
   * A public route that changes something (MFA enrolment, a sign-in step) may still see a
   * caller: a token of narrow scope is refused there as on any other route, unless the route
   * caps its actions by scope itself.
   */
  const checkScope = async (request: FastifyRequest) => {
    const principal = await resolve(request)
    if (principal?.scope) throw new HttpError(403, SCOPE_REFUSED.replace('{scope}', principal.scope), SCOPE_REFUSED_CODE)
  }
  // Public routes (health checks, static files) pass synchronously, without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config
    const access = config?.access
    if (!access || access === 'public') {
      const changes = !SAFE_METHODS.has(request.method) && !config?.reads && !config?.scopeCapped
      if (!changes || request.headers.authorization === undefined) return done()
      return void checkScope(request).then(() => done(), done)
    }
    check(request, access, config?.scopeCapped === true).then(() => done(), done)
  })
}

/** Marks every route registered in `app` (a plugin context) as capping a token's scope itself. */
export function scopeCappedRoutes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, scopeCapped: true }
  })
}
