import type { Readable } from 'node:stream'
import {
  BlobsPresent,
  BlobsQuery,
  BundleDetails,
  BundleList,
  BundleListQuery,
  BundleName,
  BundleVersion,
  ChecksumLookup,
  ChecksumLookupQuery,
  CreateBundle,
  Distribute,
  HistoryPage,
  HistoryQuery,
  IncomingBundle,
  RetentionPolicy,
  SignedManifest,
  SigningKey,
  SigningKeys as SigningKeysView,
  TargetInput,
  TargetList,
  TrustedSource,
  UpdateBundle,
} from '@trove/contracts/distribution'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import type { FormatContext } from '../../formats/index.js'
import type { BundleService } from './bundles.js'
import type { Distributor } from './distributor.js'
import type { History } from './history.js'
import type { Receiver } from './receiver.js'
import type { SigningKeys } from './signing.js'

const user = { access: 'user' } as const
const admin = { access: 'admin' } as const
const tags = ['distribution']
const Address = z.object({ name: BundleName, version: BundleVersion })
const Origin = z.object({ origin: z.enum(['source', 'target']).default('source') })
const Ok = z.object({ ok: z.literal(true) })

export interface DistributionParts {
  bundles: BundleService
  distributor: Distributor
  receiver: Receiver
  history: History
  keys: SigningKeys
}

/** The console's calls, under /distribution/api/ui. */
export const distributionUiRoutes =
  (ctx: FormatContext, d: DistributionParts): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/release_bundles',
      {
        config: user,
        schema: {
          tags,
          summary: 'Release bundles made here (source) or received (target)',
          querystring: BundleListQuery,
          response: { 200: BundleList },
        },
      },
      async (request) => ({ bundles: await d.bundles.list(await ctx.principal(request), request.query.origin, request.query.q) }),
    )
    app.post(
      '/release_bundles',
      {
        config: user,
        schema: {
          tags,
          summary: 'Create an open release bundle from versions, paths, a build or a query',
          body: CreateBundle,
          response: { 201: BundleDetails },
        },
      },
      async (request, reply) => reply.code(201).send(await d.bundles.create(await ctx.principal(request), request.body)),
    )
    app.get(
      '/release_bundles/:name/:version',
      {
        config: user,
        schema: {
          tags,
          summary: 'A release bundle: contents, signature, distributions',
          params: Address,
          querystring: Origin,
          response: { 200: BundleDetails },
        },
      },
      async (request) =>
        d.bundles.details(await ctx.principal(request), request.params.name, request.params.version, request.query.origin),
    )
    app.get(
      '/release_bundles/:name/:version/manifest',
      {
        config: user,
        schema: {
          tags,
          summary: 'The manifest as signed (canonical JSON) and its signature, to check with the published key',
          params: Address,
          querystring: Origin,
          response: { 200: SignedManifest },
        },
      },
      async (request) =>
        d.bundles.signedManifest(await ctx.principal(request), request.params.name, request.params.version, request.query.origin),
    )
    app.patch(
      '/release_bundles/:name/:version',
      {
        config: user,
        schema: {
          tags,
          summary: 'Change an open bundle: description, notes, files',
          params: Address,
          body: UpdateBundle,
          response: { 200: BundleDetails },
        },
      },
      async (request) =>
        d.bundles.update(await ctx.principal(request), request.params.name, request.params.version, request.body),
    )
    app.post(
      '/release_bundles/:name/:version/sign',
      {
        config: user,
        schema: {
          tags,
          summary: 'Sign a bundle: its manifest is frozen and signed with the active key',
          params: Address,
          response: { 200: BundleDetails },
        },
      },
      async (request) => d.bundles.sign(await ctx.principal(request), request.params.name, request.params.version),
    )
    app.delete(
      '/release_bundles/:name/:version',
      {
        config: user,
        schema: { tags, summary: 'Delete a bundle on this node (copies on targets stay)', params: Address, querystring: Origin },
      },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        if (request.query.origin === 'target') {
          await d.bundles.find(request.params.name, request.params.version, 'target')
          await d.bundles.details(principal, request.params.name, request.params.version, 'target')
          if (!principal || !(await ctx.authz.canOnReleaseBundle(principal, 'delete', request.params.name)))
            return reply
              .code(403)
              .send({ errors: [{ status: 403, message: `You may not delete release bundle ${request.params.name}` }] })
          await d.receiver.remove(principal, request.params.name, request.params.version, 'delete', null)
        } else await d.bundles.remove(principal, request.params.name, request.params.version, 'source')
        return reply.code(204).send()
      },
    )
    app.post(
      '/release_bundles/:name/:version/distribute',
      {
        config: user,
        schema: {
          tags,
          summary: 'Distribute a signed bundle to targets',
          params: Address,
          body: Distribute,
          response: { 202: BundleDetails },
        },
      },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        d.distributor.learnUrl(ctx.baseUrl(request))
        await d.distributor.distribute(principal, request.params.name, request.params.version, request.body.targets)
        return reply.code(202).send(await d.bundles.details(principal, request.params.name, request.params.version, 'source'))
      },
    )
    app.delete(
      '/release_bundles/:name/:version/targets/:target',
      {
        config: user,
        schema: {
          tags,
          summary: 'Remove a distributed bundle from one target',
          params: Address.extend({ target: z.string().min(1) }),
        },
      },
      async (request, reply) => {
        await d.distributor.removeFrom(await ctx.principal(request), request.params.name, request.params.version, [
          request.params.target,
        ])
        return reply.code(202).send()
      },
    )
    app.post(
      '/release_bundles/:name/:version/recall',
      { config: user, schema: { tags, summary: 'Remove a distributed bundle from every target', params: Address } },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        await d.distributor.removeFrom(principal, request.params.name, request.params.version, 'all')
        await d.history.add({
          bundle: request.params.name,
          version: request.params.version,
          action: 'recall',
          peer: null,
          actor: principal?.name ?? null,
          result: 'success',
          detail: 'removal from every target requested',
        })
        return reply.code(202).send()
      },
    )
    app.get(
      '/release_bundle/checksum/:checksum',
      {
        config: user,
        schema: {
          tags,
          summary: 'Release bundles holding a file with this sha256, sha1 or md5',
          params: z.object({ checksum: z.string().max(64) }),
          querystring: ChecksumLookupQuery,
          response: { 200: ChecksumLookup },
        },
      },
      async (request) => ({
        data: await d.bundles.lookup(await ctx.principal(request), request.params.checksum, request.query.num_of_rows),
      }),
    )
    app.get(
      '/history',
      {
        config: user,
        schema: {
          tags,
          summary: 'Target history: distributions, receptions and deletions on this node',
          querystring: HistoryQuery,
          response: { 200: HistoryPage },
        },
      },
      async (request) => d.history.page(await ctx.principal(request), request.query.limit, request.query.offset),
    )
    app.get(
      '/targets',
      { config: admin, schema: { tags, summary: 'Distribution targets', response: { 200: TargetList } } },
      async () => ({ targets: await d.distributor.listTargets() }),
    )
    app.put(
      '/targets/:name',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Register a target (the target is asked to trust this node’s keys)',
          params: z.object({ name: BundleName }),
          body: TargetInput,
        },
      },
      async (request) => {
        d.distributor.learnUrl(ctx.baseUrl(request))
        return d.distributor.putTarget(await ctx.principal(request), request.params.name, request.body)
      },
    )
    app.delete(
      '/targets/:name',
      { config: admin, schema: { tags, summary: 'Forget a target', params: z.object({ name: z.string() }) } },
      async (request, reply) => {
        await d.distributor.deleteTarget(request.params.name)
        return reply.code(204).send()
      },
    )
    app.get(
      '/retention',
      { config: admin, schema: { tags, summary: 'Target bundle retention', response: { 200: RetentionPolicy } } },
      async () => d.receiver.policy(),
    )
    app.put(
      '/retention',
      {
        config: admin,
        schema: { tags, summary: 'Set target bundle retention', body: RetentionPolicy, response: { 200: RetentionPolicy } },
      },
      async (request) => d.receiver.setPolicy(request.body),
    )
    app.post(
      '/retention/run',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Apply target bundle retention now',
          response: { 200: z.object({ removed: z.array(z.string()) }) },
        },
      },
      async () => ({ removed: await d.receiver.applyRetention() }),
    )
    app.get(
      '/keys',
      { config: admin, schema: { tags, summary: 'This node’s signing keys', response: { 200: SigningKeysView } } },
      async () => {
        await d.keys.active()
        return { keys: await d.keys.list() }
      },
    )
    app.post(
      '/keys/rotate',
      { config: admin, schema: { tags, summary: 'Make a new active signing key', response: { 200: SigningKey } } },
      async () => d.keys.rotate(),
    )
  }

