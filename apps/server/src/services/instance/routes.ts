import { DEFAULT_PROJECT } from '@trove/contracts/messages'
import { SERVICE_TYPES } from '@trove/contracts/operations'
import {
  AvailablePackages,
  BlockedUsages,
  Entitlements,
  FeatureConfig,
  FrontendVersion,
  LocalStorage,
  Microservices,
  OnboardingInitStatus,
  ProjectList,
  RepoData,
  SamlLogoutUrl,
  WebServerConfig,
} from '@trove/contracts/shell'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import { unauthorized } from '../../core/errors.js'
import {
  BLOCKED_USAGES_SETTING,
  readAnonymousAccess,
  readEntitlements,
  readFeatures,
  readGeneralConfig,
} from '../../core/instance.js'
import { getSetting } from '../../core/settings.js'
import { formats } from '../../formats/index.js'
import { hasOnlyDefaultRepos, SEEN_GETTING_STARTED_KEY, WIZARD_CLOSED_KEY } from '../onboarding/index.js'
import { runningServices } from '../operations/index.js'
import { listProxies } from './proxies.js'

/** Where the data-transfer quota banner's UPGRADE link leads. */
export const PURCHASE_URL = 'https://trove.example.org/pricing'

/** Written by the single-sign-on area. */
const SAML_SETTING = 'security.saml'

/**
 * The console's start-up calls (shell §4.5), under /ui/api/v1/ui. The first five answer anyone;
 * the rest answer a signed-in user, or anyone when anonymous access is on.
 */
