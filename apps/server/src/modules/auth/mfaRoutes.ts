import { MfaCodeRequest, MfaEnrollment, UserData } from '@trove/contracts/auth'
import { CSRF_HEADER } from '@trove/contracts/http'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CSRF_REFUSED } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import { forbidden, HttpError, unauthorized } from '../../core/errors.js'
import { findUserById, type UserRow } from '../users/repo.js'
import {
  confirmEnrollment,
  INVALID_CODE,
  MFA_MAX_FAILURES,
  SIGN_IN_AGAIN,
  startEnrollment,
  TOO_MANY_CODES,
  verifyCode,
} from './mfa.js'
import { sessionToken } from './principal.js'
import { toUserData } from './service.js'
import { completeSession, countMfaFailure, deleteSession, findPendingSession, type PendingSession } from './sessions.js'

/** The one-time-code calls, under /ui/api/v1/ui/auth/mfa: for a pending sign-in, or a signed-in user enrolling from the profile. */
export const mfaRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    /** Whose code this is: the pending sign-in's user, else the signed-in user (enrolling from the profile). */
    async function subject(request: FastifyRequest): Promise<{ user: UserRow; pending: PendingSession | null }> {
      const token = sessionToken(request)
      const pending = token ? await findPendingSession(db, token) : null
      const mutating = request.method !== 'GET'
      if (pending) {
        if (mutating && request.headers[CSRF_HEADER] !== pending.csrfToken) throw forbidden(CSRF_REFUSED)
        const user = await findUserById(db, pending.userId)
        if (!user || user.disabled) throw forbidden(SIGN_IN_AGAIN)
        return { user, pending }
      }
      const principal = await ctx.principal(request)
      if (!principal) throw forbidden(SIGN_IN_AGAIN)
      if (mutating && principal.via === 'session' && request.headers[CSRF_HEADER] !== principal.csrfToken)
        throw forbidden(CSRF_REFUSED)
      const user = await findUserById(db, principal.userId)
      if (!user) throw unauthorized()
      return { user, pending: null }
    }

    /** A wrong code: counted against the pending sign-in, which ends after too many. */
    async function wrongCode(pending: PendingSession | null): Promise<never> {
      if (pending) {
        if (pending.failures + 1 >= MFA_MAX_FAILURES) {
          await deleteSession(db, pending.sessionId)
          throw forbidden(TOO_MANY_CODES)
        }
        await countMfaFailure(db, pending.sessionId)
      }
      throw new HttpError(401, INVALID_CODE)
    }

    app.get(
      '/enroll',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Start MFA enrolment: a new secret and its QR code',
          response: { 200: MfaEnrollment },
        },
      },
      async (request, reply) => {
        const { user, pending } = await subject(request)
        // A pending sign-in of a user who already has MFA verifies; it cannot replace the secret.
        if (pending && user.mfa_secret_encrypted) throw forbidden(SIGN_IN_AGAIN)
        reply.header('cache-control', 'no-store')
        return startEnrollment(db, ctx.secrets, user)
      },
    )

    app.post(
      '/enroll',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Confirm MFA enrolment with a code',
          body: MfaCodeRequest,
          response: { 200: UserData },
        },
      },
      async (request) => {
        const { user, pending } = await subject(request)
        if (pending && user.mfa_secret_encrypted) throw forbidden(SIGN_IN_AGAIN)
        if (!(await confirmEnrollment(db, ctx.secrets, user, request.body.otp))) return wrongCode(pending)
        if (pending) await completeSession(db, pending.sessionId)
        request.log.info({ user: user.name }, 'MFA enrolled')
        return toUserData(user)
      },
    )

    app.post(
      '/verify',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Finish a sign-in with a one-time code',
          body: MfaCodeRequest,
          response: { 200: UserData },
        },
      },
      async (request) => {
        const { user, pending } = await subject(request)
        if (!pending) throw forbidden(SIGN_IN_AGAIN)
        if (!(await verifyCode(db, ctx.secrets, user, request.body.otp))) return wrongCode(pending)
        await completeSession(db, pending.sessionId)
        request.log.info({ user: user.name }, 'signed in with a one-time code')
        return toUserData(user)
      },
    )
  }
