import fs from 'node:fs'
import { format, Messages } from '@trove/contracts/messages'
import {
  BUNDLE_CREATE_PATHS,
  BundleList,
  CreateBundleRequest,
  HealthList,
  LOG_BASE_PATHS,
  LogConfig,
  LogData,
  LogDataQuery,
  MicroserviceEnabled,
  NodeStatusList,
  PeerList,
  RetentionStatus,
  SERVICE_TYPES,
  ServiceStatus,
  SupportBundle,
} from '@trove/contracts/operations'
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { NODE_SIGNATURE_HEADER, verifyNodeCall } from '../../core/cluster.js'
import type { AppContext } from '../../core/context.js'
import { conflict, notFound, unauthorized } from '../../core/errors.js'
import { getSetting } from '../../core/settings.js'
import { deleteNode, findNode, healthItems, nodeList, nodeStatus, runningServices, serviceStatus } from './nodes.js'
import { peerList } from './peers.js'
import type { Operations } from './service.js'

export const RETENTION_SETTING = 'bundles.retentionEnabled'

const serviceParam = z.object({ service: z.string().max(100) })
const tags = ['operations']

/** Status, topology, logs, support bundles and the retention check, under /ui/api/v1. Admins only. */
export const operationsRoutes =
  (ctx: AppContext, ops: Operations): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely
    const admin = { access: 'admin' as const }

    app.get(
      '/system/status/ha',
      {
        config: admin,
        schema: { tags, summary: 'Every service with its nodes, Online or Offline', response: { 200: ServiceStatus } },
      },
      async () => serviceStatus(db, ops.cluster.id),
    )
    app.get(
      '/system/status/nodes',
      { config: admin, schema: { tags, summary: 'Every node with the services it runs', response: { 200: NodeStatusList } } },
      async () => nodeList(db),
    )
    app.get(
      '/system/status/peers',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Every node with its address, state and last heartbeat, and what it last saw of the others',
          response: { 200: PeerList },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store')
        return peerList(db, ops.nodeId)
      },
    )
    app.get(
      '/system/status/health',
      { config: admin, schema: { tags, summary: 'Health of each service on each node', response: { 200: HealthList } } },
      async () => healthItems(db, ops.cluster.id),
    )
    const enabledServices = async () => {
      const running = await runningServices(db)
      return SERVICE_TYPES.filter((s) => running.has(s))
    }
    app.get(
      '/system/ismicroserviceenabled',
      {
        config: admin,
        schema: { tags, summary: 'Which services run on an Online node', response: { 200: MicroserviceEnabled } },
      },
      async () => {
        const services = await enabledServices()
        return { enabled: services.length > 0, services }
      },
    )
    app.get(
      '/system/ismicroserviceenabled/mc',
      {
        config: admin,
        schema: { tags, summary: 'Whether mission control runs on an Online node', response: { 200: MicroserviceEnabled } },
      },
      async () => {
        const on = (await enabledServices()).includes('mission-control')
        return { enabled: on, services: on ? ['mission-control' as const] : [] }
      },
    )
    app.get(
      '/mc/api/v4/system/ping',
      {
        config: admin,
        schema: { tags, summary: 'Mission control answers OK when it runs on this node', response: { 200: z.string() } },
      },
      async (_request, reply) => {
        if (!ctx.config.node.modules.includes('mission-control')) throw notFound('Mission control is not enabled on this node')
        return reply.type('text/plain; charset=utf-8').send('OK')
      },
    )

    app.delete(
      '/access/api/v1/topology/:service_id/:node_id',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Remove a node that is no longer running',
          params: z.object({ service_id: z.string().max(200), node_id: z.string().max(100) }),
        },
      },
      async (request, reply) => {
        const { service_id: serviceId, node_id: nodeId } = request.params
        const node = await findNode(db, nodeId)
        if (!node) throw notFound(`Unknown node: ${nodeId}`)
        if (!node.services.some((s) => `${s}@${ops.cluster.id}` === serviceId))
          throw notFound(`Node ${nodeId} is not part of the service ${serviceId}`)
        if (nodeStatus(node, Date.now()) === 'Online') throw conflict(format(Messages.nodeOnlineRefused, { node: nodeId }))
        await deleteNode(db, nodeId)
        request.log.info({ node: nodeId }, 'node removed from the topology')
        return reply.code(204).send()
      },
    )

    // The log viewer: each service's pair of calls under its own base path (spec §7).
    for (const base of new Set(Object.values(LOG_BASE_PATHS))) {
      app.get(
        `/${base}system/logs/config/:service`,
        {
          config: admin,
          schema: {
            tags,
            summary: 'The log files of a service on a node',
            params: serviceParam,
            querystring: z.object({ nodeId: z.string().min(1).max(100).optional() }),
            response: { 200: LogConfig },
          },
        },
        async (request) => ops.logConfig(request.params.service, request.query.nodeId),
      )
      app.get(
        `/${base}system/logs/data/:service`,
        {
          config: admin,
          // Log text is polled every few seconds by a browser close by: compressing it costs more than it saves.
          compress: false,
          schema: {
            tags,
            summary: 'What a log file gained since the read position file_size',
            params: serviceParam,
            querystring: LogDataQuery,
            response: { 200: LogData },
          },
        },
        async (request) => ops.logData(request.params.service, request.query),
      )
    }

    // Node-to-node: a peer asks this node for its own logs, signed with the cluster's node-call key.
    await app.register(async (plugin) => {
      const peer = plugin.withTypeProvider<ZodTypeProvider>()
      peer.addHook('onRequest', async (request) => {
        const header = request.headers[NODE_SIGNATURE_HEADER]
        if (!verifyNodeCall(ops.cluster.secret, typeof header === 'string' ? header : undefined, request.method, request.url)) {
          throw unauthorized('A node-to-node call needs a valid cluster signature')
        }
      })
      // Public for the session check: the hook above admits only calls signed by a node of this cluster.
      const node = { access: 'public' as const }
      peer.get(
        '/system/cluster/logs/config/:service',
        { config: node, schema: { hide: true, params: serviceParam, response: { 200: LogConfig } } },
        async (request) => ops.localLogConfigOf(request.params.service),
      )
      peer.get(
        '/system/cluster/logs/data/:service',
        {
          config: node,
          compress: false,
          schema: {
            hide: true,
            params: serviceParam,
            querystring: LogDataQuery.omit({ nodeId: true }),
            response: { 200: LogData },
          },
        },
        async (request) => {
          ops.requireLocalService(request.params.service)
          return ops.localLogData(request.query)
        },
      )
      // A support bundle written by this node, downloaded or deleted through another.
      const bundleParam = z.object({ id: z.string().max(40) })
      peer.get(
        '/system/cluster/bundles/:id',
        { config: node, compress: false, schema: { hide: true, params: bundleParam } },
        async (request, reply) => {
          const { file, size } = await ops.localBundleFile(request.params.id)
          return reply.type('application/zip').header('content-length', size).send(fs.createReadStream(file))
        },
      )
      peer.delete(
        '/system/cluster/bundles/:id',
        { config: node, schema: { hide: true, params: bundleParam } },
        async (request, reply) => {
          await ops.removeLocalBundle(request.params.id)
          return reply.code(204).send()
        },
      )
    })

    // Support bundles.
    app.get(
      '/ui/userSupport/listBundles',
      { config: admin, schema: { tags, summary: 'Every support bundle, newest first', response: { 200: BundleList } } },
      async () => ops.list(),
    )
    app.delete(
      '/ui/userSupport/deleteBundle/:id',
      {
        config: admin,
        schema: { tags, summary: 'Delete a support bundle and its file', params: z.object({ id: z.string().max(40) }) },
      },
      async (request, reply) => {
        await ops.deleteBundle(request.params.id)
        return reply.code(204).send()
      },
    )
    app.get(
      '/ui/userSupport/downloadBundle/:id',
      {
        config: admin,
        compress: false,
        schema: { tags, summary: 'The bundle as a zip file', params: z.object({ id: z.string().max(40) }) },
      },
      async (request, reply) => {
        const { bundle, size, open } = await ops.bundleForDownload(request.params.id)
        const name = `${bundle.name.replace(/[^\w.-]+/g, '_')}-${bundle.id}.zip`
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('content-length', size)
          .send(open())
      },
    )
    for (const service of SERVICE_TYPES) {
      const path = BUNDLE_CREATE_PATHS[service]
      if (!path) continue
      app.post(
        `/${path}`,
        {
          config: admin,
          schema: {
            tags,
            summary: `Create a support bundle of the ${service} service`,
            body: CreateBundleRequest,
            response: { 201: SupportBundle },
          },
        },
        async (request, reply) => {
          const bundle = await ops.createBundle(service, request.body)
          request.log.info({ bundle: bundle.id, service }, 'support bundle requested')
          return reply.code(201).send(bundle)
        },
      )
    }

    app.get(
      '/ui/bundle/retention/config/enable',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Whether target bundle retention is enabled (false by default)',
          response: { 200: RetentionStatus },
        },
      },
      async () => {
        // §8: a 404 tells the console the feature is off.
        if (!ctx.config.node.modules.includes('distribution'))
          throw notFound('The service distribution is not enabled on this node')
        return { enable: await getSetting(db, RETENTION_SETTING, false) }
      },
    )
  }
