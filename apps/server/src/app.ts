import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyCompress from '@fastify/compress'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import { advisoryDatabaseNotice } from '@trove/contracts/scanner'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify'
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { Logger } from 'pino'
import { csrfBoundSessions, defaultAccess, enforceAccess, requireAccessRules, scopeCappedRoutes } from './core/access.js'
import { BlobStore } from './core/blobStore.js'
import { type ClusterIdentity, clusterIdentity, NODE_SIGNATURE_HEADER, verifyNodeCall } from './core/cluster.js'
import type { Config } from './core/config.js'
import type { AppContext, BuildInfo } from './core/context.js'
import { armCrashPoints } from './core/crashPoints.js'
import { type Db, openDb } from './core/db.js'
import { refuseNulBytes, registerErrorHandling, sendError } from './core/errors.js'
import { createServiceLogger } from './core/logger.js'
import { migrateToLatest } from './core/migrate.js'
import { RequestSummaryLog } from './core/requestLog.js'
import { S3Objects } from './core/s3Objects.js'
import { SecretBox } from './core/secretBox.js'
import { asPage, htmlIsPage, onlyFilesOn, securityHeaders } from './core/securityHeaders.js'
import { SIBLING_WAIT_MS, WorkerLink } from './core/workers.js'
import {
  allKept,
  conditionalAnswers,
  type FormatContext,
  filesChangedHooks,
  formats,
  onKeepFailure,
  repositoryPathRoutes,
} from './formats/index.js'
import {
  accessAdminRoutes,
  accessSelfRoutes,
  accountAdminRoutes,
  accountRoutes,
  authRoutes,
  CallerCache,
  cliLoginRoutes,
  ensureFirstAdmin,
  type FirstAdmin,
  mfaRoutes,
  PermissionAuthorizer,
  passwordAdminRoutes,
  passwordRoutes,
  principalResolver,
  profileRoutes,
  securityRoutes,
  signInLockRoutes,
  ssoAdminRoutes,
  ssoRoutes,
  tokenRoutes,
} from './identity/index.js'
import { artifactConsoleRoutes, artifactRestRoutes, nativeListingRoutes } from './services/artifacts/index.js'
import { consoleIndex, consoleRoutes, isConsolePath } from './services/console/index.js'
import { contactAdminRoutes, contactRoutes } from './services/contact/index.js'
import { dashboardRoutes } from './services/dashboard/index.js'
import { registerDistribution } from './services/distribution/index.js'
import { accountPortalRoutes, enforceReadOnly, instanceAdminRoutes, startupRoutes } from './services/instance/index.js'
import { GitIntegrationService, integrationRoutes, vcsIntegrationRoutes } from './services/integrations/index.js'
import { onboardingRoutes } from './services/onboarding/index.js'
import { doctorRoutes, Operations, operationsRoutes } from './services/operations/index.js'
import { packagesRoutes } from './services/packages/index.js'
import {
  buildScanRoutes,
  databaseState,
  npmBulkAdvisories,
  PolicyService,
  ScannerService,
  scannerRoutes,
} from './services/scanner/index.js'
import { systemRoutes } from './services/system/index.js'
import { packagesChanged, packagesChangedBy } from './storage/answerCache.js'
import { ArtifactService } from './storage/artifacts.js'
import { quickSetupRoutes, repositoryAdminRoutes, repositoryRoutes } from './storage/routes.js'
import { RepositoryService } from './storage/service.js'
import { ArtifactTreeService } from './storage/treeService.js'

/** The service id of this process in log file names and, later, in the node registry. */
export const SERVICE_ID = 'trove'

