import http from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { HttpError } from '../../core/errors.js'
import { RefusedAddress, resolveTarget } from '../../core/safeAddress.js'

const MAX_REDIRECTS = 5

/**
 * Connections to upstreams, kept alive between requests (a cold install asks one upstream for
 * hundreds of files), at most UPSTREAM_SOCKETS at once per upstream host and port: more requests
 * wait for a free connection rather than open ever more.
 */
export const UPSTREAM_SOCKETS = 32
const agentOptions = {
  keepAlive: true,
  maxSockets: UPSTREAM_SOCKETS,
  maxFreeSockets: UPSTREAM_SOCKETS,
  scheduling: 'lifo' as const,
}
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }

/** What this node is fetching from upstreams right now, by key (the repository and the path). */
const fetching = new Map<string, Promise<unknown>>()

/**
 * Runs `work` once for `key` however many callers ask while it runs: they all get its answer (or
 * its error). One upstream fetch per missing file, whatever the number of clients asking for it.
 */
export function fetchOnce<T>(key: string, work: () => Promise<T>): Promise<T> {
  const running = fetching.get(key)
  if (running) return running as Promise<T>
  const started = work().finally(() => fetching.delete(key))
  fetching.set(key, started)
  return started
}

/** Errors of a kept-alive connection the upstream had closed meanwhile: the request is sent again once, on a new one. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED'])

/** The upstream's URL, or a URL it redirected to, is refused (link-local or metadata address, not http). */
export class RefusedUpstream extends HttpError {
  constructor(repoKey: string, refusal: RefusedAddress) {
    super(502, `The upstream of ${repoKey} is refused: ${refusal.message}`, 'REFUSED_ADDRESS')
  }
}

/** Answers bodiless statuses carry no stream (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304])

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    for (const v of [value].flat()) headers.append(name, v)
  }
  return headers
}

/** One GET to the address that was checked (not resolved again); TLS still verifies the host name. */
function once(
  url: URL,
  target: { address: string; family: 4 | 6 },
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  retried = false,
): Promise<Response> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        headers,
        signal,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) callback(null, [target] as never, target.family)
          else callback(null, target.address, target.family)
        },
      },
      (response) => {
        const status = response.statusCode ?? 502
        const body = NO_BODY.has(status) ? null : (Readable.toWeb(response) as unknown as WebReadableStream<Uint8Array>)
        if (!body) response.resume()
        resolve(new Response(body as ReadableStream<Uint8Array> | null, { status, headers: toHeaders(response.headers) }))
      },
    )
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (request.reusedSocket && !retried && STALE_CONNECTION.has(error.code ?? '') && !signal?.aborted)
        resolve(once(url, target, headers, signal, true))
      else reject(error)
    })
    request.end()
  })
}

/**
 * GET from a remote repository's upstream, the way `fetch` would, but every hop is checked first
 * (core/safeAddress.ts): an upstream URL, or a redirect, that leads to a link-local or
 * metadata address is refused (RefusedUpstream, 502) before anything is sent to it, and the
 * connection goes to the address that was checked, so DNS cannot answer differently in between.
 * Loopback and private addresses stay allowed: mirrors and other Troves live there. Credentials go
 * only to the origin they were given for. A host that does not resolve fails like an unreachable
 * one (a TypeError, as from `fetch`).
 */
export async function upstreamFetch(
  repoKey: string,
  raw: string | URL,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  let url = new URL(raw)
  const origin = url.origin
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let target: Awaited<ReturnType<typeof resolveTarget>>
    try {
      target = await resolveTarget(url)
    } catch (error) {
      if (error instanceof RefusedAddress) throw new RefusedUpstream(repoKey, error)
      throw new TypeError(`fetch failed: ${(error as Error).message}`)
    }
    const headers = { ...init.headers }
    if (url.origin !== origin) delete headers.authorization
    const first = target.addresses[0] as { address: string; family: 4 | 6 }
    const response = await once(url, first, headers, init.signal)
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      url = new URL(location, url)
      continue
    }
    // As fetch's: the URL that answered, after redirects (relative links are read against it).
    Object.defineProperty(response, 'url', { value: url.href })
    return response
  }
  throw new TypeError(`fetch failed: more than ${MAX_REDIRECTS} redirects`)
}
