import {
  BlockedUsages,
  Deployment,
  Features,
  Flavour,
  GeneralConfig,
  GeneralConfigUpdate,
  HaproxyConfig,
  InstanceUpdate,
  License,
  LicenseInstall,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  NginxConfig,
  ReverseProxy,
  ReverseProxyList,
  UiAccess,
} from '@trove/contracts/shell'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { badRequest, conflict, notFound } from '../../core/errors.js'
import {
  BLOCKED_USAGES_SETTING,
  DEPLOYMENT_SETTING,
  FEATURES_SETTING,
  FLAVOUR_SETTING,
  LICENSE_SETTING,
  LOGO_SETTING,
  NO_LICENSE,
  readDeployment,
  readFeatures,
  readFlavour,
  readGeneralConfig,
  readLicense,
  UI_ACCESS_BLOCKED_SETTING,
  writeGeneralConfig,
} from '../../core/instance.js'
import { getSetting, setSetting } from '../../core/settings.js'
import { haproxyConfig } from './haproxyConfig.js'
import { deleteProxy, findProxy, insertProxy, listProxies, nginxConfig, updateProxy } from './proxies.js'

const InstanceView = z.object({ flavour: Flavour, deployment: Deployment, features: Features }).meta({ id: 'InstanceView' })
const ProxyParams = z.object({ proxyName: z.string().min(1).max(64) })

