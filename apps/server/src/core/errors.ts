import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'

/** A domain error with the HTTP status it maps to. Throw it from services; the handler renders it. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** A stable name for callers that must tell one refusal from another (e.g. CREDENTIALS_EXPIRED). */
    readonly code?: string,
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HttpError(400, message)
export const unauthorized = (message = 'Authentication is required') => new HttpError(401, message)
export const forbidden = (message = 'You are not allowed to do this') => new HttpError(403, message)
export const notFound = (message: string) => new HttpError(404, message)
export const conflict = (message: string) => new HttpError(409, message)

/** The code a 507 carries: the server's own storage is full, not anything the client did. */
export const INSUFFICIENT_STORAGE = 'INSUFFICIENT_STORAGE'

/**
 * Whether an error means the storage under the data dir is full: the file system's (ENOSPC, or a
 * quota's EDQUOT), SQLite's (SQLITE_FULL: its file could not grow) or PostgreSQL's (53100 disk_full).
 */
export function isStorageFull(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  if (error instanceof HttpError) return error.code === INSUFFICIENT_STORAGE
  const code = (error as { code?: unknown }).code
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100'
}

/**
 * The answer to a write the full disk refused: 507, saying whose disk it is, so that nobody takes it
 * for a problem with the upload. Any other error is returned as it is.
 */
export function storageFullAsHttp<E>(error: E): E | HttpError {
  if (error instanceof HttpError || !isStorageFull(error)) return error
  return new HttpError(
    507,
    "Insufficient storage: the server's disk is full, so nothing was stored; try again once an administrator has freed space",
    INSUFFICIENT_STORAGE,
  )
}

/** The code a 503 carries when the database cannot be reached: nothing about the request was wrong. */
export const DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE'
/** How long a client is asked to wait before it tries again while the database is away (seconds). */
export const DATABASE_RETRY_AFTER_S = 5

/** A connection to the database could not be made (it is down, restarting, or out of connections). */
export class DatabaseUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super(`The database is unavailable: ${reason instanceof Error ? reason.message : String(reason)}`)
  }
}

/**
 * Whether an error means the database went away under a request: no connection could be made, the
 * server is shutting down or starting (PostgreSQL's 57P01–57P03), a connection failed (class 08),
 * the connection ended mid-query, or a client whose connection failed was asked again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  if (error instanceof DatabaseUnavailable) return true
  if (error instanceof HttpError) return error.code === DATABASE_UNAVAILABLE
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (/^57P0[123]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))) return true
  const message = (error as { message?: unknown }).message
  // pg's own words for a connection that ended, or one used after its connection failed.
  return (
    typeof message === 'string' &&
    /^Connection terminated|^Client has encountered a connection error and is not queryable|^Client was closed and is not queryable/.test(
      message,
    )
  )
}

/** The code a 503 carries when the blob store's bucket cannot be reached or is failing. */
export const BLOB_STORE_UNAVAILABLE = 'BLOB_STORE_UNAVAILABLE'

/** The bucket of the blob store could not be reached, timed out, or answered with a server error. */
export class BlobStoreUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super(`The blob store's bucket is unavailable: ${reason instanceof Error ? reason.message : String(reason)}`)
  }
}

/**
 * The answer to a request the server itself could not serve: 507 when its disk is full, 503 (with
 * Retry-After) when its database or its blob store's bucket is away; any other error is returned
 * as it is.
 */
export function serverFaultAsHttp<E>(error: E, reply?: FastifyReply): E | HttpError {
  if (error instanceof HttpError) {
    if (error.code === DATABASE_UNAVAILABLE || error.code === BLOB_STORE_UNAVAILABLE)
      reply?.header('retry-after', String(DATABASE_RETRY_AFTER_S))
    return error
  }
  if (isDatabaseUnavailable(error)) {
    reply?.header('retry-after', String(DATABASE_RETRY_AFTER_S))
    return new HttpError(503, 'The database is unavailable; try again in a few seconds', DATABASE_UNAVAILABLE)
  }
  if (error instanceof BlobStoreUnavailable) {
    reply?.header('retry-after', String(DATABASE_RETRY_AFTER_S))
    return new HttpError(
      503,
      'The blob store is unavailable; nothing was stored; try again in a few seconds',
      BLOB_STORE_UNAVAILABLE,
    )
  }
  return storageFullAsHttp(error)
}

export function sendError(reply: FastifyReply, status: number, message: string, code?: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ errors: [code ? { status, message, code } : { status, message }] })
}

function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation
      .map((issue) => {
        const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.')
        const field = where ? `${error.validationContext ?? 'body'}.${where}` : (error.validationContext ?? 'body')
        return `${field}: ${issue.message}`
      })
      .join('; ')
  }
  return error.message
}

/** The refusal of a download the security scanner's policies block: its message is also the reason phrase. */
export const DOWNLOAD_BLOCKED = 'DOWNLOAD_BLOCKED'

/** A message as an HTTP reason phrase (printable ASCII, 200 characters): clients that show no body show this. */
export const reasonPhrase = (message: string) => message.replace(/[^\x20-\x7e]/g, ' ').slice(0, 200)

/**
 * The one error handler: every error leaves as { errors: [{ status, message }] }, 5xx without
 * details. A blocked download also says why in its status line, where Maven and Gradle show it.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const error = serverFaultAsHttp(raw, reply)
    if (error !== raw) request.log.error({ err: raw }, error.message)
    if (error instanceof HttpError) {
      // Clients that show only the status line (Maven, Gradle) show why.
      if (error.code === DOWNLOAD_BLOCKED || error.code === INSUFFICIENT_STORAGE)
        reply.raw.statusMessage = reasonPhrase(error.message)
      return sendError(reply, error.status, error.message, error.code)
    }
    if (error.validation) return sendError(reply, 400, `Invalid request: ${validationMessage(error)}`)
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return sendError(reply, 400, 'Invalid request: the body is not valid JSON')
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) return sendError(reply, status, error.message)
    request.log.error({ err: error }, 'request failed')
    return sendError(reply, 500, 'Internal server error')
  })
}

/**
 * No URL Trove answers holds a NUL byte, and PostgreSQL refuses one in any text it is given: a
 * request whose path or query carries one (`%00`) is refused with 400 naming where, before any
 * route sees it.
 */
export function refuseNulBytes(app: FastifyInstance): void {
  const hasNul = (text: string) => text.includes('\0') || /%00/.test(text)
  app.addHook('onRequest', (request, reply, done) => {
    if (!hasNul(request.url)) return done()
    const [path = '', query = ''] = request.url.split(/\?(.*)/s)
    const param = hasNul(path) ? undefined : query.split('&').find(hasNul)?.split('=')[0]
    let name = 'path'
    if (param !== undefined) {
      try {
        name = decodeURIComponent(param.replace(/\+/g, ' ')) || 'query'
      } catch {
        name = 'query'
      }
    }
    sendError(reply, 400, `Invalid request: ${name}: must not hold a NUL byte (%00)`)
  })
}
