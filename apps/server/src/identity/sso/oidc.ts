import * as client from 'openid-client'
import type { ProviderRow } from './repo.js'

/** Plain-HTTP issuers are accepted only on this machine (a provider under test or a local proxy). */
export function insecureAllowed(issuer: URL): boolean {
  return issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname)
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000
const cache = new Map<string, { config: client.Configuration; at: number }>()

/** The provider's discovered configuration (cached 10 minutes, and dropped when the provider changes). */
export async function providerConfiguration(provider: ProviderRow, clientSecret: string): Promise<client.Configuration> {
  const key = `${provider.id}:${provider.updated_at}`
  const hit = cache.get(key)
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config
  const issuer = new URL(provider.issuer_url)
  const config = await client.discovery(
    issuer,
    provider.client_id,
    undefined,
    client.ClientSecretBasic(clientSecret),
    insecureAllowed(issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
  )
  for (const k of cache.keys()) if (k.startsWith(`${provider.id}:`)) cache.delete(k)
  cache.set(key, { config, at: Date.now() })
  return config
}

export interface AuthorizationStart {
  url: URL
  state: string
  nonce: string
  codeVerifier: string
}

/** The provider's authorization URL for the code flow with PKCE (S256), a state and a nonce. */
export async function startAuthorization(config: client.Configuration, redirectUri: string): Promise<AuthorizationStart> {
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  })
  return { url, state, nonce, codeVerifier }
}

export interface OidcIdentity {
  subject: string
  name: string | null
  email: string | null
}

/** Exchanges the code (state, nonce and PKCE checked by openid-client) and reads who signed in. */
export async function finishAuthorization(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<OidcIdentity> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.codeVerifier,
    idTokenExpected: true,
  })
  const claims = tokens.claims()
  if (!claims) throw new Error('the provider sent no ID token')
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null)
  let profile: Record<string, unknown> = claims
  // Most providers put the profile claims in the user info, not in the ID token of a code flow.
  if (!text(claims.preferred_username) && !text(claims.email) && tokens.access_token) {
    profile = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims }
  }
  return {
    subject: claims.sub,
    name: text(profile.preferred_username) ?? text(profile.email) ?? text(claims.sub),
    email: text(profile.email),
  }
}