/** The admin's side of the instance model, under /ui/api/v1/ui. */
export const instanceAdminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    app.get(
      '/generalConfig',
      {
        config: { access: 'admin' },
        schema: { tags: ['shell'], summary: 'General configuration', response: { 200: GeneralConfig } },
      },
      async () => readGeneralConfig(db, ctx.config),
    )

    app.put(
      '/generalConfig',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Change the general configuration',
          body: GeneralConfigUpdate,
          response: { 200: GeneralConfig },
        },
      },
      async (request) => {
        // shell §5: a base URL that points at the repository is normalised to end with a slash.
        const baseUrl = request.body.baseUrl.replace(/\/artifactory$/, '/artifactory/')
        await writeGeneralConfig(db, { ...request.body, baseUrl })
        request.log.info({ readOnly: request.body.readOnly }, 'general configuration changed')
        return readGeneralConfig(db, ctx.config)
      },
    )

    // The logo: raw image bytes in, the same bytes out to anyone (the sign-in page shows it).
    app.register(async (logo) => {
      logo.addContentTypeParser(/^image\//, { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES }, (_req, body, done) =>
        done(null, body),
      )
      logo.get(
        '/generalConfig/logo',
        { config: { access: 'public' }, schema: { tags: ['shell'], summary: 'The logo the console shows' } },
        async (_request, reply) => {
          const stored = await getSetting<{ type: string; data: string } | null>(db, LOGO_SETTING, null)
          if (!stored) throw notFound('No logo is set')
          return reply.type(stored.type).header('cache-control', 'no-cache').send(Buffer.from(stored.data, 'base64'))
        },
      )
      logo.post(
        '/generalConfig/logo',
        { config: { access: 'admin' }, schema: { tags: ['shell'], summary: 'Upload the logo (an image body, up to 512 KB)' } },
        async (request, reply) => {
          const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? ''
          if (!(LOGO_TYPES as readonly string[]).includes(type)) {
            throw badRequest(`The logo must be one of ${LOGO_TYPES.join(', ')}`)
          }
          const body = request.body as Buffer
          if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The logo is empty')
          await setSetting(db, LOGO_SETTING, { type, data: body.toString('base64') })
          return reply.code(204).send()
        },
      )
      logo.delete(
        '/generalConfig/logo',
        { config: { access: 'admin' }, schema: { tags: ['shell'], summary: 'Remove the logo' } },
        async (_request, reply) => {
          await db.deleteFrom('settings').where('key', '=', LOGO_SETTING).execute()
          return reply.code(204).send()
        },
      )
    })

    app.get(
      '/admin/license',
      { config: { access: 'admin' }, schema: { tags: ['shell'], summary: 'The installed licence', response: { 200: License } } },
      async () => readLicense(db),
    )

    app.put(
      '/admin/license',
      {
        config: { access: 'admin' },
        schema: { tags: ['shell'], summary: 'Install a licence', body: LicenseInstall, response: { 200: License } },
      },
      async (request) => {
        if (request.body.validThrough !== null && request.body.validThrough < Date.now()) {
          throw badRequest('Invalid request: body.validThrough: the licence has already expired')
        }
        await setSetting(db, LICENSE_SETTING, request.body)
        request.log.info({ type: request.body.type }, 'licence installed')
        return readLicense(db)
      },
    )

    app.delete(
      '/admin/license',
      { config: { access: 'admin' }, schema: { tags: ['shell'], summary: 'Remove the licence', response: { 200: License } } },
      async (request) => {
        await setSetting(db, LICENSE_SETTING, NO_LICENSE)
        request.log.info('licence removed')
        return NO_LICENSE
      },
    )

    app.get(
      '/admin/instance',
      {
        config: { access: 'admin' },
        schema: { tags: ['shell'], summary: 'Flavour, deployment and feature flags', response: { 200: InstanceView } },
      },
      async () => ({
        flavour: await readFlavour(db, ctx.config),
        deployment: await readDeployment(db, ctx.config),
        features: await readFeatures(db, ctx.config),
      }),
    )

    app.put(
      '/admin/instance',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Change the flavour, the deployment or feature flags',
          body: InstanceUpdate,
          response: { 200: InstanceView },
        },
      },
      async (request) => {
        const { flavour, deployment, features } = request.body
        await db.transaction().execute(async (tx) => {
          if (flavour) await setSetting(tx, FLAVOUR_SETTING, flavour)
          if (deployment) await setSetting(tx, DEPLOYMENT_SETTING, deployment)
          if (features) await setSetting(tx, FEATURES_SETTING, { ...(await getSetting(tx, FEATURES_SETTING, {})), ...features })
        })
        return {
          flavour: await readFlavour(db, ctx.config),
          deployment: await readDeployment(db, ctx.config),
          features: await readFeatures(db, ctx.config),
        }
      },
    )

    app.get(
      '/admin/security/uiAccess',
      {
        config: { access: 'admin' },
        schema: { tags: ['shell'], summary: 'Whether anonymous users are kept out of the console', response: { 200: UiAccess } },
      },
      async () => ({ blocked: await getSetting(db, UI_ACCESS_BLOCKED_SETTING, false) }),
    )

    app.put(
      '/admin/security/uiAccess',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Block the console to anonymous users, or not',
          body: UiAccess,
          response: { 200: UiAccess },
        },
      },
      async (request) => {
        await setSetting(db, UI_ACCESS_BLOCKED_SETTING, request.body.blocked)
        return request.body
      },
    )

    app.put(
      '/admin/subscription/blockedUsages',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Mark the data-transfer quota as reached, or not',
          body: BlockedUsages.pick({ dataTransfer: true }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await setSetting(db, BLOCKED_USAGES_SETTING, { dataTransfer: request.body.dataTransfer })
        return reply.code(204).send(null)
      },
    )

    // Reverse proxy configurations (operations §3)
    const fallbackUpstream = () => `http://127.0.0.1:${ctx.config.port || 8080}`

    app.get(
      '/admin/reverseProxies',
      {
        config: { access: 'admin' },
        schema: { tags: ['shell'], summary: 'Reverse proxy configurations', response: { 200: ReverseProxyList } },
      },
      async () => ({ proxies: await listProxies(db) }),
    )

    app.post(
      '/admin/reverseProxies',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Add a reverse proxy configuration',
          body: ReverseProxy,
          response: { 201: ReverseProxy },
        },
      },
      async (request, reply) => {
        checkProxy(request.body)
        if (await findProxy(db, request.body.key)) throw conflict(`A reverse proxy named ${request.body.key} already exists`)
        await insertProxy(db, request.body)
        return reply.code(201).send(request.body)
      },
    )

    app.get(
      '/admin/reverseProxies/:proxyName',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'One reverse proxy configuration',
          params: ProxyParams,
          response: { 200: ReverseProxy },
        },
      },
      async (request) => {
        const proxy = await findProxy(db, request.params.proxyName)
        if (!proxy) throw notFound(`Reverse proxy ${request.params.proxyName} does not exist`)
        return proxy
      },
    )

    app.put(
      '/admin/reverseProxies/:proxyName',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'Change a reverse proxy configuration',
          params: ProxyParams,
          body: ReverseProxy,
          response: { 200: ReverseProxy },
        },
      },
      async (request) => {
        checkProxy(request.body)
        const { proxyName } = request.params
        await db.transaction().execute(async (tx) => {
          if (!(await findProxy(tx, proxyName))) throw notFound(`Reverse proxy ${proxyName} does not exist`)
          if (request.body.key !== proxyName && (await findProxy(tx, request.body.key))) {
            throw conflict(`A reverse proxy named ${request.body.key} already exists`)
          }
          await updateProxy(tx, proxyName, request.body)
        })
        return request.body
      },
    )

    app.delete(
      '/admin/reverseProxies/:proxyName',
      {
        config: { access: 'admin' },
        schema: { tags: ['shell'], summary: 'Remove a reverse proxy configuration', params: ProxyParams },
      },
      async (request, reply) => {
        if (!(await deleteProxy(db, request.params.proxyName)))
          throw notFound(`Reverse proxy ${request.params.proxyName} does not exist`)
        return reply.code(204).send()
      },
    )

    app.get(
      '/admin/reverseProxies/:proxyName/nginx',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'The nginx configuration for a reverse proxy',
          params: ProxyParams,
          response: { 200: NginxConfig },
        },
      },
      async (request) => {
        const proxy = await findProxy(db, request.params.proxyName)
        if (!proxy) throw notFound(`Reverse proxy ${request.params.proxyName} does not exist`)
        return { config: nginxConfig(proxy, fallbackUpstream()) }
      },
    )

    app.get(
      '/admin/reverseProxies/:proxyName/haproxy',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['shell'],
          summary: 'The haproxy configuration for a reverse proxy',
          params: ProxyParams,
          response: { 200: HaproxyConfig },
        },
      },
      async (request) => {
        const proxy = await findProxy(db, request.params.proxyName)
        if (!proxy) throw notFound(`Reverse proxy ${request.params.proxyName} does not exist`)
        return { config: haproxyConfig(proxy, fallbackUpstream()) }
      },
    )
  }

