import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { FILE_CSP, pageCsp } from './servedContent.js'

/**
 * The security headers helmet would set, computed once. The policy is the sandbox of stored
 * content (core/servedContent.ts): only Trove's own pages (the console, the API reference) swap it
 * for the page policy, by `asPage`. Setting a fixed object in one hook costs
 * a fraction of running helmet's middleware chain on every request (measured: ping throughput).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': FILE_CSP,
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

/** The hosts the browser may have reached Trove at: the request's own, and TROVE_BASE_URL's. */
export function pageHosts(request: FastifyRequest, baseUrl: string | undefined): string[] {
  const own = request.host
  const configured = baseUrl ? new URL(baseUrl).host : undefined
  return configured && configured !== own ? [own, configured] : [own]
}

/** Gives one of Trove's own pages the policy that lets its scripts (from their own folders) run. */
export function asPage(request: FastifyRequest, reply: FastifyReply, baseUrl: string | undefined): FastifyReply {
  return reply.header('content-security-policy', pageCsp(pageHosts(request, baseUrl)))
}

/**
 * Every HTML answer of this plugin context under `path` is a page of Trove's own (the API
 * reference, GraphiQL). Never a context that also sends stored files: those are HTML too.
 */
export function htmlIsPage(app: FastifyInstance, baseUrl: string | undefined, path: string): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type')
    if (typeof type === 'string' && type.startsWith('text/html') && request.url.startsWith(path)) asPage(request, reply, baseUrl)
    return payload
  })
}

/**
 * The download origin (TROVE_DOWNLOAD_BASE_URL) serves stored files and nothing else: no console,
 * no sign-in, no API that a session could use, so a script in a file shown there has nothing of
 * a user's to reach.
 */
export function onlyFilesOn(app: FastifyInstance, downloadHost: string): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.host !== downloadHost) return
    const path = request.url.split('?')[0] ?? ''
    const console = path === '/' || path === '/ui' || path.startsWith('/ui/') || path.startsWith('/access/')
    if (console || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send({ errors: [{ status: 404, message: 'The download origin serves stored files only' }] })
    }
  })
}
