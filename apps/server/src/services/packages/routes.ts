import {
  ArtifactBuildsResponse,
  ArtifactCountResponse,
  ArtifactRef,
  BuildInfoInput,
  DependenciesResponse,
  DockerLayersRequest,
  DockerLayersResponse,
  DownloadQuery,
  MdsRequest,
  PropertiesResponse,
  ReadmeQuery,
  ReadmeResponse,
  VersionRefQuery,
} from '@trove/contracts/packages'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod'
import { type DocumentNode, GraphQLError, visit } from 'graphql'
import mercurius from 'mercurius'
import { z } from 'zod'
import { HttpError, notFound, sendError } from '../../core/errors.js'
import { htmlIsPage } from '../../core/securityHeaders.js'
import { attachment } from '../../core/servedContent.js'
import { type FormatContext, formatOf } from '../../formats/index.js'
import { AnswerCache } from '../../storage/answerCache.js'
import { artifactBuilds, buildInfo, buildRuns, buildsRoutes, listBuilds, publishBuild } from '../builds/index.js'
import { type GqlContext, resolvers, schema } from './graphql.js'
import { QUERY_LIMITS, queryCostRule } from './queryLimits.js'
import { PackagesService, type Viewer } from './service.js'

const tags = ['packages']
const CONSOLE = '/ui/api/v1'

interface ExecutionLike {
  data?: unknown
  errors?: readonly GraphQLError[]
}

/** Maps GraphQL errors to Trove's error body (`errors[].status` beside GraphQL's own fields). */
function formatErrors(errors: readonly unknown[], log: FastifyRequest['log']) {
  let status = 400
  const out = errors.flatMap((e) => {
    const nested = (e as { originalError?: { errors?: unknown[] } }).originalError?.errors
    return Array.isArray(nested) ? nested : [e]
  })
  const formatted = out.map((e) => {
    const error = e as GraphQLError & { originalError?: Error }
    const original = error.originalError
    if (original instanceof HttpError) {
      status = original.status
      return { status: original.status, message: original.message, path: error.path }
    }
    // A resolver that failed on something else than the caller's input (its error has a path).
    if (original && error.path && !(original instanceof GraphQLError)) {
      status = 500
      log.error({ err: original }, 'metadata query failed')
      return { status: 500, message: 'Internal server error', path: error.path }
    }
    return { status: 400, message: error.message, locations: error.locations }
  })
  return { status, errors: formatted.map((f) => ({ ...f, status })) }
}

export const INTROSPECTION_SIGNED_IN = 'Sign in to read the GraphQL schema'

/** True when a query asks about the schema itself (`__schema`, `__type`), not only `__typename`. */
export function asksForSchema(document: DocumentNode): boolean {
  let found = false
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') found = true
    },
  })
  return found
}

/**
 * The packages browser: the GraphQL metadata API at /metadata/api/v1/query (GraphiQL for
 * administrators at /metadata/api/v1/graphiql), the console's /mds calls that post to it, and the
 * calls of a version's tabs (readme, dependencies, properties, builds, docker layers, download).
 * Every answer holds only what the caller may read.
 */
