import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { BlobInfo } from '../../core/blobStore.js'
import type { Repository } from '../../storage/service.js'
import type { FormatContext } from '../kit/types.js'
import { basicCredentials } from '../kit/upstream.js'
import { RefusedUpstream, upstreamFetch } from '../kit/upstreamFetch.js'
import { OciError } from './errors.js'
import { MANIFEST_TYPES } from './manifest.js'

/**
 * A remote Docker repository's upstream: its URL is a registry's base URL, optionally followed by
 * a path that prefixes image names there (`http://host:8081/docker-local` proxies the
 * `docker-local` repository of another Trove; `https://registry.example/library` a namespace).
 */
function upstreamUrl(repo: Repository, image: string, rest: string): string {
  const url = new URL(repo.url ?? '')
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '').replace(/^v2(\/|$)/, '')
  return `${url.origin}/v2/${prefix ? `${prefix}/` : ''}${image}/${rest}`
}

const bearerCache = new Map<string, { token: string; until: number }>()

/** Fetches from the upstream, answering its Bearer challenge with the remote's credentials. */
async function registryFetch(repo: Repository, url: string, headers: Record<string, string>): Promise<Response> {
  const cached = bearerCache.get(repo.key)
  const auth = cached && cached.until > Date.now() ? `Bearer ${cached.token}` : basicCredentials(repo)
  let response = await upstreamFetch(repo.key, url, {
    headers: { ...headers, ...(auth ? { authorization: auth } : {}) },
    signal: AbortSignal.timeout(600_000),
  })
  const challenge = response.headers.get('www-authenticate') ?? ''
  if (response.status === 401 && /^bearer /i.test(challenge)) {
    await response.body?.cancel()
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    if (!params.realm) throw new OciError(502, 'UNSUPPORTED', `The upstream of ${repo.key} sent a challenge without a realm`)
    const tokenUrl = new URL(params.realm)
    if (params.service) tokenUrl.searchParams.set('service', params.service)
    if (params.scope) tokenUrl.searchParams.set('scope', params.scope)
    const b = basicCredentials(repo)
    // The realm is the upstream's to name: it is checked like the upstream itself.
    const tokenResponse = await upstreamFetch(repo.key, tokenUrl, {
      headers: b ? { authorization: b } : {},
      signal: AbortSignal.timeout(60_000),
    })
    if (!tokenResponse.ok)
      throw new OciError(502, 'UNAUTHORIZED', `The upstream of ${repo.key} refused its credentials (${tokenResponse.status})`)
    const body = (await tokenResponse.json()) as { token?: string; access_token?: string; expires_in?: number }
    const token = body.token ?? body.access_token
    if (!token) throw new OciError(502, 'UNAUTHORIZED', `The upstream of ${repo.key} gave no token`)
    bearerCache.set(repo.key, { token, until: Date.now() + Math.max(30, (body.expires_in ?? 60) - 10) * 1000 })
    response = await upstreamFetch(repo.key, url, {
      headers: { ...headers, authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(600_000),
    })
  }
  return response
}

/** A manifest from the upstream, or undefined when it has none (other failures throw 502). */
export async function fetchManifest(
  _fctx: FormatContext,
  repo: Repository,
  image: string,
  ref: string,
): Promise<{ body: Buffer; mediaType: string } | undefined> {
  let response: Response
  try {
    response = await registryFetch(repo, upstreamUrl(repo, image, `manifests/${ref}`), { accept: MANIFEST_TYPES.join(', ') })
  } catch (error) {
    if (error instanceof OciError) throw error
    if (error instanceof RefusedUpstream) throw new OciError(502, 'DENIED', error.message)
    throw new OciError(502, 'UNSUPPORTED', `The upstream of ${repo.key} cannot be reached`)
  }
  if (response.status === 404) {
    await response.body?.cancel()
    return undefined
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new OciError(502, 'UNSUPPORTED', `The upstream of ${repo.key} answered ${response.status} for ${image}:${ref}`)
  }
  const body = Buffer.from(await response.arrayBuffer())
  return { body, mediaType: response.headers.get('content-type') ?? '' }
}

/** A blob from the upstream, stored in the blob store (its digest verified), or undefined when missing. */
export async function fetchBlob(
  fctx: FormatContext,
  repo: Repository,
  image: string,
  hex: string,
): Promise<BlobInfo | undefined> {
  let response: Response
  try {
    response = await registryFetch(repo, upstreamUrl(repo, image, `blobs/sha256:${hex}`), {})
  } catch (error) {
    if (error instanceof RefusedUpstream) throw new OciError(502, 'DENIED', error.message)
    return undefined
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel()
    return undefined
  }
  return fctx.blobs.put(Readable.fromWeb(response.body as WebReadableStream), { sha256: hex })
}
