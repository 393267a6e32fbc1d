import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { advisoryDatabaseNotice } from '@trove/contracts/scanner'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../core/context.js'
import { HttpError, notFound } from '../../core/errors.js'
import { IgnoreForm, PolicyForm, type PolicyService, WatchForm } from './policies.js'
import { advisoryDetails, databaseState, findingsPage, SCAN_SEVERITIES, scanStates } from './queries.js'
import { CYCLONEDX_VERSIONS, loadSbomSource, SBOM_FORMATS, sbomFileName } from './sbom.js'
import { cyclonedxDocument } from './sbomCyclonedx.js'
import { spdxDocument } from './sbomSpdx.js'
import { searchSecurity } from './securitySearch.js'
import type { ScannerService } from './service.js'

const user = { access: 'user' } as const
const admin = { access: 'admin' } as const

const PackageVersion = z.object({
  /** `<type>://<name>`, the packages browser's package id */
  package_id: z.string().min(4).max(1024),
  version: z.string().min(1).max(255),
  /** Prefer this repository's copy when several hold the version */
  repo: z.string().max(64).optional(),
  all_components: z.boolean().optional(),
})
const PageQuery = z.object({
  direction: z.enum(['asc', 'desc']).default('desc'),
  num_of_rows: z.coerce.number().int().min(1).max(100).default(20),
  order_by: z.enum(['last_updated', 'severity', 'component']).default('last_updated'),
  page_num: z.coerce.number().int().min(1).max(100_000).default(1),
})
const SbomQuery = z.object({
  package_id: PackageVersion.shape.package_id,
  version: PackageVersion.shape.version,
  repo: PackageVersion.shape.repo,
  format: z.enum(SBOM_FORMATS),
  /** CycloneDX only: the specification version the document follows */
  spec_version: z.enum(CYCLONEDX_VERSIONS).default('1.6'),
})
const SBOM_TYPES = { cyclonedx: 'application/vnd.cyclonedx+json', spdx: 'application/spdx+json' } as const
const SearchTerms = z.array(z.string().trim().min(1).max(255)).max(20).default([])
const SecuritySearchBody = z.object({
  /** An advisory id or alias (CVE-…), or a component's name */
  query: z.string().trim().max(255).default(''),
  cve: SearchTerms,
  severities: z.array(z.enum(SCAN_SEVERITIES)).max(5).default([]),
  /** SPDX ids or declared licence names */
  licenses: SearchTerms,
  repositories: z.array(z.string().min(1).max(64)).max(200).default([]),
})
const AdvisoryRequest = z.object({ id: z.string().min(1).max(255) })
const FeedForm = z.object({
  url: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'expected an http(s) URL or nothing' })]),
  intervalHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30),
})

/**
 * The scanner's calls (packages-and-operations §7), under /ui/api/v1/xray/ui. A version is found
 * by its package id and name; the caller must be able to read a repository that holds it.
 */
