import http from 'node:http'
import https from 'node:https'
import { checkTarget } from '../../core/safeAddress.js'

const MAX_REDIRECTS = 5
const MAX_BODY_BYTES = 8 * 1024 * 1024
const TIMEOUT_MS = 15_000

export interface VendorResponse {
  status: number
  headers: http.IncomingHttpHeaders
  /** The URL that answered, after redirects. */
  url: URL
  body: string
}

/** The vendor did not answer (network error, timeout, oversized answer). */
export class VendorUnreachable extends Error {}

function once(target: Awaited<ReturnType<typeof checkTarget>>, headers: Record<string, string>): Promise<VendorResponse> {
  const { url, address, family } = target
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'Trove', ...headers },
        // Connect to the address that was checked; TLS still verifies the certificate for the host name.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) callback(null, [{ address, family }] as never, family)
          else callback(null, address, family)
        },
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > MAX_BODY_BYTES) request.destroy(new VendorUnreachable('the vendor answered too much'))
          else chunks.push(chunk)
        })
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            url,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    request.on('timeout', () => request.destroy(new VendorUnreachable(`no answer from ${url.host} in ${TIMEOUT_MS} ms`)))
    request.on('error', (err) => reject(err instanceof VendorUnreachable ? err : new VendorUnreachable(err.message)))
    request.end()
  })
}

/**
 * GET from a vendor's API. Every hop is checked before it is requested: redirects are followed
 * here, one at a time, so a redirect to a refused address is refused too; credentials are sent
 * only to the origin they were meant for.
 */
export async function vendorGet(raw: string, headers: Record<string, string>): Promise<VendorResponse> {
  let url = raw
  const origin = new URL(raw).origin
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = await checkTarget(url)
    const sameOrigin = target.url.origin === origin
    const response = await once(target, sameOrigin ? headers : {})
    const location = response.headers.location
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, target.url).toString()
      continue
    }
    return response
  }
  throw new VendorUnreachable(`more than ${MAX_REDIRECTS} redirects`)
}
