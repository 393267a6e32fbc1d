import type { FastifyReply } from 'fastify'
import { HttpError, INSUFFICIENT_STORAGE, reasonPhrase } from '../../core/errors.js'

/** Error codes of the OCI distribution spec (and Docker's for denied / unsupported). */
export type OciCode =
  | 'BLOB_UNKNOWN'
  | 'BLOB_UPLOAD_INVALID'
  | 'BLOB_UPLOAD_UNKNOWN'
  | 'DIGEST_INVALID'
  | 'MANIFEST_BLOB_UNKNOWN'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_UNKNOWN'
  | 'NAME_INVALID'
  | 'NAME_UNKNOWN'
  | 'SIZE_INVALID'
  | 'UNAUTHORIZED'
  | 'DENIED'
  | 'UNSUPPORTED'
  | 'TOOMANYREQUESTS'
  | 'UNKNOWN'

/** A refusal in the distribution spec's terms: `{"errors":[{"code","message","detail"}]}` with its status. */
export class OciError extends HttpError {
  constructor(
    status: number,
    readonly ociCode: OciCode,
    message: string,
    readonly detail?: unknown,
  ) {
    super(status, message, ociCode)
  }
}

const CODE_OF_STATUS: Record<number, OciCode> = {
  400: 'NAME_INVALID',
  401: 'UNAUTHORIZED',
  403: 'DENIED',
  404: 'NAME_UNKNOWN',
  405: 'UNSUPPORTED',
  409: 'DENIED',
  413: 'SIZE_INVALID',
  416: 'BLOB_UPLOAD_INVALID',
  429: 'TOOMANYREQUESTS',
  // Docker's own code for a server-side failure (the spec has none for a full disk).
  507: 'UNKNOWN',
}

/** Renders any error in the registry's format (Trove's own HttpErrors get the nearest code). */
export function sendOciError(reply: FastifyReply, error: unknown): FastifyReply {
  let status = 500
  let code: OciCode = 'UNSUPPORTED'
  let message = 'Internal error'
  let detail: unknown
  if (error instanceof OciError) {
    status = error.status
    code = error.ociCode
    message = error.message
    detail = error.detail
  } else if (error instanceof HttpError) {
    status = error.status
    code = error.code === 'CHECKSUM_MISMATCH' ? 'DIGEST_INVALID' : (CODE_OF_STATUS[status] ?? 'UNSUPPORTED')
    message = error.message
  } else if (error && typeof error === 'object' && 'statusCode' in error && typeof error.statusCode === 'number') {
    status = error.statusCode
    code = CODE_OF_STATUS[status] ?? 'UNSUPPORTED'
    message = String((error as { message?: unknown }).message ?? message)
  }
  // Clients that show only the status line of a failed upload start (skopeo, docker) show why.
  if (code === 'UNKNOWN' && error instanceof HttpError && error.code === INSUFFICIENT_STORAGE)
    reply.raw.statusMessage = reasonPhrase(message)
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ errors: [detail === undefined ? { code, message } : { code, message, detail }] })
}