export const scannerRoutes =
  (ctx: AppContext, scanner: ScannerService, policies: PolicyService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['scanner']

    async function visibleVersion(
      request: FastifyRequest,
      body: Pick<z.infer<typeof PackageVersion>, 'package_id' | 'version' | 'repo'>,
    ) {
      const [type, ...rest] = body.package_id.split('://')
      const name = rest.join('://')
      if (!type || !name) throw new HttpError(400, 'package_id: expected <type>://<name>')
      const rows = await ctx.db.kysely
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['v.id', 'v.repo_key'])
        .where('p.package_type', '=', type)
        .where('p.name', '=', name)
        .where('v.version', '=', body.version)
        .execute()
      const principal = await ctx.principal(request)
      const readable = new Set(
        await ctx.authz.readableRepoKeys(
          principal,
          rows.map((r) => r.repo_key),
        ),
      )
      const visible = rows.filter((r) => readable.has(r.repo_key))
      const row = visible.find((r) => r.repo_key === body.repo) ?? visible[0]
      if (!row) throw notFound(`${name}@${body.version} is not in any repository you can read`)
      return row
    }

    app.get('/homepage/getXrayVersion', { config: user, schema: { tags, summary: "The scanner's version" } }, async () => ({
      xray_version: ctx.build.version,
      xray_revision: ctx.build.revision,
    }))

    app.post(
      '/search/security',
      {
        config: user,
        schema: {
          tags,
          summary: 'The security-compliance search: advisories and the versions they impact, versions by licence',
          body: SecuritySearchBody,
        },
      },
      async (request) => {
        const principal = await ctx.principal(request)
        let readable: string[] | null = null
        if (!principal?.admin) {
          const keys = (await ctx.db.kysely.selectFrom('repositories').select('key').execute()).map((r) => r.key)
          readable = await ctx.authz.readableRepoKeys(principal, keys)
        }
        const b = request.body
        return searchSecurity(ctx.db.kysely, readable, {
          text: b.query,
          cve: b.cve,
          severities: b.severities,
          licenses: b.licenses,
          repositories: b.repositories,
        })
      },
    )

    app.post(
      '/component/summary',
      { config: user, schema: { tags, summary: "A version's scan state and counts by severity", body: PackageVersion } },
      async (request) => {
        const row = await visibleVersion(request, request.body)
        const state = (await scanStates(ctx.db.kysely, [row.id])).get(row.id)
        return state ?? { state: 'waiting', reason: null, scannedAt: null, os: null, counts: null }
      },
    )

    app.post(
      '/component/paginatedsearch',
      {
        config: user,
        schema: { tags, summary: "One page of a version's vulnerable components", querystring: PageQuery, body: PackageVersion },
      },
      async (request) => {
        const row = await visibleVersion(request, request.body)
        const q = request.query
        return findingsPage(
          ctx.db.kysely,
          { versionId: row.id },
          {
            number: q.page_num,
            rows: q.num_of_rows,
            orderBy: q.order_by,
            direction: q.direction,
          },
        )
      },
    )

    // A GET, so a script's bearer token and a link in the console (the session cookie) both download it.
    app.get(
      '/component/sbom',
      {
        config: user,
        schema: { tags, summary: "A scanned version's SBOM: CycloneDX or SPDX JSON, as an attachment", querystring: SbomQuery },
      },
      async (request, reply) => {
        const q = request.query
        const row = await visibleVersion(request, q)
        const principal = await ctx.principal(request)
        const source = await loadSbomSource(ctx.db.kysely, row.id, (keys) => ctx.authz.readableRepoKeys(principal, keys))
        const tool = { name: 'trove', version: ctx.build.version }
        const base = ctx.config.baseUrl ?? `${request.protocol}://${request.host}`
        const body =
          q.format === 'cyclonedx'
            ? cyclonedxDocument(source, q.spec_version, tool)
            : JSON.stringify(spdxDocument(source, `${base}/spdx`, tool), null, 2)
        const type = q.format === 'cyclonedx' ? `${SBOM_TYPES.cyclonedx}; version=${q.spec_version}` : SBOM_TYPES.spdx
        // A Buffer, so the type goes out as written (JSON is UTF-8 by definition; no charset parameter).
        return reply
          .header('content-type', type)
          .header('content-disposition', `attachment; filename="${sbomFileName(source.root, q.format)}"`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(body))
      },
    )

    app.post(
      '/component/details/general',
      { config: user, schema: { tags, summary: 'One advisory with its references and fixed versions', body: AdvisoryRequest } },
      async (request) => {
        const details = await advisoryDetails(ctx.db.kysely, request.body.id)
        if (!details) throw notFound(`No advisory ${request.body.id}`)
        return details
      },
    )

    // ---- administration: the advisory database ----

    app.get(
      '/admin/database',
      { config: admin, schema: { tags, summary: 'The advisory database and its imports' } },
      async () => {
        const k = ctx.db.kysely
        const [state, imports, waiting, feed] = await Promise.all([
          databaseState(k),
          k.selectFrom('advisory_imports').selectAll().orderBy('id', 'desc').limit(10).execute(),
          k
            .selectFrom('package_versions as v')
            .leftJoin('scan_status as s', 's.version_id', 'v.id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where((eb) => eb.or([eb('s.version_id', 'is', null), eb('s.state', '=', 'scanning')]))
            .executeTakeFirst(),
          scanner.feedSettings(),
        ])
        return {
          enabled: scanner.enabled,
          advisories: state.advisories,
          updatedAt: state.updatedAt,
          notice: advisoryDatabaseNotice(state.advisories, state.updatedAt),
          waiting: Number(waiting?.n ?? 0),
          feed,
          imports: imports.map((i) => ({
            id: i.id,
            source: i.source,
            state: i.state,
            records: i.records,
            message: i.message,
            startedAt: i.started_at,
            finishedAt: i.finished_at,
            createdBy: i.created_by,
          })),
        }
      },
    )

    // The body is the OSV zip or JSON as is; it streams to a temporary file, then one transaction imports it.
    app.addContentTypeParser(['application/zip', 'application/octet-stream'], (_request, payload, done) => done(null, payload))
    app.post(
      '/admin/database/import',
      {
        config: admin,
        bodyLimit: ctx.config.scanner.maxUploadBytes,
        schema: { tags, summary: 'Import OSV advisories: a zip as osv.dev publishes, one record, or an array' },
      },
      async (request) => {
        const principal = await ctx.principal(request)
        const dir = await fs.promises.mkdtemp(path.join(ctx.config.dataDir, 'tmp-osv-'))
        try {
          const file = path.join(dir, 'upload')
          const body = request.body
          if (body && typeof (body as NodeJS.ReadableStream).pipe === 'function') {
            await pipeline(body as NodeJS.ReadableStream, fs.createWriteStream(file))
          } else if (body !== undefined) {
            await fs.promises.writeFile(file, JSON.stringify(body))
          } else throw new HttpError(400, 'The body is empty: send an OSV zip or JSON')
          const name = typeof request.headers['x-file-name'] === 'string' ? request.headers['x-file-name'] : 'upload'
          return await scanner.importFile(file, `upload:${name}`, principal?.name ?? null)
        } finally {
          await fs.promises.rm(dir, { recursive: true, force: true })
        }
      },
    )

    app.put(
      '/admin/database/feed',
      { config: admin, schema: { tags, summary: 'Where advisories are synced from, and how often', body: FeedForm } },
      async (request) => scanner.setFeedSettings(request.body),
    )

    app.post(
      '/admin/database/sync',
      { config: admin, schema: { tags, summary: 'Sync the advisory feed now' } },
      async (request) => {
        const principal = await ctx.principal(request)
        return scanner.syncFeed(principal?.name ?? null)
      },
    )

    // ---- policies, watches, violations and ignore rules ----

    const NameParams = z.object({ name: z.string().min(1).max(128) })
    const IdParams = z.object({ id: z.coerce.number().int().min(1) })
    app.get('/admin/policies', { config: admin, schema: { tags, summary: 'Policies' } }, async () => policies.listPolicies())
    app.post(
      '/admin/policies',
      { config: admin, schema: { tags, summary: 'Create a policy', body: PolicyForm } },
      async (request, reply) => {
        await policies.savePolicy(request.body)
        return reply.code(201).send({ name: request.body.name })
      },
    )
    app.put(
      '/admin/policies/:name',
      { config: admin, schema: { tags, summary: 'Change a policy', params: NameParams, body: PolicyForm } },
      async (request) => {
        await policies.savePolicy(request.body, request.params.name)
        return { name: request.body.name }
      },
    )
    app.delete(
      '/admin/policies/:name',
      { config: admin, schema: { tags, summary: 'Delete a policy', params: NameParams } },
      async (request, reply) => {
        await policies.deletePolicy(request.params.name)
        return reply.code(204).send()
      },
    )
    app.get('/admin/watches', { config: admin, schema: { tags, summary: 'Watches' } }, async () => policies.listWatches())
    app.post(
      '/admin/watches',
      { config: admin, schema: { tags, summary: 'Create a watch', body: WatchForm } },
      async (request, reply) => {
        await policies.saveWatch(request.body)
        return reply.code(201).send({ name: request.body.name })
      },
    )
    app.put(
      '/admin/watches/:name',
      { config: admin, schema: { tags, summary: 'Change a watch', params: NameParams, body: WatchForm } },
      async (request) => {
        await policies.saveWatch(request.body, request.params.name)
        return { name: request.body.name }
      },
    )
    app.delete(
      '/admin/watches/:name',
      { config: admin, schema: { tags, summary: 'Delete a watch', params: NameParams } },
      async (request, reply) => {
        await policies.deleteWatch(request.params.name)
        return reply.code(204).send()
      },
    )
    app.get('/admin/ignore_rules', { config: admin, schema: { tags, summary: 'Ignore rules' } }, async () =>
      policies.listIgnoreRules(),
    )
    app.post(
      '/admin/ignore_rules',
      { config: admin, schema: { tags, summary: 'Ignore a violation, with a reason', body: IgnoreForm } },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        return reply.code(201).send({ id: await policies.addIgnoreRule(request.body, principal?.name ?? 'unknown') })
      },
    )
    app.delete(
      '/admin/ignore_rules/:id',
      { config: admin, schema: { tags, summary: 'Remove an ignore rule', params: IdParams } },
      async (request, reply) => {
        const principal = await ctx.principal(request)
        await policies.removeIgnoreRule(request.params.id, principal?.name ?? 'unknown')
        return reply.code(204).send()
      },
    )
    app.get(
      '/admin/violations',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Violations of every watch',
          querystring: z.object({
            repo: z.string().max(64).optional(),
            type: z.enum(['security', 'license']).optional(),
            severity: z.enum(['critical', 'high', 'medium', 'low', 'unknown']).optional(),
          }),
        },
      },
      async (request) => policies.violations(request.query),
    )
    // §7: a package's violations, for the versions the caller can read.
    app.post(
      '/unified/artifactViolationsByPackage',
      {
        config: user,
        schema: {
          tags,
          summary: "A package's policy violations",
          querystring: z.object({ new_severities: z.string().optional() }),
          body: z.object({ package_id: z.string().min(4).max(1024), version: z.string().max(255).optional() }),
        },
      },
      async (request) => {
        const [type, ...rest] = request.body.package_id.split('://')
        const name = rest.join('://')
        let q = ctx.db.kysely
          .selectFrom('package_versions as v')
          .innerJoin('packages as p', 'p.id', 'v.package_id')
          .select(['v.id', 'v.repo_key'])
          .where('p.package_type', '=', type ?? '')
          .where('p.name', '=', name)
        if (request.body.version) q = q.where('v.version', '=', request.body.version)
        const rows = await q.execute()
        const readable = new Set(
          await ctx.authz.readableRepoKeys(
            await ctx.principal(request),
            rows.map((r) => r.repo_key),
          ),
        )
        const ids = rows.filter((r) => readable.has(r.repo_key)).map((r) => r.id)
        return { violations: await policies.violations({ versionIds: ids }) }
      },
    )
  }