export const startupRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.db.kysely

    /** A signed-in caller, or null for an anonymous one when anonymous access is on; else 401. */
    const callerOrAnonymous = async (request: FastifyRequest): Promise<Principal | null> => {
      const principal = await ctx.principal(request)
      if (principal) return principal
      if (await readAnonymousAccess(db)) return null
      throw unauthorized()
    }
    const caller = async (request: FastifyRequest): Promise<Principal> => {
      const principal = await ctx.principal(request)
      if (!principal) throw unauthorized()
      return principal
    }

    app.get(
      '/frontend/version',
      {
        config: { access: 'public' },
        schema: { tags: ['shell'], summary: 'The console version the server serves', response: { 200: FrontendVersion } },
      },
      async () => ({ version: ctx.build.version, revision: ctx.build.revision }),
    )

    app.get(
      '/microservices',
      {
        config: { access: 'public' },
        schema: {
          tags: ['shell'],
          summary: "Trove's services, each enabled while an Online node of the cluster runs it (node heartbeats)",
          response: { 200: Microservices },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store')
        const running = await runningServices(db)
        return { services: SERVICE_TYPES.map((name) => ({ name, enabled: running.has(name) })) }
      },
    )

    app.get(
      '/entitlements',
      {
        config: { access: 'public' },
        schema: {
          tags: ['shell'],
          summary: 'Flavour, deployment, licence and access switches',
          response: { 200: Entitlements },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store')
        return readEntitlements(db, ctx.config)
      },
    )

    app.get(
      '/featureConfig',
      {
        config: { access: 'public' },
        schema: { tags: ['shell'], summary: 'Feature flags', response: { 200: FeatureConfig } },
      },
      async () => ({ features: await readFeatures(db, ctx.config) }),
    )

    app.get(
      '/localStorage',
      {
        config: { access: 'user' },
        schema: { tags: ['shell'], summary: "The caller's console state", response: { 200: LocalStorage } },
      },
      async (request) => {
        const principal = await caller(request)
        const rows = await db
          .selectFrom('user_local_storage')
          .select(['key', 'value'])
          .where('user_id', '=', principal.userId)
          .execute()
        return Object.fromEntries(rows.map((r) => [r.key, r.value]))
      },
    )

    app.put(
      '/localStorage',
      {
        config: { access: 'user' },
        schema: {
          tags: ['shell'],
          summary: "Sets (or with null removes) keys of the caller's console state",
          body: z.record(z.string().min(1).max(100), z.string().max(10_000).nullable()),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const principal = await caller(request)
        const now = Date.now()
        await db.transaction().execute(async (tx) => {
          for (const [key, value] of Object.entries(request.body)) {
            if (value === null) {
              await tx.deleteFrom('user_local_storage').where('user_id', '=', principal.userId).where('key', '=', key).execute()
            } else {
              await tx
                .insertInto('user_local_storage')
                .values({ user_id: principal.userId, key, value, updated_at: now })
                .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value, updated_at: now }))
                .execute()
            }
          }
        })
        return reply.code(204).send(null)
      },
    )

    app.get(
      '/shell/projects',
      {
        config: { access: 'public' },
        schema: {
          tags: ['shell'],
          summary: 'Projects the caller sees, the default project first',
          response: { 200: ProjectList },
        },
      },
      async (request) => {
        const principal = await callerOrAnonymous(request)
        const admin = principal?.admin === true
        // An admin sees every project; a user the projects they belong to (directly or through a
        // group), marked admin where a project role lets them manage it.
        const adminOf = new Set(principal && !admin ? await ctx.authz.projectAdminOf(principal.userId) : [])
        let query = db.selectFrom('projects').select(['key', 'display_name']).orderBy('key')
        if (!admin) {
          const userId = principal?.userId ?? -1
          query = query.where((eb) =>
            eb.or([
              eb('key', 'in', [...adminOf, '']),
              eb(
                'id',
                'in',
                eb
                  .selectFrom('project_members')
                  .select('project_id')
                  .where((m) =>
                    m.or([
                      m.and([m('member_kind', '=', 'user'), m('member_id', '=', userId)]),
                      m.and([
                        m('member_kind', '=', 'group'),
                        m('member_id', 'in', m.selectFrom('group_members').select('group_id').where('user_id', '=', userId)),
                      ]),
                    ]),
                  ),
              ),
            ]),
          )
        }
        const projects = (await query.execute())
          .filter((p) => p.key !== DEFAULT_PROJECT.key)
          .map((p) => ({ key: p.key, name: p.display_name || p.key, admin: admin || adminOf.has(p.key) }))
        return { projects: [{ ...DEFAULT_PROJECT, admin }, ...projects] }
      },
    )

    app.get(
      '/shell/samlLogoutUrl',
      {
        config: { access: 'public' },
        schema: { tags: ['shell'], summary: 'Where a SAML user goes after logout', response: { 200: SamlLogoutUrl } },
      },
      async (request) => {
        await callerOrAnonymous(request)
        // The SAML settings the single-sign-on area keeps; only an http(s) address is followed.
        const saml = await getSetting<{ logoutUrl?: string | null; enabled?: boolean } | null>(db, SAML_SETTING, null)
        const url = saml?.enabled && saml.logoutUrl ? saml.logoutUrl : null
        return { logoutUrl: url && /^https?:\/\//i.test(url) ? url : null }
      },
    )

    app.get(
      '/shell/availablePackages',
      {
        config: { access: 'public' },
        schema: {
          tags: ['shell'],
          summary: 'Package types this instance serves: one per format it has a handler for',
          response: { 200: AvailablePackages },
        },
      },
      async (request) => {
        await callerOrAnonymous(request)
        return { packageTypes: formats.map((f) => f.type) }
      },
    )

    app.get(
      '/shell/repoData',
      {
        config: { access: 'public' },
        schema: { tags: ['shell'], summary: 'How many repositories of each kind exist', response: { 200: RepoData } },
      },
      async (request) => repoCounts(await callerOrAnonymous(request)),
    )

    /**
     * How many repositories of each class the caller may read (an administrator: all of them):
     * a count says no more about repositories than a listing would.
     */
    const repoCounts = async (principal: Principal | null) => {
      const rows = await db.selectFrom('repositories').select(['key', 'rclass']).execute()
      const readable = principal?.admin
        ? null
        : new Set(
            await ctx.authz.readableRepoKeys(
              principal,
              rows.map((r) => r.key),
            ),
          )
      const count = (rclass: string) => rows.filter((r) => r.rclass === rclass && (!readable || readable.has(r.key))).length
      return { local: count('local'), remote: count('remote'), virtual: count('virtual'), federated: count('federated') }
    }

    app.get(
      '/onboarding/initStatus',
      {
        config: { access: 'user' },
        schema: { tags: ['shell'], summary: 'What onboarding the caller still needs', response: { 200: OnboardingInitStatus } },
      },
      async (request) => {
        const principal = await caller(request)
        const onlyDefaults = await hasOnlyDefaultRepos(db)
        const state = await db
          .selectFrom('user_local_storage')
          .select(['key', 'value'])
          .where('user_id', '=', principal.userId)
          .where('key', 'in', [WIZARD_CLOSED_KEY, SEEN_GETTING_STARTED_KEY])
          .execute()
        const sessions = await db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', principal.userId)
          .executeTakeFirst()
        const flag = (key: string) => state.some((r) => r.key === key && r.value === 'true')
        const isWizardClosed = flag(WIZARD_CLOSED_KEY)
        return {
          hasOnlyDefaultRepos: onlyDefaults,
          isOnboardingNeeded: principal.admin && onlyDefaults && !isWizardClosed,
          isFirstLogin: Number(sessions?.n ?? 0) <= 1,
          userSeenGettingStarted: flag(SEEN_GETTING_STARTED_KEY),
          isWizardClosed,
        }
      },
    )

    app.get(
      '/subscription/blockedUsages',
      {
        config: { access: 'public' },
        schema: { tags: ['shell'], summary: 'Usages blocked by the subscription quota', response: { 200: BlockedUsages } },
      },
      async (request) => {
        await callerOrAnonymous(request)
        const blocked = await getSetting(db, BLOCKED_USAGES_SETTING, { dataTransfer: false })
        return { dataTransfer: blocked.dataTransfer === true, purchaseUrl: PURCHASE_URL }
      },
    )

    app.get(
      '/system/configuration/webServer',
      {
        config: { access: 'public' },
        schema: { tags: ['shell'], summary: 'How users reach this instance', response: { 200: WebServerConfig } },
      },
      async (request) => {
        await callerOrAnonymous(request)
        const general = await readGeneralConfig(db, ctx.config)
        const proxies = await listProxies(db)
        return { baseUrl: general.baseUrl || null, reverseProxies: proxies.map((p) => p.key) }
      },
    )
  }
