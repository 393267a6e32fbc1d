import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'

/**
 * One summary line per answered request — method, url, status, duration, request id — instead of
 * Fastify's two lines (incoming, completed) per request.
 */
export class RequestSummaryLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
    }
    if (error) reply.log.error({ ...line, err: error }, 'request failed')
    else reply.log.info(line, 'request')
  }
}
