import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type { Dialect } from '../../core/db.js'
import { badRequest } from '../../core/errors.js'
import type { Database } from '../../core/schema.js'
import { contains, like, likeLiteral } from '../../core/sqlLike.js'
import { rankExpression, textCondition } from './textSearch.js'

/**
 * SQL of the packages browser. Every list pages by keyset (the sort value and a unique tie-breaker
 * in the cursor), so a page costs the same at row 100 and at row 100,000. Text compares byte-wise
 * in both dialects (see migration 0070), which lets a name prefix become an index range.
 */

type Eb = ExpressionBuilder<Database & { p: Database['packages'] }, 'p'>

/** Repositories the caller may read; null means every one (no filter needed). */
export type Readable = string[] | null

// ---------------------------------------------------------------- globs

/** `*` any run, `?` one character. Returns the literal prefix before the first wildcard. */
export function globPrefix(glob: string): { prefix: string; wildcard: boolean; onlyTrailingStar: boolean } {
  const i = glob.search(/[*?]/)
  if (i < 0) return { prefix: glob, wildcard: false, onlyTrailingStar: false }
  return { prefix: glob.slice(0, i), wildcard: true, onlyTrailingStar: i === glob.length - 1 && glob[i] === '*' }
}

/** The smallest string above every string starting with `prefix` (byte order). */
export function prefixEnd(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0
  return prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1)) + String.fromCodePoint(last + 1)
}

