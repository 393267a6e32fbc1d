import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyCompress from '@fastify/compress'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { Logger } from 'pino'
import type { Config } from './config.js'
import { defaultAccess, enforceAccess, requireAccessRules } from './core/access.js'
import type { AppContext, BuildInfo } from './core/context.js'
import { type Db, openDb } from './core/db.js'
import { registerErrorHandling, sendError } from './core/errors.js'
import { createServiceLogger } from './core/logger.js'
import { migrateToLatest } from './core/migrate.js'
import { baselineAuthorizer } from './core/permissions.js'
import { RequestSummaryLog } from './core/requestLog.js'
import { SecretBox } from './core/secretBox.js'
import { securityHeaders } from './core/securityHeaders.js'
import { accountAdminRoutes, accountRoutes } from './modules/auth/accountRoutes.js'
import { mfaRoutes } from './modules/auth/mfaRoutes.js'
import { passwordAdminRoutes, passwordRoutes } from './modules/auth/passwordRoutes.js'
import { principalResolver } from './modules/auth/principal.js'
import { authRoutes } from './modules/auth/routes.js'
import { cliLoginRoutes } from './modules/cliLogin/routes.js'
import { consoleIndex, consoleRoutes, isConsolePath } from './modules/console/routes.js'
import { instanceAdminRoutes } from './modules/instance/adminRoutes.js'
import { enforceReadOnly } from './modules/instance/readOnly.js'
import { startupRoutes } from './modules/instance/routes.js'
import { securityRoutes } from './modules/security/routes.js'
import { systemRoutes } from './modules/system/routes.js'
import { tokenRoutes } from './modules/tokens/routes.js'
import { ensureFirstAdmin, type FirstAdmin } from './modules/users/bootstrap.js'
import { profileRoutes } from './modules/users/profileRoutes.js'

/** The service id of this process in log file names and, later, in the node registry. */
export const SERVICE_ID = 'trove'

export interface App {
  fastify: FastifyInstance
  db: Db
  logger: Logger
  /** The first administrator, when this start created it. */
  firstAdmin: FirstAdmin | null
  /** Stops accepting connections, lets in-flight requests finish, closes the database and the logs. */
  close: () => Promise<void>
}

function readBuildInfo(): BuildInfo {
  const here = path.dirname(fileURLToPath(import.meta.url))
  for (const candidate of [path.join(here, '../build-info.json'), path.join(here, '../dist/build-info.json')]) {
    if (fs.existsSync(candidate)) return JSON.parse(fs.readFileSync(candidate, 'utf8')) as BuildInfo
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(here, '../package.json'), 'utf8')) as { version: string }
  return { version: pkg.version, revision: 'dev' }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/

/** Builds the whole server: database migrated, first admin ensured, every module registered. Tests call this. */
export interface BuildOptions {
  /** Registers extra routes before the app is ready (tests use it for routes that fail on purpose). */
  extend?: (app: FastifyInstance) => Promise<void> | void
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const log = createServiceLogger(config.dataDir, SERVICE_ID, config.log)
  const db = await openDb(config)
  let firstAdmin: FirstAdmin | null
  try {
    const applied = await migrateToLatest(db)
    if (applied.length > 0) log.logger.info({ applied, database: db.dialect }, 'database migrated')
    firstAdmin = await ensureFirstAdmin(db.kysely, config)
  } catch (error) {
    await db.kysely.destroy()
    await log.close()
    throw error
  }

  const app = Fastify({
    loggerInstance: log.logger as FastifyBaseLogger,
    logController: new RequestSummaryLog(),
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  const build = readBuildInfo()
  const ctx: AppContext = {
    config,
    db,
    build,
    principal: principalResolver(db.kysely),
    secrets: SecretBox.open(config.dataDir),
    authz: baselineAuthorizer,
  }

  requireAccessRules(app)
  registerErrorHandling(app)

  securityHeaders(app)
  let shuttingDown = false
  // A response finished during shutdown closes its connection, so a keep-alive client does not
  // hold the server open until its idle timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (shuttingDown) reply.header('connection', 'close')
    done(null, payload)
  })

  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { 1: 4 } }, // BROTLI_PARAM_QUALITY = 4: fast enough to compress on the fly
  })
  enforceAccess(app, ctx.principal)
  enforceReadOnly(app, db.kysely)

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Trove API',
        version: build.version,
        description: 'The calls of the Trove console and of tools and scripts.',
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  })
  await app.register(async (docs) => {
    defaultAccess(docs, 'public')
    await docs.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true })
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => docs.swagger())
  })

  for (const prefix of ['/api/system', '/artifactory/api/system']) {
    await app.register(systemRoutes(ctx), { prefix })
  }
  await app.register(authRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(mfaRoutes(ctx), { prefix: '/ui/api/v1/ui/auth/mfa' })
  await app.register(passwordRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(passwordAdminRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(accountRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(accountAdminRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(tokenRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(profileRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(cliLoginRoutes(ctx), { prefix: '/access/api' })
  await app.register(securityRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(startupRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(instanceAdminRoutes(ctx), { prefix: '/ui/api/v1/ui' })

  const sendIndex = consoleIndex(config.webDir)
  await app.register(consoleRoutes, { webDir: config.webDir, sendIndex })

  if (options.extend) await app.register(async (child) => options.extend?.(child as unknown as FastifyInstance))

  app.setNotFoundHandler((request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && isConsolePath(request.url)) return sendIndex(reply)
    return sendError(reply, 404, `Not found: ${request.method} ${request.url.split('?')[0]}`)
  })

  app.addHook('onClose', async () => {
    await db.kysely.destroy()
  })

  let closing: Promise<void> | undefined
  return {
    fastify: app,
    db,
    logger: log.logger,
    firstAdmin,
    close: () => {
      closing ??= (async () => {
        shuttingDown = true
        await app.close()
        log.logger.info('server stopped')
        await log.close()
      })()
      return closing
    },
  }
}
