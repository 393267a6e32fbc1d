import { z } from 'zod'

export const VersionInfo = z
  .object({
    version: z.string(),
    revision: z.string(),
    node: z.string().describe('Node.js version the server runs on'),
  })
  .meta({ id: 'VersionInfo' })
export type VersionInfo = z.infer<typeof VersionInfo>
