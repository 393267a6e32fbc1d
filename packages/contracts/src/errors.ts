import { z } from 'zod'

/** The one shape every error leaves the server in. */
export const ErrorBody = z
  .object({
    errors: z.array(z.object({ status: z.number().int(), message: z.string(), code: z.string().optional() })).min(1),
  })
  .meta({ id: 'ErrorBody' })
export type ErrorBody = z.infer<typeof ErrorBody>