/** Node to node, under /distribution/api/v1: a source hands a target its keys, files and bundles (an admin token of the target). */
export const distributionNodeRoutes =
  (ctx: AppContext, d: DistributionParts): FastifyPluginAsyncZod =>
  async (app) => {
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload))
    app.put(
      '/sources/:source',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Trust a source’s signing keys',
          params: z.object({ source: z.string().min(1).max(200) }),
          body: TrustedSource,
          response: { 200: Ok },
        },
      },
      async (request) => {
        await d.receiver.trust(request.params.source, request.body)
        return { ok: true as const }
      },
    )
    app.post(
      '/incoming/blobs/query',
      {
        config: { access: 'admin', reads: true },
        schema: {
          tags,
          summary: 'Which of these files this node holds already',
          body: BlobsQuery,
          response: { 200: BlobsPresent },
        },
      },
      async (request) => ({ present: await d.receiver.present(request.body.sha256) }),
    )
    app.put(
      '/incoming/blobs/:sha256',
      {
        config: admin,
        schema: {
          tags,
          summary: 'A file ahead of its bundle, kept only if its content has this sha256',
          params: z.object({ sha256: z.string() }),
        },
      },
      async (request, reply) => {
        const length = request.headers['content-length']
        await d.receiver.putBlob(
          request.params.sha256,
          request.body as Readable,
          length === undefined ? undefined : Number(length),
        )
        return reply.code(201).send({ ok: true })
      },
    )
    app.post(
      '/incoming/bundles',
      {
        config: admin,
        schema: { tags, summary: 'A signed bundle whose files have arrived: verified, then made visible', body: IncomingBundle },
      },
      async (request, reply) => {
        const { created } = await d.receiver.receive(await ctx.principal(request), request.body, request.ip)
        return reply.code(created ? 201 : 200).send({ ok: true })
      },
    )
    app.delete(
      '/incoming/bundles/:name/:version',
      { config: admin, schema: { tags, summary: 'Remove a received bundle with its files', params: Address } },
      async (request, reply) => {
        await d.receiver.remove(await ctx.principal(request), request.params.name, request.params.version, 'delete', request.ip)
        return reply.code(204).send()
      },
    )
  }
