import type { FastifyInstance } from 'fastify'
import { sessionHeaders, signIn } from '../../../test/testApp.js'

/** Test helpers of the access area: real calls only. */
export const ADMIN_API = '/ui/api/v1/ui/admin'

export async function adminHeaders(fastify: FastifyInstance) {
  return sessionHeaders(await signIn(fastify))
}

/** Creates a user through the admin API and returns a bearer header for them. */
export async function userWithToken(
  fastify: FastifyInstance,
  admin: Record<string, string>,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ authorization: string }> {
  const password = `${name}-password-1`
  const created = await fastify.inject({
    method: 'POST',
    url: `${ADMIN_API}/users`,
    headers: admin,
    payload: { name, password, email: `${name}@example.com`, ...extra },
  })
  if (created.statusCode !== 201) throw new Error(`user not created: ${created.body}`)
  return tokenFor(fastify, name, password)
}

export async function tokenFor(fastify: FastifyInstance, name: string, password: string): Promise<{ authorization: string }> {
  const session = await signIn(fastify, name, password)
  const token = await fastify.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/userIdentifyToken/${name}`,
    headers: sessionHeaders(session),
    payload: { expiresIn: 3600 },
  })
  if (token.statusCode !== 200) throw new Error(`token not created: ${token.body}`)
  return { authorization: `Bearer ${token.json().access_token}` }
}