export const packagesRoutes =
  (fctx: FormatContext): FastifyPluginAsyncZod =>
  async (app) => {
    const service = new PackagesService(fctx)
    await app.register(buildsRoutes(fctx))
    const viewerOf = (request: FastifyRequest) => {
      let viewer: Promise<Viewer> | undefined
      return () => {
        viewer ??= fctx.principal(request).then((p) => service.viewer(p))
        return viewer
      }
    }

    // Mercurius' own routes: the query endpoint is public (each answer is filtered by what the
    // caller may read), GraphiQL is for administrators.
    app.addHook('onRoute', (route) => {
      const url = String(route.url)
      if (!url.startsWith('/metadata/api/v1/')) return
      // The schema has queries only: a POST to the query endpoint changes nothing.
      route.config = { ...route.config, access: url.includes('/graphiql') ? 'admin' : 'public', reads: true }
    })
    // GraphiQL is a page of Trove's own (its scripts are served under its path).
    htmlIsPage(app, fctx.config.baseUrl, '/metadata/api/v1/graphiql')
    await app.register(mercurius, {
      schema,
      resolvers: resolvers as never,
      prefix: '/metadata/api/v1',
      path: '/query',
      graphiql: true,
      jit: 1,
      // Limits on what one query may ask for (queryLimits.ts): tokens while parsing, then fields and
      // depth with fragments followed, before anything runs.
      queryDepth: QUERY_LIMITS.depth,
      graphql: { parseOptions: { maxTokens: QUERY_LIMITS.tokens } },
      validationRules: [queryCostRule],
      // Mercurius describes its routes in JSON Schema; the app's zod compilers cannot read those.
      // Its handler checks the body itself, and answers are plain JSON.
      additionalRouteOptions: {
        // Left out of the OpenAPI document: the GraphQL schema (GraphiQL) describes this endpoint.
        schema: { hide: true },
        validatorCompiler: () => (value: unknown) => ({ value }),
        serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      },
      context: (request: FastifyRequest): Omit<GqlContext, 'reply'> => ({ viewer: viewerOf(request), packages: service }),
      // Errors before execution (the access rule's refusal, a body that is not JSON) leave in
      // Trove's shape with their code; GraphQL's own errors as the formatter below says.
      errorHandler: (error, request, reply) => {
        if (error instanceof HttpError) {
          sendError(reply, error.status, error.message, error.code)
          return
        }
        const nested = (error as { errors?: unknown[] }).errors
        const { status, errors } = formatErrors(Array.isArray(nested) ? nested : [error], request.log)
        reply.code(status).send({ data: null, errors })
      },
      errorFormatter: (execution, context) => {
        const log = (context as { reply?: FastifyReply }).reply?.log ?? app.log
        const { status, errors } = formatErrors(execution.errors ?? [], log)
        return { statusCode: status, response: { data: execution.data ?? null, errors: errors as never } }
      },
    })

    const graphql = (app as unknown as FastifyInstance).graphql
    // The schema is described to signed-in users only: an anonymous caller may query what
    // anonymous may read, not learn the API's shape.
    graphql.addHook('preExecution', async (_schema, document, context) => {
      if (!asksForSchema(document)) return
      const viewer = await (context as unknown as GqlContext).viewer()
      if (!viewer.principal) throw new HttpError(401, INTROSPECTION_SIGNED_IN)
    })
    // The console asks the same pages again and again (every visit to the list, every user with
    // the same permissions): whole answers are kept, as sent, while nothing changed.
    const answers = new AnswerCache(fctx.config.repositories.packagesCacheMs)
    const run = async (
      field: 'packages' | 'package' | 'versions',
      body: MdsRequest,
      request: FastifyRequest,
      context: Record<string, unknown>,
    ): Promise<{ status: number; text: string }> => {
      let result: ExecutionLike
      try {
        result = (await graphql(
          body.graphQL.query,
          context as never,
          body.graphQL.variables,
          body.graphQL.operationName,
        )) as ExecutionLike
      } catch (error) {
        const errs = (error as { errors?: unknown[] }).errors ?? [error]
        const { status, errors } = formatErrors(errs, request.log)
        return { status, text: JSON.stringify({ errors }) }
      }
      if (result.errors && result.errors.length > 0) {
        const status = (result.errors[0] as unknown as { status?: number }).status ?? 400
        return { status, text: JSON.stringify({ errors: result.errors }) }
      }
      const data = (result.data ?? {}) as Record<string, unknown>
      if (!(field in data)) {
        return {
          status: 400,
          text: JSON.stringify({ errors: [{ status: 400, message: `Invalid request: the query must select ${field}` }] }),
        }
      }
      if (field === 'package' && data.package === null) {
        return { status: 404, text: JSON.stringify({ errors: [{ status: 404, message: 'Package not found' }] }) }
      }
      return { status: 200, text: JSON.stringify(result) }
    }
    const mds = (field: 'packages' | 'package' | 'versions') =>
      async function handler(request: FastifyRequest, reply: FastifyReply) {
        const body = request.body as MdsRequest
        const viewer = viewerOf(request)
        const v = await viewer()
        const key = JSON.stringify([field, body.graphQL, v.readable, v.licenses, v.operationalRisk])
        const answer = await answers.get(key, () => run(field, body, request, { viewer, packages: service, reply }))
        if (answer.status !== 200) answers.forget(key)
        return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.text)
      }
    const z$ = app.withTypeProvider<ZodTypeProvider>()
    for (const field of ['packages', 'package', 'versions'] as const) {
      z$.post(
        `${CONSOLE}/mds/${field}`,
        {
          config: { access: 'public', reads: true },
          schema: {
            tags,
            summary: `Runs a metadata query that selects ${field} (the body carries the GraphQL document)`,
            body: MdsRequest,
          },
        },
        mds(field),
      )
    }

    const viewer = (request: FastifyRequest) => viewerOf(request)()
    z$.get(
      `${CONSOLE}/ui/v1/native/versions/:id/readme`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "A version's readme (by version id, or ?path=<repo>/<file>)",
          params: z.object({ id: z.string().max(700) }),
          querystring: ReadmeQuery,
          response: { 200: ReadmeResponse },
        },
      },
      async (request) => {
        const ref = request.query.path ? { path: request.query.path } : { id: request.params.id }
        return { readme: await service.readme(await viewer(request), ref) }
      },
    )
    z$.get(
      `${CONSOLE}/ui/v1/native/versions/readme`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "A version's readme by ?path= or ?id=",
          querystring: VersionRefQuery,
          response: { 200: ReadmeResponse },
        },
      },
      async (request) => ({ readme: await service.readme(await viewer(request), request.query) }),
    )
    z$.get(
      `${CONSOLE}/ui/v1/native/versions/npm/dependencies`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "A version's declared dependencies (?id=<version id> or ?path=<repo>/<file>)",
          querystring: VersionRefQuery,
          response: { 200: DependenciesResponse },
        },
      },
      async (request) => ({ dependencies: await service.dependencies(await viewer(request), request.query) }),
    )
    z$.get(
      `${CONSOLE}/ui/v1/native/versions/npm/props`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: "Properties of a version's lead file, or of the file at ?path=",
          querystring: VersionRefQuery,
          response: { 200: PropertiesResponse },
        },
      },
      async (request) => service.properties(await viewer(request), request.query),
    )
    z$.get(
      `${CONSOLE}/ui/artifactbuilds`,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Builds that produced or used a file (matched by checksum)',
          querystring: ArtifactRef,
          response: { 200: ArtifactBuildsResponse },
        },
      },
      async (request) => {
        const v = await viewer(request)
        const file = await service.file(v, request.query.repoKey, request.query.path)
        return artifactBuilds(fctx, v.principal, file)
      },
    )
    z$.post(
      `${CONSOLE}/ui/views/dockerv2`,
      {
        config: { access: 'public', reads: true },
        schema: {
          tags,
          summary: "An image tag's layers, from its stored manifest and config",
          body: DockerLayersRequest,
          response: { 200: DockerLayersResponse },
        },
      },
      async (request) => {
        const v = await viewer(request)
        // The tag's manifest.json, or the tag itself (`<image>/<tag>`).
        const asked = request.body.path.replace(/\/+$/, '')
        const path = asked.endsWith('/manifest.json') ? asked : `${asked}/manifest.json`
        const file = await service.file(v, request.body.repoKey, path)
        const layers = formatOf('docker')?.layers
        if (!layers) throw notFound('This node serves no images')
        return layers(fctx, file)
      },
    )
    z$.get(
      `${CONSOLE}/ui/home/widget/artifactCount`,
      {
        config: { access: 'public' },
        schema: { tags, summary: 'How many files the caller may read', response: { 200: ArtifactCountResponse } },
      },
      async (request) => ({ widgetData: { artifactCount: await service.artifactCount(await viewer(request)) } }),
    )
    z$.get(
      `${CONSOLE}/download`,
      {
        config: { access: 'public' },
        schema: { tags, summary: 'Downloads a file as an attachment', querystring: DownloadQuery },
      },
      async (request, reply) => {
        const v = await viewer(request)
        const { repoKey, path } = request.query
        const repo = await fctx.repos.get(repoKey)
        if (!repo) throw notFound(`Repository not found: ${repoKey}`)
        // A virtual repository answers from the first member holding the file.
        const keys = repo.rclass === 'virtual' ? repo.members : [repoKey]
        for (const key of keys) {
          const file = await service.file(v, key, path).catch(() => undefined)
          if (!file) continue
          const name = file.name || path.split('/').pop() || 'download'
          reply.header('content-disposition', attachment(name))
          return fctx.artifacts.sendFile(request, reply, file)
        }
        throw notFound(`File not found: ${repoKey}/${path}`)
      },
    )

    for (const prefix of ['/api', '/artifactory/api']) {
      z$.put(
        `${prefix}/build`,
        {
          // A CI's deploy-scoped token publishes its builds: publishBuild asks the authorizer,
          // which caps the token's actions by its scope.
          config: { access: 'user', scopeCapped: true },
          bodyLimit: 16 * 1024 * 1024,
          schema: {
            tags,
            summary: 'Publishes build info (as CI tools send it); replaces a build of the same name and number',
            body: BuildInfoInput,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          const principal = await fctx.principal(request)
          await publishBuild(fctx, principal, request.body)
          return reply.code(204).send(null)
        },
      )
      z$.get(
        `${prefix}/build`,
        {
          config: { access: 'public' },
          schema: {
            tags,
            summary: 'Build names the caller may read, with their latest start',
            response: { 200: z.object({ builds: z.array(z.object({ uri: z.string(), lastStarted: z.string() })) }) },
          },
        },
        async (request) => ({ builds: await listBuilds(fctx, await fctx.principal(request)) }),
      )
      z$.get(
        `${prefix}/build/:name`,
        {
          config: { access: 'public' },
          schema: {
            tags,
            summary: 'The runs of a build, newest first',
            params: z.object({ name: z.string().max(255) }),
            response: { 200: z.object({ buildsNumbers: z.array(z.object({ uri: z.string(), started: z.string() })) }) },
          },
        },
        async (request) => ({
          buildsNumbers: await buildRuns(fctx, await fctx.principal(request), request.params.name),
        }),
      )
      z$.get(
        `${prefix}/build/:name/:number`,
        {
          config: { access: 'public' },
          schema: {
            tags,
            summary: 'One build run, as published',
            params: z.object({ name: z.string().max(255), number: z.string().max(255) }),
            response: { 200: z.object({ buildInfo: z.record(z.string(), z.unknown()) }) },
          },
        },
        async (request) => ({
          buildInfo: await buildInfo(fctx, await fctx.principal(request), request.params.name, request.params.number),
        }),
      )
    }
  }
