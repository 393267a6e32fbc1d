import {
  QuickCreateRequest,
  QuickCreateResponse,
  QuickSetupRequest,
  QuickSetupResponse,
  RepoKey,
  RepositoryConfig,
  RepositoryConfigInput,
  RepositoryConfigUpdate,
  RepositoryListQuery,
  RepositorySummary,
} from '@trove/contracts/repositories'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { StorageContext } from './context.js'

const KeyParams = z.object({ key: RepoKey })

/** The public REST API of repositories, mounted under /api and /artifactory/api. */
export const repositoryRoutes =
  (fctx: StorageContext): FastifyPluginAsyncZod =>
  async (app) => {
    const repos = fctx.repos

    app.get(
      '/repositories',
      {
        config: { access: 'public' },
        schema: {
          tags: ['repositories'],
          summary: 'The repositories the caller may read',
          querystring: RepositoryListQuery,
          response: { 200: z.array(RepositorySummary) },
        },
      },
      async (request) => {
        const principal = await fctx.principal(request)
        const all = await repos.list(
          { rclass: request.query.type, packageType: request.query.packageType },
          fctx.baseUrl(request),
        )
        const allowed = await Promise.all(all.map((r) => fctx.authz.canOnRepo(principal, 'read', r.key)))
        return all.filter((_r, i) => allowed[i])
      },
    )

    app.get(
      '/repositories/:key',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['repositories'],
          summary: "A repository's configuration",
          params: KeyParams,
          response: { 200: RepositoryConfig },
        },
      },
      async (request) => repos.config(request.params.key),
    )

    app.put(
      '/repositories/:key',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['repositories'],
          summary: 'Create a repository',
          params: KeyParams,
          body: RepositoryConfigInput,
          response: { 201: RepositoryConfig },
        },
      },
      async (request, reply) => {
        const created = await repos.create(request.params.key, request.body)
        request.log.info({ repo: created.key, rclass: created.rclass, packageType: created.packageType }, 'repository created')
        return reply.code(201).send(created)
      },
    )

    app.post(
      '/repositories/:key',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['repositories'],
          summary: 'Update a repository (class, type and key cannot change)',
          params: KeyParams,
          body: RepositoryConfigUpdate,
          response: { 200: RepositoryConfig },
        },
      },
      async (request) => repos.update(request.params.key, request.body),
    )

    app.delete(
      '/repositories/:key',
      {
        config: { access: 'admin' },
        schema: { tags: ['repositories'], summary: 'Delete a repository and everything in it', params: KeyParams },
      },
      async (request, reply) => {
        await repos.remove(request.params.key)
        request.log.info({ repo: request.params.key }, 'repository deleted')
        return reply.code(204).send()
      },
    )

    app.post(
      '/system/storage/gc',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['repositories'],
          summary: 'Drop remote caches unused for their lifetime, then free the blobs no file references any more',
          querystring: z.object({ graceSeconds: z.coerce.number().int().min(0).optional() }),
          response: { 200: z.object({ expired: z.number().int(), freed: z.number().int() }) },
        },
      },
      async (request) => {
        const expired = await fctx.artifacts.expireRemoteCaches()
        return { expired, freed: await fctx.blobs.collectGarbage((request.query.graceSeconds ?? 3600) * 1000) }
      },
    )
  }

/** Console calls of the repository screens, under /ui/api/v1/ui/admin. */
export const repositoryAdminRoutes =
  (fctx: StorageContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/repositories/quickCreate',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['repositories'],
          summary: 'Create the sample repositories of a package type',
          body: QuickCreateRequest,
          response: { 200: QuickCreateResponse },
        },
      },
      async (request) => fctx.repos.quickCreate(request.body.packageType, request.body.remoteUrl),
    )
  }

/** Onboarding's quick setup (shell §2.6), under /ui/api/v1/ui/onboarding. */
export const quickSetupRoutes =
  (fctx: StorageContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/quickSetup',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['repositories'],
          summary:
            'The sample repositories of several package types at once, in one transaction (409 and nothing made on a clash)',
          body: QuickSetupRequest,
          response: { 201: QuickSetupResponse },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await fctx.repos.quickSetup(request.body.packageTypes, request.body.upstreams)),
    )
  }
