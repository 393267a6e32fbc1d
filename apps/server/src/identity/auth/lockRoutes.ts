import { SignInLock } from '@trove/contracts/access'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { notFound } from '../../core/errors.js'
import { recordEvent } from '../access/audit.js'
import { findUserByName } from '../users/repo.js'
import { clearUser, userLockedUntil } from './throttle.js'

const NameParam = z.object({ name: z.string().min(1).max(256) })

/**
 * An administrator sees and lifts a user's sign-in lock (the Users screen), or every lock at once,
 * addresses' included (an office behind one address locked out by someone's script).
 */
export const signInLockRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const existing = async (name: string) => {
      const user = await findUserByName(db, name)
      if (!user) throw notFound(`User ${name} does not exist`)
      return user
    }
    const actorOf = async (request: FastifyRequest) => (await ctx.principal(request))?.name ?? 'unknown'
    app.get(
      '/users/:name/signInLock',
      {
        config: { access: 'admin' },
        schema: { tags: ['access'], summary: "A user's sign-in lock", params: NameParam, response: { 200: SignInLock } },
      },
      async (request) => ({ lockedUntil: await userLockedUntil(db, (await existing(request.params.name)).name) }),
    )
    app.delete(
      '/users/:name/signInLock',
      {
        config: { access: 'admin' },
        schema: { tags: ['access'], summary: "Lift a user's sign-in lock, from every address", params: NameParam },
      },
      async (request, reply) => {
        const user = await existing(request.params.name)
        await clearUser(db, user.name)
        await recordEvent(db, {
          actor: await actorOf(request),
          action: 'signin.unlocked',
          targetType: 'user',
          targetName: user.name,
        })
        return reply.code(204).send()
      },
    )
    app.delete(
      '/security/signInLocks',
      {
        config: { access: 'admin' },
        schema: { tags: ['security'], summary: 'Lift every sign-in lock: names, addresses, one-time codes and links' },
      },
      async (request, reply) => {
        await db.deleteFrom('signin_failures').execute()
        await recordEvent(db, {
          actor: await actorOf(request),
          action: 'signin.unlockedAll',
          targetType: 'security',
          targetName: '*',
        })
        return reply.code(204).send()
      },
    )
  }
