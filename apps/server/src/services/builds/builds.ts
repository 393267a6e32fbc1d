import type { ArtifactBuild, ArtifactBuildsResponse, BuildInfoInput } from '@trove/contracts/packages'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import { badRequest, forbidden, notFound } from '../../core/errors.js'
import { runStatus } from './buildInfoDoc.js'

/** `2024-05-01T10:00:00.000+0000` (the build-info layout) or any ISO 8601 time → epoch ms. */
export function parseStarted(started: string): number {
  const ms = Date.parse(started.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
  if (!Number.isFinite(ms)) throw badRequest('started: expected an ISO 8601 time such as 2024-05-01T10:00:00.000+0000')
  return ms
}

/**
 * Stores published build info: the build row and, per module, the checksums of what it produced
 * and used. A build of the same name and number is replaced (that needs the delete permission on
 * the build); a new one needs deploy.
 */
export async function publishBuild(ctx: AppContext, principal: Principal | null, info: BuildInfoInput): Promise<void> {
  if (!(await ctx.authz.canOnBuild(principal, 'deploy', info.name))) {
    throw forbidden(`You may not publish builds named ${info.name}`)
  }
  const startedAt = parseStarted(info.started)
  const db = ctx.db.kysely
  await db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom('builds')
      .select('id')
      .where('name', '=', info.name)
      .where('number', '=', info.number)
      .executeTakeFirst()
    if (existing) {
      if (!(await ctx.authz.canOnBuild(principal, 'delete', info.name))) {
        throw forbidden(`Build ${info.name} #${info.number} exists; replacing it needs the delete permission`)
      }
      await tx.deleteFrom('builds').where('id', '=', existing.id).execute()
    }
    const { id } = await tx
      .insertInto('builds')
      .values({
        name: info.name,
        number: info.number,
        started: info.started,
        started_at: startedAt,
        url: info.url ?? null,
        agent: info.agent?.name ? `${info.agent.name}${info.agent.version ? `/${info.agent.version}` : ''}` : null,
        info: JSON.stringify(info),
        status: runStatus(info),
        created_by: principal?.name ?? null,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const items = (info.modules ?? []).flatMap((m) =>
      (
        [
          ['artifact', m.artifacts ?? []],
          ['dependency', m.dependencies ?? []],
        ] as const
      ).flatMap(([kind, list]) =>
        list
          .filter((a) => a.sha1 || a.sha256)
          .map((a) => ({
            build_id: id,
            module_id: m.id,
            kind,
            name: a.name ?? a.id ?? '',
            sha1: a.sha1?.toLowerCase() ?? null,
            sha256: a.sha256?.toLowerCase() ?? null,
            md5: a.md5?.toLowerCase() ?? null,
          })),
      ),
    )
    // Chunks keep each statement under SQLite's parameter limit.
    for (let i = 0; i < items.length; i += 100) {
      await tx
        .insertInto('build_items')
        .values(items.slice(i, i + 100))
        .execute()
    }
  })
}

/** Builds whose modules produced or used this file's content, newest first, readable ones only. */
export async function artifactBuilds(
  ctx: AppContext,
  principal: Principal | null,
  file: { sha1: string; sha256: string },
): Promise<ArtifactBuildsResponse> {
  const rows = await ctx.db.kysely
    .selectFrom('build_items as i')
    .innerJoin('builds as b', 'b.id', 'i.build_id')
    .select(['b.name', 'b.number', 'b.started', 'b.started_at', 'b.url', 'i.module_id', 'i.kind'])
    // A sha1 left for later ('') names no build item.
    .where((eb) => eb.or([eb('i.sha256', '=', file.sha256), eb('i.sha1', '=', file.sha1 || '-')]))
    .orderBy('b.started_at', 'desc')
    .orderBy('b.name')
    .limit(1000)
    .execute()
  const allowed = new Map<string, boolean>()
  const out: ArtifactBuildsResponse = { producedBy: [], usedBy: [] }
  const seen = new Set<string>()
  for (const r of rows) {
    if (!allowed.has(r.name)) allowed.set(r.name, await ctx.authz.canOnBuild(principal, 'read', r.name))
    if (!allowed.get(r.name)) continue
    const key = `${r.kind}\0${r.name}\0${r.number}\0${r.module_id}`
    if (seen.has(key)) continue
    seen.add(key)
    const build: ArtifactBuild = {
      name: r.name,
      number: r.number,
      started: new Date(Number(r.started_at)).toISOString(),
      ciUrl: r.url,
      moduleId: r.module_id,
    }
    ;(r.kind === 'artifact' ? out.producedBy : out.usedBy).push(build)
  }
  return out
}

/** GET /api/build: every build name the caller may read, with its latest start. */
export async function listBuilds(ctx: AppContext, principal: Principal | null) {
  const rows = await ctx.db.kysely
    .selectFrom('builds')
    .select(['name', (eb) => eb.fn.max('started_at').as('last')])
    .groupBy('name')
    .orderBy('name')
    .execute()
  const out: { uri: string; lastStarted: string }[] = []
  for (const r of rows) {
    if (!(await ctx.authz.canOnBuild(principal, 'read', r.name))) continue
    out.push({ uri: `/${encodeURIComponent(r.name)}`, lastStarted: new Date(Number(r.last)).toISOString() })
  }
  return out
}

/** GET /api/build/{name}: the runs of a build, newest first; 404 when none is readable. */
export async function buildRuns(ctx: AppContext, principal: Principal | null, name: string) {
  const rows = (await ctx.authz.canOnBuild(principal, 'read', name))
    ? await ctx.db.kysely
        .selectFrom('builds')
        .select(['number', 'started_at'])
        .where('name', '=', name)
        .orderBy('started_at', 'desc')
        .execute()
    : []
  if (rows.length === 0) throw notFound(`Build not found: ${name}`)
  return rows.map((r) => ({ uri: `/${encodeURIComponent(r.number)}`, started: new Date(Number(r.started_at)).toISOString() }))
}

/** GET /api/build/{name}/{number}: the document as published. */
export async function buildInfo(ctx: AppContext, principal: Principal | null, name: string, number: string) {
  const row = (await ctx.authz.canOnBuild(principal, 'read', name))
    ? await ctx.db.kysely
        .selectFrom('builds')
        .select('info')
        .where('name', '=', name)
        .where('number', '=', number)
        .executeTakeFirst()
    : undefined
  if (!row) throw notFound(`Build not found: ${name} #${number}`)
  return JSON.parse(row.info) as Record<string, unknown>
}
