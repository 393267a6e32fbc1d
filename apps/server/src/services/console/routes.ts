import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { defaultAccess } from '../../core/access.js'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const NEVER = 'no-store'

export type IndexSender = (reply: FastifyReply) => FastifyReply

/** Answers with the console's index.html (never cached), or a 503 that says how to build it. */
export function consoleIndex(webDir: string, asPage: (request: FastifyRequest, reply: FastifyReply) => void): IndexSender {
  const indexFile = path.join(webDir, 'index.html')
  return (reply) => {
    asPage(reply.request, reply)
    if (!fs.existsSync(indexFile)) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(`The console is not built: run "npm run build" (looked in ${webDir}).`)
    }
    return reply.header('cache-control', NEVER).type('text/html; charset=utf-8').send(fs.createReadStream(indexFile))
  }
}

/** Serves the built console under /ui/ in history mode; `/` leads into it. */
export async function consoleRoutes(app: FastifyInstance, options: { webDir: string; sendIndex: IndexSender }): Promise<void> {
  defaultAccess(app, 'public')
  if (fs.existsSync(options.webDir)) {
    await app.register(fastifyStatic, {
      root: options.webDir,
      prefix: '/ui/',
      index: false,
      wildcard: true,
      // Vite writes .br and .gz beside each asset; they are sent as-is to clients that accept them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // Only content-hashed files under assets/ may be cached; everything else is revalidated.
        res.setHeader('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : NEVER)
      },
    })
  }

  app.get('/', async (_request, reply) => reply.redirect('/ui/'))
  app.get('/ui', async (_request, reply) => reply.redirect('/ui/'))
  app.get('/ui/', async (_request, reply) => options.sendIndex(reply))
}

/** True for paths the console's router owns: /ui/... but not its API or its built assets. */
export function isConsolePath(url: string): boolean {
  const pathname = url.split('?')[0] ?? ''
  return pathname.startsWith('/ui/') && !pathname.startsWith('/ui/api/') && !pathname.startsWith('/ui/assets/')
}
