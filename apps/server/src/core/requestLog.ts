import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'

/** Query parameters that carry secrets: reset keys, invitation tokens, OAuth codes and states, … */
const SECRET_PARAMS = new Set([
  'key',
  'token',
  'code',
  'state',
  'password',
  'samlresponse',
  'access_token',
  'refresh_token',
  'id_token',
  'jfclientsession',
])
/** Path segments that are secrets: the command-line hand-off's session id. */
const SECRET_PATHS = [/(\/jfrog_client_login\/token\/)[^/?]+/]

/** The URL as it may be logged: secret query values and path segments replaced by "[redacted]". */
export function redactUrl(url: string): string {
  let path = url
  let query = ''
  const q = url.indexOf('?')
  if (q >= 0) {
    path = url.slice(0, q)
    query = url.slice(q + 1)
  }
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, '$1[redacted]')
  if (!query) return path
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=')
    const name = eq >= 0 ? part.slice(0, eq) : part
    let decoded = name
    try {
      decoded = decodeURIComponent(name)
    } catch {
      // keep as is
    }
    return eq >= 0 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : part
  })
  return `${path}?${parts.join('&')}`
}

/**
 * One summary line per answered request — method, url, status, duration, request id — instead of
 * Fastify's two lines (incoming, completed) per request.
 */
export class RequestSummaryLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    }
    if (error) reply.log.error({ ...line, err: error }, 'request failed')
    else reply.log.info(line, 'request')
  }
}
