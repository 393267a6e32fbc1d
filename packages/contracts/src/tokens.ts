import { z } from 'zod'

/** Access tokens live from one minute to one year. */
export const TOKEN_MIN_EXPIRES_IN = 60
export const TOKEN_MAX_EXPIRES_IN = 365 * 24 * 60 * 60

/**
 * What an access token may do, within what its owner may do:
 * - full: everything the owner may do (the default; API keys are always full);
 * - deploy: read, annotate and deploy on repositories, builds and release bundles; nothing else
 *   changes (no delete or overwrite, no management, no admin or account changes);
 * - read: read only; every call that changes something is refused.
 */
export const TOKEN_SCOPES = ['full', 'deploy', 'read'] as const
export const TokenScope = z.enum(TOKEN_SCOPES)
export type TokenScope = z.infer<typeof TokenScope>

/** Body of POST /ui/api/v1/ui/userIdentifyToken/{name}: lifetime in seconds, and the scope. */
export const CreateAccessTokenRequest = z
  .object({
    expiresIn: z.number().int().min(TOKEN_MIN_EXPIRES_IN).max(TOKEN_MAX_EXPIRES_IN).default(3600),
    description: z.string().max(255).optional(),
    scope: TokenScope.default('full'),
  })
  .meta({ id: 'CreateAccessTokenRequest' })

export const AccessTokenCreated = z
  .object({
    token_id: z.string(),
    access_token: z.string().describe('Shown once: only a hash is kept'),
    expires_in: z.number().int(),
    token_type: z.literal('Bearer'),
    username: z.string(),
    scope: TokenScope,
  })
  .meta({ id: 'AccessTokenCreated' })
export type AccessTokenCreated = z.infer<typeof AccessTokenCreated>

export const TokenInfo = z
  .object({
    id: z.string(),
    description: z.string().nullable(),
    createdAt: z.number().int(),
    expiresAt: z.number().int().nullable(),
    lastUsedAt: z.number().int().nullable(),
    scope: TokenScope,
  })
  .meta({ id: 'TokenInfo' })
export type TokenInfo = z.infer<typeof TokenInfo>

/** API-key response (operations §3): the key, or null when the user has none. */
export const ApiKeyResponse = z.object({ apiKey: z.string().nullable() }).meta({ id: 'ApiKeyResponse' })
export type ApiKeyResponse = z.infer<typeof ApiKeyResponse>