function checkProxy(proxy: ReverseProxy): void {
  if (!proxy.useHttp && !proxy.useHttps) throw badRequest('Invalid request: body.useHttp: choose HTTP, HTTPS or both')
  // haproxy reads the certificate and its key from one PEM file.
  if (proxy.useHttps && proxy.webServerType === 'haproxy' && !proxy.sslCertificate) {
    throw badRequest('Invalid request: body.sslCertificate: HTTPS needs a PEM file with the certificate and its key')
  }
  if (proxy.useHttps && proxy.webServerType !== 'haproxy' && (!proxy.sslCertificate || !proxy.sslKey)) {
    throw badRequest('Invalid request: body.sslCertificate: HTTPS needs a certificate and a key file')
  }
  if (proxy.upstreamUrl && !/^https?:\/\/[^/]+/.test(proxy.upstreamUrl))
    throw badRequest('Invalid request: body.upstreamUrl: Enter a valid URL')
  const nodeUrls = proxy.clusterNodeUrls ?? []
  const badNode = nodeUrls.findIndex((url) => !/^https?:\/\/[^/]+/.test(url) || !URL.canParse(url))
  if (badNode >= 0) throw badRequest(`Invalid request: body.clusterNodeUrls.${badNode}: Enter a valid URL`)
  if (proxy.dockerReverseProxyMethod === 'PORTPERREPO' && proxy.reverseProxyRepositories.some((r) => !r.serverPort)) {
    throw badRequest('Invalid request: body.reverseProxyRepositories: every repository needs a port')
  }
}
