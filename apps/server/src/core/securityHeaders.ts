import type { FastifyInstance } from 'fastify'

const csp = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // Mantine sets CSS variables in a style element; the API reference styles inline.
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
].join(';')

/**
 * The security headers helmet would set, computed once. Setting a fixed object in one hook costs
 * a fraction of running helmet's middleware chain on every request (measured: ping throughput).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': csp,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
}

export function securityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS)
    reply.header('x-request-id', request.id)
    done()
  })
}