function likePattern(glob: string): string {
  return likeLiteral(glob).replace(/\*/g, '%').replace(/\?/g, '_')
}
function sqliteGlob(glob: string): string {
  return glob.replace(/\[/g, '[[]')
}

/** A condition matching `column` against a glob, case-sensitively, using an index range for the prefix. */
export function globCondition(dialect: Dialect, column: string, glob: string): Expression<SqlBool> | null {
  const { prefix, wildcard, onlyTrailingStar } = globPrefix(glob)
  const col = sql.ref(column)
  if (!wildcard) return sql<SqlBool>`${col} = ${glob}`
  const parts = []
  if (prefix) parts.push(sql`${col} >= ${prefix} AND ${col} < ${prefixEnd(prefix)}`)
  if (!onlyTrailingStar && glob !== '*') {
    parts.push(dialect === 'sqlite' ? sql`${col} GLOB ${sqliteGlob(glob)}` : like(col, likePattern(glob)))
  }
  if (parts.length === 0) return null
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`
}

/** Case-insensitive glob (descriptions). */
export function iglobCondition(dialect: Dialect, column: string, glob: string): Expression<SqlBool> | null {
  if (glob.replace(/\*/g, '') === '') return null
  const col = sql.ref(column)
  return dialect === 'sqlite'
    ? sql<SqlBool>`lower(${col}) GLOB ${sqliteGlob(glob.toLowerCase())}`
    : sql<SqlBool>`${col} ILIKE ${likePattern(glob)} ESCAPE '\\'`
}

// ---------------------------------------------------------------- dates and cursors

/** `YYYY-MM-DD` (start of that day, UTC) or an ISO 8601 time → epoch ms. */
export function parseDate(value: string, field: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value)
  if (!Number.isFinite(ms)) throw badRequest(`${field}: expected a date as YYYY-MM-DD or an ISO 8601 time`)
  return ms
}

export type CursorValue = string | number
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url')
}
export function decodeCursor(cursor: string, shape: ('string' | 'number')[]): CursorValue[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown
    if (Array.isArray(values) && values.length === shape.length && values.every((v, i) => typeof v === shape[i])) {
      return values as CursorValue[]
    }
  } catch {
    // reported below
  }
  throw badRequest('after: not a cursor of this list (use pageInfo.endCursor of the previous page)')
}

// ---------------------------------------------------------------- packages

export interface PackageQuery {
  types?: string[]
  name?: string
  lowercaseName?: string
  description?: string
  tags?: string[]
  scope?: string
  /** free text (lowercased): any part of the name, description or a keyword (textSearch.ts) */
  text?: string
  /** repositories the versions must be in (readable ∩ asked), or null for any */
  repos: Readable
  before?: number
  after?: number
  versionCountMin?: number
}

export const PACKAGE_SORT = {
  NAME: { column: 'p.lowercase_name', type: 'string' },
  CREATED: { column: 'p.created_at', type: 'number' },
  MODIFIED: { column: 'p.modified_at', type: 'number' },
  DOWNLOADS: { column: 'p.downloads', type: 'number' },
} as const
/** RELEVANCE: the free text's rank, then the name (its cursor: rank, lowercase name, id). */
export type PackageSortField = keyof typeof PACKAGE_SORT | 'RELEVANCE'

export interface PackageRow {
  id: number
  package_type: string
  name: string
  lowercase_name: string
  description: string
  latest_version: string | null
  downloads: number
  created_at: number
  modified_at: number
  /** with the RELEVANCE order: the free text's rank */
  rank?: number
}

function packageWhere(dialect: Dialect, q: PackageQuery) {
  return (eb: Eb) => {
    const and: Expression<SqlBool>[] = []
    if (q.types && q.types.length > 0) and.push(eb('p.package_type', 'in', q.types))
    for (const [column, glob] of [
      ['p.name', q.name],
      ['p.lowercase_name', q.lowercaseName],
    ] as const) {
      if (glob === undefined || glob === '') continue
      const c = globCondition(dialect, column, glob)
      if (c) and.push(c)
    }
    if (q.scope) {
      const scope = q.scope.startsWith('@') ? q.scope : `@${q.scope}`
      const c = globCondition(dialect, 'p.name', `${scope}/*`)
      if (c) and.push(c)
    }
    if (q.text) and.push(textCondition(dialect, q.text))
    if (q.description) {
      const c = iglobCondition(dialect, 'p.description', q.description)
      if (c) and.push(c)
    }
    for (const tag of q.tags ?? []) {
      and.push(
        eb.exists(
          eb
            .selectFrom('package_tags as t')
            .select(sql.lit(1).as('one'))
            .whereRef('t.package_id', '=', 'p.id')
            .where('t.tag', '=', tag),
        ),
      )
    }
    if (q.before !== undefined) and.push(eb('p.modified_at', '<', q.before))
    if (q.after !== undefined) and.push(eb('p.modified_at', '>=', q.after))
    if (q.repos !== null) {
      and.push(
        eb.exists(
          eb
            .selectFrom('package_versions as v')
            .select(sql.lit(1).as('one'))
            .whereRef('v.package_id', '=', 'p.id')
            .where('v.repo_key', 'in', q.repos),
        ),
      )
    }
    if (q.versionCountMin !== undefined && q.versionCountMin > 1) {
      let count = eb
        .selectFrom('package_versions as v')
        .select(sql<number>`count(distinct v.version)`.as('n'))
        .whereRef('v.package_id', '=', 'p.id')
      if (q.repos !== null) count = count.where('v.repo_key', 'in', q.repos)
      and.push(eb(count, '>=', q.versionCountMin))
    }
    return eb.and(and)
  }
}

export async function listPackages(
  db: Kysely<Database>,
  dialect: Dialect,
  q: PackageQuery,
  sort: { field: PackageSortField; desc: boolean },
  first: number,
  after: CursorValue[] | null,
): Promise<PackageRow[]> {
  if (q.repos !== null && q.repos.length === 0) return []
  let query = db
    .selectFrom('packages as p')
    .select([
      'p.id',
      'p.package_type',
      'p.name',
      'p.lowercase_name',
      'p.description',
      'p.latest_version',
      'p.downloads',
      'p.created_at',
      'p.modified_at',
    ])
    .where(packageWhere(dialect, q))
  const dir = sort.desc ? sql`DESC` : sql`ASC`
  const cmp = sort.desc ? sql`<` : sql`>`
  if (sort.field === 'RELEVANCE') {
    const rank = q.text ? rankExpression(q.text) : sql<number>`0`
    let ranked = query.select(rank.as('rank'))
    if (after) {
      const [r, name, id] = after
      ranked = ranked.where(sql<SqlBool>`(${rank}, p.lowercase_name, p.id) ${cmp} (${r}, ${name}, ${id})`)
    }
    return (await ranked
      .orderBy(sql`${rank} ${dir}`)
      .orderBy(sql`p.lowercase_name ${dir}`)
      .orderBy(sql`p.id ${dir}`)
      .limit(first)
      .execute()) as PackageRow[]
  }
  const col = sql.ref(PACKAGE_SORT[sort.field].column)
  if (after) {
    const [value, id] = after
    query = query.where(sql<SqlBool>`(${col}, p.id) ${cmp} (${value}, ${id})`)
  }
  return (await query.orderBy(sql`${col} ${dir}`).orderBy(sql`p.id ${dir}`).limit(first).execute()) as PackageRow[]
}

export async function countPackages(db: Kysely<Database>, dialect: Dialect, q: PackageQuery): Promise<number> {
  if (q.repos !== null && q.repos.length === 0) return 0
  const row = await db
    .selectFrom('packages as p')
    .select(sql<number>`count(*)`.as('n'))
    .where(packageWhere(dialect, q))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function findPackage(db: Kysely<Database>, type: string, name: string): Promise<PackageRow | undefined> {
  return (await db
    .selectFrom('packages as p')
    .selectAll()
    .where('p.package_type', '=', type)
    .where('p.name', '=', name)
    .executeTakeFirst()) as PackageRow | undefined
}

/** Whether a package has a version in one of the repositories (null: any). */
export async function packageVisible(db: Kysely<Database>, pkgId: number, repos: Readable): Promise<boolean> {
  if (repos !== null && repos.length === 0) return false
  let q = db.selectFrom('package_versions').select('id').where('package_id', '=', pkgId)
  if (repos !== null) q = q.where('repo_key', 'in', repos)
  return (await q.limit(1).executeTakeFirst()) !== undefined
}

/** Per package of a page: how many version names the caller sees, and the highest (semver) of them. */
export async function versionSummaries(
  db: Kysely<Database>,
  pkgIds: number[],
  repos: Readable,
  withLatest: boolean,
): Promise<Map<number, { count: number; latest: string | null }>> {
  const out = new Map<number, { count: number; latest: string | null }>()
  if (pkgIds.length === 0) return out
  let q = db
    .selectFrom('package_versions as v')
    .select(['v.package_id', sql<number>`count(distinct v.version)`.as('n')])
    .where('v.package_id', 'in', pkgIds)
    .groupBy('v.package_id')
  if (repos !== null) q = q.where('v.repo_key', 'in', repos)
  if (withLatest) {
    q = q.select((eb) => {
      let top = eb
        .selectFrom('package_versions as w')
        .select('w.version')
        .whereRef('w.package_id', '=', 'v.package_id')
        .orderBy('w.semver_key', 'desc')
        .orderBy('w.version', 'desc')
        .limit(1)
      if (repos !== null) top = top.where('w.repo_key', 'in', repos)
      return top.as('latest')
    }) as unknown as typeof q
  }
  for (const r of (await q.execute()) as { package_id: number; n: number; latest?: string | null }[]) {
    out.set(Number(r.package_id), { count: Number(r.n), latest: r.latest ?? null })
  }
  return out
}

export async function tagsOf(db: Kysely<Database>, pkgIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>()
  if (pkgIds.length === 0) return out
  const rows = await db
    .selectFrom('package_tags')
    .select(['package_id', 'tag'])
    .where('package_id', 'in', pkgIds)
    .orderBy('tag')
    .execute()
  for (const r of rows) out.set(r.package_id, [...(out.get(r.package_id) ?? []), r.tag])
  return out
}

/** Licences the packages' latest versions declare. */
export async function latestLicenses(db: Kysely<Database>, pkgIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>()
  if (pkgIds.length === 0) return out
  const rows = await db
    .selectFrom('package_versions as v')
    .innerJoin('packages as p', (j) => j.onRef('p.id', '=', 'v.package_id').onRef('p.latest_version', '=', 'v.version'))
    .select(['v.package_id', 'v.licenses'])
    .where('v.package_id', 'in', pkgIds)
    .execute()
  for (const r of rows) {
    const names = new Set([...(out.get(r.package_id) ?? []), ...parseList(r.licenses)])
    out.set(r.package_id, [...names])
  }
  return out
}

export function parseList(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

// ---------------------------------------------------------------- versions

export interface VersionQuery {
  pkgId: number
  repos: Readable
  name?: string
  tags?: string[]
  before?: number
  after?: number
  licenses?: string[]
  /** Versions the scanner found at least one advisory of one of these severities in */
  severities?: ('critical' | 'high' | 'medium' | 'low' | 'unknown')[]
  /** Versions with a finding of this advisory (its id or an alias: a CVE id) */
  cve?: string
  releasesOnly?: boolean
}

export const VERSION_SORT = {
  NAME_SEMVER: { key: 'v.semver_key', type: 'string', aggregate: false },
  NAME: { key: 'v.version', type: 'string', aggregate: false },
  CREATED: { key: 'min(v.created_at)', type: 'number', aggregate: true },
  MODIFIED: { key: 'max(v.modified_at)', type: 'number', aggregate: true },
} as const
export type VersionSortField = keyof typeof VERSION_SORT

/** One page of version names (each name once, whatever the number of repositories holding it). */
export async function listVersionNames(
  db: Kysely<Database>,
  dialect: Dialect,
  q: VersionQuery,
  sort: { field: VersionSortField; desc: boolean },
  first: number,
  after: CursorValue[] | null,
): Promise<{ version: string; k: string | number }[]> {
  if (q.repos !== null && q.repos.length === 0) return []
  const spec = VERSION_SORT[sort.field]
  const key = spec.aggregate ? sql.raw(spec.key) : sql.ref(spec.key)
  let query = db
    .selectFrom('package_versions as v')
    .select([sql<string | number>`${key}`.as('k'), 'v.version'])
    .where('v.package_id', '=', q.pkgId)
  if (q.repos !== null) query = query.where('v.repo_key', 'in', q.repos)
  if (q.name) {
    const c = globCondition(dialect, 'v.version', q.name)
    if (c) query = query.where(c)
  }
  if (q.tags && q.tags.length > 0) {
    let tagged = db
      .selectFrom('dist_tags as d')
      .select('d.version')
      .where('d.package_id', '=', q.pkgId)
      .where('d.tag', 'in', q.tags)
    if (q.repos !== null) tagged = tagged.where('d.repo_key', 'in', q.repos)
    query = query.where('v.version', 'in', tagged)
  }
  if (q.before !== undefined) query = query.where('v.created_at', '<', q.before)
  if (q.after !== undefined) query = query.where('v.created_at', '>=', q.after)
  if (q.licenses && q.licenses.length > 0) {
    const licenses = q.licenses
    query = query.where((eb) => eb.or(licenses.map((l) => contains('v.licenses', JSON.stringify(l)))))
  }
  if (q.severities && q.severities.length > 0) {
    const severities = q.severities
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('scan_status as s')
          .select('s.version_id')
          .whereRef('s.version_id', '=', 'v.id')
          .where('s.state', '=', 'scanned')
          .where((e) => e.or(severities.map((sev) => e(`s.${sev}`, '>=', 1)))),
      ),
    )
  }
  if (q.cve) {
    const cve = q.cve
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('scan_findings as f')
          .innerJoin('advisories as a', 'a.id', 'f.advisory_id')
          .select('f.version_id')
          .whereRef('f.version_id', '=', 'v.id')
          .where((e) => e.or([e('a.id', '=', cve), contains('a.aliases', JSON.stringify(cve))])),
      ),
    )
  }
  if (q.releasesOnly) query = query.where('v.release', '=', 1)
  const cmp = sort.desc ? sql`<` : sql`>`
  if (spec.aggregate) {
    query = query.groupBy('v.version')
    if (after) query = query.having(sql<SqlBool>`(${key}, v.version) ${cmp} (${after[0]}, ${after[1]})`)
  } else {
    query = sort.field === 'NAME_SEMVER' ? query.groupBy(['v.semver_key', 'v.version']) : query.groupBy('v.version')
    if (after) query = query.where(sql<SqlBool>`(${key}, v.version) ${cmp} (${after[0]}, ${after[1]})`)
  }
  const dir = sort.desc ? sql`DESC` : sql`ASC`
  return (await query.orderBy(sql`${key} ${dir}`).orderBy(sql`v.version ${dir}`).limit(first).execute()) as {
    version: string
    k: string | number
  }[]
}

