import {
  ConnectionTestResult,
  GitIntegration,
  GitIntegrationForm,
  GitRepoFindingsPage,
  GitRepoFindingsRequest,
  GitRepoSelection,
  GitRepositoryPage,
  GitRepositoryQuery,
  IntegrationGroups,
  IntegrationKeyData,
  SelectedRepositories,
  VcsIntegrations,
} from '@trove/contracts/gitIntegrations'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { HttpError } from '../../core/errors.js'
import type { GitIntegrationService } from './service.js'

const admin = { access: 'admin' } as const
const KeyParams = z.object({ integrationKey: z.string().min(1).max(64) })
const IdParams = z.object({ integrationId: z.string().min(1).max(64) })
const TypeParams = z.object({ type: z.string().max(20) })

/** §7 "Integrations", under /ui/api/v1/integration; every call is an administrator's. */
export const integrationRoutes =
  (ctx: AppContext, git: GitIntegrationService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['integrations']
    app.get(
      '/getIntegrations',
      {
        config: admin,
        schema: { tags, summary: 'Integration groups with their vendors and integrations', response: { 200: IntegrationGroups } },
      },
      async () => git.groups(),
    )
    app.get(
      '/integrations/:type',
      {
        config: admin,
        schema: {
          tags,
          summary: 'The integrations of one type (git, or 1)',
          params: TypeParams,
          response: { 200: z.array(GitIntegration) },
        },
      },
      async (request) => {
        if (request.params.type !== 'git' && request.params.type !== '1')
          throw new HttpError(404, `No integrations of type ${request.params.type}`)
        return git.list()
      },
    )
    app.post(
      '/test',
      {
        config: admin,
        schema: {
          tags,
          summary: "Ask the vendor's current-user call with the form's credentials",
          body: GitIntegrationForm,
          response: { 200: ConnectionTestResult },
        },
      },
      async (request) => git.test(request.body),
    )
    app.post(
      '/',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Create a git integration (its token is tested first)',
          body: GitIntegrationForm,
          response: { 201: IntegrationKeyData },
        },
      },
      async (request, reply) => {
        const caller = await ctx.principal(request)
        return reply.code(201).send({ data: await git.create(request.body, caller?.name ?? null) })
      },
    )
    app.put(
      '/:integrationKey',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Update a git integration',
          params: KeyParams,
          body: GitIntegrationForm,
          response: { 200: IntegrationKeyData },
        },
      },
      async (request) => ({ data: await git.update(request.params.integrationKey, request.body) }),
    )
    app.delete(
      '/:integrationKey',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Delete a git integration and its clones',
          params: KeyParams,
          response: { 200: IntegrationKeyData },
        },
      },
      async (request) => ({ data: await git.remove(request.params.integrationKey) }),
    )
  }

/** The security scanner's side (§7 /xray/ui/vcs_integrations, gitRepoScan.selectRepos), under /ui/api/v1/xray/ui. */
export const vcsIntegrationRoutes =
  (git: GitIntegrationService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['integrations']
    app.get(
      '/vcs_integrations',
      { config: admin, schema: { tags, summary: 'Git integrations the scanner can use', response: { 200: VcsIntegrations } } },
      async () => git.vcsIntegrations(),
    )
    app.get(
      '/vcs_integrations/:integrationId/repositories',
      {
        config: admin,
        schema: {
          tags,
          summary: "One page of the repositories the integration's token can see",
          params: IdParams,
          querystring: GitRepositoryQuery,
          response: { 200: GitRepositoryPage },
        },
      },
      async (request) => git.repositories(request.params.integrationId, request.query.page),
    )
    app.get(
      '/vcs_integrations/:integrationId/selected',
      {
        config: admin,
        schema: {
          tags,
          summary: 'The repositories selected for scanning, with their clones and scans',
          params: IdParams,
          response: { 200: SelectedRepositories },
        },
      },
      async (request) => git.selected(request.params.integrationId),
    )
    app.put(
      '/vcs_integrations/:integrationId/selected',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Choose the repositories to scan; new ones are cloned',
          params: IdParams,
          body: GitRepoSelection,
          response: { 200: SelectedRepositories },
        },
      },
      async (request) => git.select(request.params.integrationId, request.body.repositories),
    )
    app.post(
      '/vcs_integrations/:integrationId/repositories/findings',
      {
        config: admin,
        schema: {
          tags,
          summary: "One page of a selected repository's findings: its components that advisories affect, worst first",
          params: IdParams,
          body: GitRepoFindingsRequest,
          response: { 200: GitRepoFindingsPage },
        },
      },
      async (request) => git.findings(request.params.integrationId, request.body.repository, request.body.page),
    )
  }
