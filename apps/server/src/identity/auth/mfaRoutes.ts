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
import { passwordlessReauth } from './reauth.js'
import { toUserData, verifyCredentials } from './service.js'
import { completeSession, deleteSession, findPendingSession, type PendingSession, reserveMfaAttempt } from './sessions.js'
import { otpSucceeded, reserveOtp } from './throttle.js'

/** Account security changes only by a person at the console: never by a token, whatever its scope. */
export const SESSION_REQUIRED = 'Two-step verification is changed in a signed-in browser session, not with a token'
export const MFA_ALREADY_ON = 'Two-step verification is already on for this user'
export const PASSWORD_REQUIRED = 'Enter your current password to turn on two-step verification'

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
      if (principal.via !== 'session') throw forbidden(SESSION_REQUIRED)
      if (mutating && request.headers[CSRF_HEADER] !== principal.csrfToken) throw forbidden(CSRF_REFUSED)
      const user = await findUserById(db, principal.userId)
      if (!user) throw unauthorized()
      return { user, pending: null }
    }

    /**
     * A pending sign-in's code attempt, taken before the code is checked: past the last one the
     * pending sign-in ends. Answers the attempt's number (0 for a signed-in user's enrolment).
     */
    async function reserveCode(pending: PendingSession | null): Promise<number> {
      if (!pending) return 0
      const attempt = await reserveMfaAttempt(db, pending.sessionId, MFA_MAX_FAILURES)
      if (attempt === null || !(await reserveOtp(db, pending.userId))) {
        await deleteSession(db, pending.sessionId)
        throw forbidden(TOO_MANY_CODES)
      }
      return attempt
    }

    /** A wrong code: the pending sign-in ends with its last attempt. */
    async function wrongCode(pending: PendingSession | null, attempt: number): Promise<never> {
      if (pending && attempt >= MFA_MAX_FAILURES) {
        await deleteSession(db, pending.sessionId)
        throw forbidden(TOO_MANY_CODES)
      }
      throw new HttpError(401, INVALID_CODE)
    }

    /** Enrolling from the profile: the user has no second step yet, and proves the password again. */
    async function mayEnrollSignedIn(request: FastifyRequest, user: UserRow, password: string | undefined) {
      if (user.mfa_secret_encrypted) throw new HttpError(409, MFA_ALREADY_ON)
      const principal = await ctx.principal(request)
      if (principal && (await passwordlessReauth(db, principal))) return
      if (!password) throw new HttpError(400, PASSWORD_REQUIRED)
      await verifyCredentials(db, { user: user.name, password, ip: request.ip, allowExpired: true })
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
        // A pending sign-in of a user who already has MFA verifies; it cannot replace the secret,
        // and neither can a signed-in session (turning it off is an administrator's).
        if (pending && user.mfa_secret_encrypted) throw forbidden(SIGN_IN_AGAIN)
        if (!pending && user.mfa_secret_encrypted) throw new HttpError(409, MFA_ALREADY_ON)
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
        if (!pending) await mayEnrollSignedIn(request, user, request.body.password)
        const attempt = await reserveCode(pending)
        if (!(await confirmEnrollment(db, ctx.secrets, user, request.body.otp))) return wrongCode(pending, attempt)
        if (pending) {
          await completeSession(db, pending.sessionId)
          await otpSucceeded(db, user.id)
        }
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
        const attempt = await reserveCode(pending)
        if (!(await verifyCode(db, ctx.secrets, user, request.body.otp))) return wrongCode(pending, attempt)
        await completeSession(db, pending.sessionId)
        await otpSucceeded(db, user.id)
        request.log.info({ user: user.name }, 'signed in with a one-time code')
        return toUserData(user)
      },
    )
  }