export interface VersionRow {
  id: number
  version: string
  repo_key: string
  rclass: string
  created_at: number
  modified_at: number
  size: number
  download_count: number
  licenses: string
  readme: string | null
  metadata: string
}

export async function versionRows(
  db: Kysely<Database>,
  pkgId: number,
  versions: string[],
  repos: Readable,
): Promise<VersionRow[]> {
  if (versions.length === 0 || (repos !== null && repos.length === 0)) return []
  let q = db
    .selectFrom('package_versions as v')
    .innerJoin('repositories as r', 'r.key', 'v.repo_key')
    .select([
      'v.id',
      'v.version',
      'v.repo_key',
      'r.rclass',
      'v.created_at',
      'v.modified_at',
      'v.size',
      'v.download_count',
      'v.licenses',
      'v.readme',
      'v.metadata',
    ])
    .where('v.package_id', '=', pkgId)
    .where('v.version', 'in', versions)
  if (repos !== null) q = q.where('v.repo_key', 'in', repos)
  return (await q.orderBy('v.repo_key').execute()) as VersionRow[]
}

export async function filesOfVersions(db: Kysely<Database>, versionIds: number[]) {
  if (versionIds.length === 0) return []
  return db
    .selectFrom('files')
    .select(['id', 'version_id', 'repo_key', 'path', 'name', 'lead', 'size', 'md5', 'sha1', 'sha256', 'mime_type'])
    .where('version_id', 'in', versionIds)
    .orderBy('lead', 'desc')
    .orderBy('path')
    .execute()
}

export async function distTags(db: Kysely<Database>, pkgId: number, repos: Readable) {
  let q = db.selectFrom('dist_tags').select(['tag', 'version']).where('package_id', '=', pkgId)
  if (repos !== null) {
    if (repos.length === 0) return []
    q = q.where('repo_key', 'in', repos)
  }
  return q.execute()
}
