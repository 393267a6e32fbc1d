/// <reference path="./oidc-provider.d.ts" />
import crypto from 'node:crypto'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// oidc-provider prints development notices (in-memory store, dev login form, Node version) that
// say nothing about the test: keep the output quiet.
for (const level of ['warn', 'info'] as const) {
  const original = console[level].bind(console)
  console[level] = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider ')) return
    original(...args)
  }
}
const { default: Provider } = await import('oidc-provider')

export interface TestIdentityProvider {
  issuer: string
  clientId: string
  clientSecret: string
  close: () => Promise<void>
}

/**
 * A real OpenID Connect provider (oidc-provider) on a free local port, with its development
 * login form (any user name and password sign in) and consent given on the user's behalf.
 * Its client is confidential (client_secret_basic) and must use PKCE.
 */
export async function startIdentityProvider(redirectUri: string): Promise<TestIdentityProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end()
  const server = http.createServer((req, res) => handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = 'trove'
  const clientSecret = crypto.randomBytes(24).toString('base64url')
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email'], profile: ['preferred_username'] },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, preferred_username: sub, email: `${sub}@example.test` }),
    }),
    // Consent is not what is under test: the grant is given as asked.
    loadExistingGrant: async (ctx: {
      oidc: { provider: { Grant: new (o: object) => GrantLike }; client: { clientId: string }; session: { accountId: string } }
    }) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  handler = provider.callback()
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

interface GrantLike {
  addOIDCScope: (scope: string) => void
  save: () => Promise<string>
}
