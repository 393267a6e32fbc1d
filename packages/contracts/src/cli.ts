import { z } from 'zod'

/** The session id a command-line client makes up and shows as its last 4 characters. */
export const CliSession = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[\w-]+$/, 'letters, digits, _ and - only')
export { CLI_CODE_LENGTH } from './limits.js'

export const CliLoginRequest = z.object({ session: CliSession }).meta({ id: 'CliLoginRequest' })

/** What the client collects once the browser approved (shell §4.4 CLI hand-off). */
export const CliTokens = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    expires_in: z.number().int().describe('seconds'),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'CliTokens' })
export type CliTokens = z.infer<typeof CliTokens>

export const RefreshRequest = z.object({ refresh_token: z.string().min(1).max(256) }).meta({ id: 'RefreshRequest' })
