import {
  LoginScreenSettings,
  OAuthProvider,
  OAuthProviderInput,
  OAuthProviderList,
  SamlSettings,
  SamlSettingsView,
} from '@trove/contracts/sso'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { badRequest, conflict, notFound } from '../../core/errors.js'
import { setSetting } from '../../core/settings.js'
import { certificateBody } from './certificate.js'
import { deleteProvider, findProvider, insertProvider, listProviders, type ProviderRow, updateProvider } from './repo.js'
import {
  LOGIN_SCREEN_SETTING,
  oauthRedirectUri,
  publicBaseUrl,
  readLoginScreenSettings,
  readSamlSettings,
  SAML_SETTING,
  samlAcsUrl,
  samlMetadataUrl,
  samlRegistrationId,
} from './service.js'

const NameParams = z.object({ name: z.string().min(1).max(64) })

function toView(row: ProviderRow, redirectUri: string): OAuthProvider {
  return {
    name: row.name,
    type: row.type as OAuthProvider['type'],
    issuerUrl: row.issuer_url,
    clientId: row.client_id,
    hasClientSecret: true,
    icon: row.icon,
    enabled: Boolean(row.enabled),
    autoCreateUsers: Boolean(row.auto_create_users),
    defaultGroups: JSON.parse(row.default_groups) as string[],
    redirectUri,
  }
}

/** Single-sign-on configuration for administrators, under /ui/api/v1/ui/admin. */
export const ssoAdminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    app.get(
      '/security/oauth',
      {
        config: { access: 'admin' },
        schema: { tags: ['sso'], summary: 'List OAuth / OpenID Connect providers', response: { 200: OAuthProviderList } },
      },
      async (request) => {
        const redirectUri = oauthRedirectUri(publicBaseUrl(ctx, request))
        return { providers: (await listProviders(db)).map((row) => toView(row, redirectUri)) }
      },
    )

    app.post(
      '/security/oauth',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['sso'],
          summary: 'Add an OAuth / OpenID Connect provider',
          body: OAuthProviderInput,
          response: { 201: OAuthProvider },
        },
      },
      async (request, reply) => {
        const input = request.body
        if (!input.clientSecret) throw badRequest('Invalid request: body.clientSecret: a new provider needs its client secret')
        if (await findProvider(db, input.name)) throw conflict(`A provider named ${input.name} already exists`)
        await insertProvider(db, {
          name: input.name,
          type: input.type,
          issuer_url: input.issuerUrl.trim(),
          client_id: input.clientId,
          client_secret_sealed: ctx.secrets.seal(input.clientSecret),
          icon: input.icon || null,
          enabled: input.enabled ? 1 : 0,
          auto_create_users: input.autoCreateUsers ? 1 : 0,
          default_groups: JSON.stringify(input.defaultGroups),
        })
        const row = await findProvider(db, input.name)
        if (!row) throw notFound(`No provider named ${input.name}`)
        request.log.info({ provider: input.name, type: input.type }, 'oauth provider added')
        return reply.code(201).send(toView(row, oauthRedirectUri(publicBaseUrl(ctx, request))))
      },
    )

    app.put(
      '/security/oauth/:name',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['sso'],
          summary: 'Change an OAuth / OpenID Connect provider (without clientSecret the stored one is kept)',
          params: NameParams,
          body: OAuthProviderInput,
          response: { 200: OAuthProvider },
        },
      },
      async (request) => {
        const row = await findProvider(db, request.params.name)
        if (!row) throw notFound(`No provider named ${request.params.name}`)
        const input = request.body
        if (input.name !== row.name && (await findProvider(db, input.name))) {
          throw conflict(`A provider named ${input.name} already exists`)
        }
        await updateProvider(db, row.id, {
          name: input.name,
          type: input.type,
          issuer_url: input.issuerUrl.trim(),
          client_id: input.clientId,
          client_secret_sealed: input.clientSecret ? ctx.secrets.seal(input.clientSecret) : row.client_secret_sealed,
          icon: input.icon || null,
          enabled: input.enabled ? 1 : 0,
          auto_create_users: input.autoCreateUsers ? 1 : 0,
          default_groups: JSON.stringify(input.defaultGroups),
        })
        const updated = await findProvider(db, input.name)
        if (!updated) throw notFound(`No provider named ${input.name}`)
        request.log.info({ provider: input.name }, 'oauth provider changed')
        return toView(updated, oauthRedirectUri(publicBaseUrl(ctx, request)))
      },
    )

    app.delete(
      '/security/oauth/:name',
      {
        config: { access: 'admin' },
        schema: { tags: ['sso'], summary: 'Remove an OAuth / OpenID Connect provider', params: NameParams },
      },
      async (request, reply) => {
        const row = await findProvider(db, request.params.name)
        if (!row) throw notFound(`No provider named ${request.params.name}`)
        await deleteProvider(db, row.id)
        request.log.info({ provider: row.name }, 'oauth provider removed')
        return reply.code(204).send()
      },
    )

    const samlView = async (base: string) => {
      const settings = await readSamlSettings(db)
      return {
        settings,
        metadataUrl: samlMetadataUrl(base),
        acsUrl: samlAcsUrl(base),
        registrationId: await samlRegistrationId(db),
      }
    }

    app.get(
      '/security/saml',
      {
        config: { access: 'admin' },
        schema: { tags: ['sso'], summary: 'The SAML identity provider settings', response: { 200: SamlSettingsView } },
      },
      async (request) => samlView(publicBaseUrl(ctx, request)),
    )

    app.put(
      '/security/saml',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['sso'],
          summary: 'Set the SAML identity provider',
          body: SamlSettings,
          response: { 200: SamlSettingsView },
        },
      },
      async (request) => {
        const body = certificateBody(request.body.certificate)
        if (!/^[A-Za-z0-9+/=]{100,}$/.test(body)) {
          throw badRequest('Invalid request: body.certificate: not a PEM or base64 certificate')
        }
        await setSetting(db, SAML_SETTING, request.body)
        request.log.info({ enabled: request.body.enabled }, 'saml settings changed')
        return samlView(publicBaseUrl(ctx, request))
      },
    )

    app.get(
      '/security/loginScreen',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['sso'],
          summary: 'Login screen settings (auto-redirect, view mode, notice)',
          response: { 200: LoginScreenSettings },
        },
      },
      async () => readLoginScreenSettings(db),
    )

    app.put(
      '/security/loginScreen',
      {
        config: { access: 'admin' },
        schema: {
          tags: ['sso'],
          summary: 'Change the login screen settings',
          body: LoginScreenSettings,
          response: { 200: LoginScreenSettings },
        },
      },
      async (request) => {
        await setSetting(db, LOGIN_SCREEN_SETTING, request.body)
        return request.body
      },
    )
  }