export interface App {
  fastify: FastifyInstance
  db: Db
  logger: Logger
  /** The first administrator, when this start created it. */
  firstAdmin: FirstAdmin | null
  /** This node in the cluster: its heartbeat, logs and support bundles. */
  operations: Operations
  /** Every registered route, with its declared access rule (the route-walk test reads it). */
  routes: RouteOptions[]
  /** The link to the node's other worker processes, when it runs several (core/workers.ts). */
  link: WorkerLink | undefined
  /** Git integrations and the repositories cloned for scanning. */
  gitIntegrations: GitIntegrationService
  scanner: ScannerService
  distribution: Awaited<ReturnType<typeof registerDistribution>>
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

/** Tables whose writes by a sibling worker drop what this one cached outside the write listeners. */
const SIBLING_DROPS = {
  repositories: ['repositories', 'repository_members'],
  access: [
    'settings',
    'users',
    'groups',
    'group_members',
    'permission_targets',
    'permission_grants',
    'roles',
    'projects',
    'project_members',
  ],
  // Not file_properties: no kept answer shows a file's properties, and a deploy writes them with
  // no repository named (which would drop every repository's answers on every other node).
  packages: [
    'packages',
    'package_versions',
    'package_tags',
    'package_dependencies',
    'dist_tags',
    'files',
    'repositories',
    'repository_members',
    'builds',
    'build_items',
    'scan_status',
  ],
}
const touches = (tables: ReadonlySet<string>, names: readonly string[]) => tables.has('*') || names.some((n) => tables.has(n))

/** Builds the whole server: database migrated, first admin ensured, every module registered. Tests call this. */
export interface BuildOptions {
  /** Registers extra routes before the app is ready (tests use it for routes that fail on purpose). */
  extend?: (app: FastifyInstance) => Promise<void> | void
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const log = createServiceLogger(config.dataDir, SERVICE_ID, config.log)
  const db = await openDb(config, (err) => {
    try {
      log.logger.warn({ err }, 'database connection lost; the next query opens a new one')
    } catch {
      // the log is closed: the app is shutting down
    }
  })
  let firstAdmin: FirstAdmin | null
  const secrets = SecretBox.open(config.dataDir, config.masterKey)
  let cluster: ClusterIdentity
  try {
    const applied = await migrateToLatest(db)
    if (applied.length > 0) log.logger.info({ applied, database: db.dialect }, 'database migrated')
    cluster = await clusterIdentity(db.kysely, config.dataDir, secrets)
    firstAdmin = await ensureFirstAdmin(db.kysely, config)
  } catch (error) {
    await db.close()
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
    // Path parameters are bounded by each route's schema (a build name may be 255 characters,
    // 2295 once URL-encoded); the router's default of 100 answered 414 to names the API accepts.
    routerOptions: { maxParamLength: 4096 },
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  const build = readBuildInfo()
  const authz = new PermissionAuthorizer(db.kysely)
  const resolvePrincipal = principalResolver(db.kysely, new CallerCache(db.kysely, db.writes))
  // Membership of a group with admin privileges makes a user an administrator everywhere.
  const principal: AppContext['principal'] = async (request) => {
    const p = await resolvePrincipal(request)
    if (p && !p.admin && (await authz.isAdmin(p))) p.admin = true
    return p
  }
  const ctx: AppContext = { config, db, build, principal, secrets, cluster, authz }
  const link =
    config.workers.count > 1
      ? new WorkerLink(db.writes, () => log.logger.warn(`a sibling worker took over ${SIBLING_WAIT_MS} ms to apply a write`))
      : undefined

  const routes = requireAccessRules(app)
  registerErrorHandling(app)

  securityHeaders(app)
  const downloadHost = config.downloadBaseUrl ? new URL(config.downloadBaseUrl).host : undefined
  if (downloadHost) onlyFilesOn(app, downloadHost)
  refuseNulBytes(app)
  let shuttingDown = false
  // A response finished during shutdown closes its connection, so a keep-alive client does not
  // hold the server open until its idle timeout.
  // So does an answer sent before the request's body was all received (an upload refused or failed
  // half-way): the rest is never read, and the client would wait to send it on a connection that
  // stays open for ever.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (shuttingDown || request.raw.complete === false) reply.header('connection', 'close')
    done(null, payload)
  })
  // A keep-alive connection whose last answer was still being written when the close began is not
  // idle then, and would stay open for the keep-alive timeout (72 s), holding the shutdown past its
  // limit: while the server closes, connections are closed as soon as they are idle.
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50)
    app.server.once('close', () => clearInterval(sweep))
    done()
  })
  if (link) {
    // An answer leaves once the sibling workers have applied the writes made so far: the client's
    // next request may reach any of them, and must see what this one wrote.
    app.addHook('onSend', (_request, _reply, payload, done) => {
      if (link.pending === 0) done(null, payload)
      else void link.settled().then(() => done(null, payload))
    })
  }

  // Validators and 304s on the package protocols' metadata, computed before compression.
  conditionalAnswers(app)
  onKeepFailure((error, key) =>
    app.log.warn({ err: error }, `a fetched copy was answered but not kept (${key.replaceAll('\0', ' ')})`),
  )
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { 1: 4 } }, // BROTLI_PARAM_QUALITY = 4: fast enough to compress on the fly
  })
  enforceAccess(app, ctx.principal, async (p) => (await authz.projectAdminOf(p.userId)).length > 0)
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
    htmlIsPage(docs, config.baseUrl, '/api/docs')
    // Tags start folded: drawing every operation of the whole API at once took seconds.
    await docs.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      // No staticCSP: the reference's page loads only its own scripts, so the server's policy
      // (core/securityHeaders.ts) serves it; the plugin's own would add upgrade-insecure-requests,
      // which breaks the page on a plain-HTTP install, and allow styles and fonts from anywhere.
      uiConfig: { docExpansion: 'none', deepLinking: true, defaultModelsExpandDepth: -1 },
    })
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => docs.swagger())
  })

  for (const prefix of ['/api/system', '/artifactory/api/system']) {
    await app.register(systemRoutes(ctx), { prefix })
  }
  await app.register(doctorRoutes(ctx), { prefix: '/api/system' })
  await app.register(authRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(mfaRoutes(ctx), { prefix: '/ui/api/v1/ui/auth/mfa' })
  await app.register(passwordRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(passwordAdminRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(signInLockRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(accountRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(accountAdminRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(tokenRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(profileRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(cliLoginRoutes(ctx), { prefix: '/access/api' })
  await app.register(securityRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  const operations = new Operations(ctx, log.logger)
  await app.register(operationsRoutes(ctx, operations), { prefix: '/ui/api/v1' })
  if (!link) app.addHook('onListen', async () => operations.listening(app.server.address()))
  else {
    // The workers share one port, which names none of them: each also listens on a port of its
    // own, where its peers reach it (a log request for this node, say). That port takes signed
    // calls between nodes only: users and tools go through the shared port (and any proxy before it).
    const own = http.createServer((req, res) => {
      const signature = req.headers[NODE_SIGNATURE_HEADER]
      if (
        verifyNodeCall(
          operations.cluster.secret,
          typeof signature === 'string' ? signature : undefined,
          req.method ?? '',
          req.url ?? '',
        )
      ) {
        app.server.emit('request', req, res)
        return
      }
      res.writeHead(403, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ errors: [{ status: 403, message: 'This port takes calls between nodes only' }] }))
    })
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve, reject) => {
        own.once('error', reject)
        own.listen({ host: config.host, port: 0, exclusive: true }, resolve)
      })
      await operations.listening(own.address())
    })
    app.addHook('onClose', async () => {
      own.closeAllConnections()
      await new Promise<void>((resolve) => own.close(() => resolve()))
    })
  }
  await app.register(ssoRoutes(ctx), { prefix: '/ui/api/v1/ui/auth' })
  await app.register(ssoAdminRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(accessAdminRoutes(ctx, authz), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(accessSelfRoutes(ctx, authz), { prefix: '/ui/api/v1/ui/access' })

  // Repositories and the package formats.
  // Blobs in a bucket: the bucket must answer before anything is served (a misconfigured one stops the start).
  const s3 = config.repositories.s3 ? new S3Objects(config.repositories.s3) : undefined
  try {
    await s3?.check()
  } catch (error) {
    s3?.destroy()
    await db.close()
    await log.close()
    throw error
  }
  const blobs = new BlobStore(config.dataDir, db.kysely, config.repositories.uploadMaxBytes, packagesChanged, config.node.id, s3)
  const leftTemp = await blobs.recover()
  if (leftTemp > 0) log.logger.info({ files: leftTemp }, 'removed temp files of uploads a stopped process cut off')
  const repos = new RepositoryService(db.kysely, ctx.secrets)
  db.writes.on((tables, fromSibling) => {
    if (!fromSibling) return
    if (touches(tables, SIBLING_DROPS.repositories)) repos.forgetAll()
    if (touches(tables, SIBLING_DROPS.access)) authz.invalidate()
    packagesChangedBy(tables, SIBLING_DROPS.packages)
  })
  const fctx: FormatContext = {
    ...ctx,
    principal: csrfBoundSessions(ctx.principal),
    blobs,
    repos,
    artifacts: new ArtifactService(db.kysely, blobs, db.writes),
    baseUrl: (request) => config.baseUrl ?? `${request.protocol}://${request.host}`,
    advisories: {
      npmBulk: (request, linkOf) => npmBulkAdvisories(db.kysely, request, linkOf),
      notice: async () => {
        const state = await databaseState(db.kysely)
        return advisoryDatabaseNotice(state.advisories, state.updatedAt)
      },
    },
  }
  fctx.artifacts.downloadHost = downloadHost
  for (const prefix of ['/api', '/artifactory/api']) await app.register(repositoryRoutes(fctx), { prefix })
  await app.register(repositoryAdminRoutes(fctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(quickSetupRoutes(fctx), { prefix: '/ui/api/v1/ui/onboarding' })
  await app.register(onboardingRoutes(fctx), { prefix: '/ui/api/v1/ui' })
  // Package clients' protocols: their handlers cap a token's actions by its scope (ctx.authz).
  await app.register(async (protocols) => {
    scopeCappedRoutes(protocols)
    for (const format of formats) if (format.routes) await protocols.register(format.routes(fctx))
    await protocols.register(repositoryPathRoutes(fctx, formats))
  })
  await app.register(packagesRoutes(fctx))
  const tree = new ArtifactTreeService(fctx, filesChangedHooks(fctx))
  await app.register(artifactConsoleRoutes(fctx, tree), { prefix: '/ui/api/v1/ui/artifacts' })
  for (const prefix of ['/api', '/artifactory/api']) await app.register(artifactRestRoutes(fctx, tree), { prefix })
  await app.register(nativeListingRoutes(fctx, tree))
  // Of several workers, the first collects garbage for the node.
  const gcTimer =
    config.repositories.blobGcIntervalS > 0 && config.workers.index <= 1
      ? setInterval(() => {
          fctx.artifacts
            .expireRemoteCaches()
            .then(() => blobs.collectGarbage())
            .then(() => blobs.later.sweep())
            .catch((err) => log.logger.error({ err }, 'blob garbage collection failed'))
        }, config.repositories.blobGcIntervalS * 1000).unref()
      : undefined
  await app.register(startupRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(instanceAdminRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(contactRoutes(ctx), { prefix: '/ui/api/v1' })
  await app.register(contactAdminRoutes(ctx), { prefix: '/ui/api/v1/ui/admin' })
  await app.register(accountPortalRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  await app.register(dashboardRoutes(ctx), { prefix: '/ui/api/v1/ui' })
  const gitIntegrations = new GitIntegrationService(db.kysely, ctx.secrets, config, log.logger)
  await app.register(integrationRoutes(ctx, gitIntegrations), { prefix: '/ui/api/v1/integration' })
  await app.register(vcsIntegrationRoutes(gitIntegrations), { prefix: '/ui/api/v1/xray/ui' })
  const scanner = new ScannerService(db, blobs, config, log.logger.child({ module: 'scanner' }))
  const policies = new PolicyService(db.kysely, db.writes)
  fctx.artifacts.downloadGate = (file) => policies.downloadBlocked(file.version_id ?? 0, file.repo_key)
  await app.register(scannerRoutes(ctx, scanner, policies), { prefix: '/ui/api/v1/xray/ui' })
  await app.register(buildScanRoutes(ctx, policies), { prefix: '/xray/api/v1' })
  // Of several workers, the first asks the vendors again; claiming each row (repo.claimCheck)
  // keeps several nodes from asking the same vendor twice in one interval.
  const retestS = config.integrations.gitRetestIntervalS
  const retestTimer =
    retestS > 0 && config.workers.index <= 1
      ? setInterval(() => {
          gitIntegrations.retestDue().catch((err) => log.logger.error({ err }, 're-testing git integrations failed'))
        }, retestS * 1000).unref()
      : undefined

  // The scanner module scans on every worker (claims keep two from scanning one version); the
  // first worker of a scanner node checks once an hour whether the advisory feed is due.
  scanner.start()
  const feedTimer =
    scanner.enabled && config.workers.index <= 1
      ? setInterval(() => {
          scanner.syncIfDue().catch((err) => log.logger.error({ err, module: 'scanner' }, 'syncing the advisory feed failed'))
        }, 3600_000).unref()
      : undefined
  // The same worker clones again the selected git repositories that are due (each row claimed
  // first, so of several scanner nodes one clones it), looking once a minute at most.
  const refreshS = config.integrations.gitRefreshIntervalS
  const cloneTimer =
    scanner.enabled && refreshS > 0 && config.workers.index <= 1
      ? setInterval(() => {
          gitIntegrations.refreshDue().catch((err) => log.logger.error({ err }, 'cloning git repositories again failed'))
        }, Math.min(60, refreshS) * 1000).unref()
      : undefined

  const distribution = await registerDistribution(
    app,
    fctx,
    log.logger.child({ module: 'distribution' }),
    {
      id: operations.cluster.id,
      url: config.baseUrl ?? config.node.url ?? '',
    },
    formats,
  )

  const sendIndex = consoleIndex(config.webDir, (request, reply) => asPage(request, reply, config.baseUrl))
  await app.register(consoleRoutes, { webDir: config.webDir, sendIndex })

  if (options.extend) await app.register(async (child) => options.extend?.(child as unknown as FastifyInstance))

  app.setNotFoundHandler((request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && isConsolePath(request.url)) return sendIndex(reply)
    return sendError(reply, 404, `Not found: ${request.method} ${request.url.split('?')[0]}`)
  })

  app.addHook('onClose', async () => {
    if (gcTimer) clearInterval(gcTimer)
    if (retestTimer) clearInterval(retestTimer)
    if (feedTimer) clearInterval(feedTimer)
    if (cloneTimer) clearInterval(cloneTimer)
    await scanner.stop()
    await distribution.close()
    await gitIntegrations.idle()
    // What remotes fetched is kept before the store and the database close.
    await allKept()
    await blobs.close()
    s3?.destroy()
    await fctx.artifacts.flushDownloads()
    await db.close()
  })
  await operations.start()
  // Checksums a stopped node left for later are done by whichever node starts next.
  if (config.workers.index <= 1) {
    blobs.later.sweep().catch((err) => log.logger.error({ err }, 'queueing checksums left for later failed'))
  }

  // Start-up's own writes are done: crash points (tests only) count from here.
  armCrashPoints(config.faults.crashAt, config.faults.crashTrace)

  let closing: Promise<void> | undefined
  return {
    fastify: app,
    db,
    logger: log.logger,
    firstAdmin,
    operations,
    routes,
    link,
    gitIntegrations,
    scanner,
    distribution,
    close: () => {
      closing ??= (async () => {
        shuttingDown = true
        await operations.stop()
        await app.close()
        log.logger.info('server stopped')
        await log.close()
      })()
      return closing
    },
  }
}
