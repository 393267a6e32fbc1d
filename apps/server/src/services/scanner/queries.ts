import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'
import type { NpmBulkAdvisory } from '../../formats/index.js'
import { isAffected } from './ecosystems.js'
import type { Match } from './matcher.js'
import { type Counts, countsOf, type Subject } from './store.js'
import type { AffectedPackage, AffectedRange, Severity } from './types.js'

/** A version's vulnerabilities by severity, as the packages browser shows them (§3). */
export interface VulnerabilityCounts {
  critical: number
  high: number
  medium: number
  low: number
  info: number
  unknown: number
  skipped: number
}

export const SCAN_SEVERITIES = ['critical', 'high', 'medium', 'low', 'unknown'] as const

/** The counts of one version held by several repositories: the most of each severity; null when none is scanned. */
export function mergeCounts(list: (VulnerabilityCounts | null)[]): VulnerabilityCounts | null {
  let out: VulnerabilityCounts | null = null
  for (const c of list) {
    if (!c) continue
    if (!out) out = { ...c }
    else for (const k of Object.keys(out) as (keyof VulnerabilityCounts)[]) out[k] = Math.max(out[k], c[k])
  }
  return out
}

export interface ScanState {
  state: 'waiting' | 'scanning' | 'scanned' | 'not_scanned'
  reason: string | null
  scannedAt: number | null
  os: string | null
  counts: VulnerabilityCounts | null
}

/** The scan states of versions (missing ids: waiting). */
export async function scanStates(db: Kysely<Database>, versionIds: number[]): Promise<Map<number, ScanState>> {
  const out = new Map<number, ScanState>()
  for (let i = 0; i < versionIds.length; i += 500) {
    const rows = await db
      .selectFrom('scan_status')
      .selectAll()
      .where('version_id', 'in', versionIds.slice(i, i + 500))
      .execute()
    for (const r of rows) {
      out.set(r.version_id, {
        state: r.state as ScanState['state'],
        reason: r.reason,
        scannedAt: r.scanned_at,
        os: r.os,
        counts:
          r.state === 'scanned'
            ? { critical: r.critical, high: r.high, medium: r.medium, low: r.low, info: 0, unknown: r.unknown, skipped: 0 }
            : null,
      })
    }
  }
  return out
}

/** Packages' vulnerabilities (§3): those of their latest version, in the repositories the viewer reads. */
export async function latestVersionCounts(
  db: Kysely<Database>,
  packageIds: number[],
  readable: string[] | null,
): Promise<Map<number, VulnerabilityCounts | null>> {
  const out = new Map<number, VulnerabilityCounts | null>()
  if (packageIds.length === 0 || (readable !== null && readable.length === 0)) return out
  let q = db
    .selectFrom('package_versions as v')
    .innerJoin('packages as p', 'p.id', 'v.package_id')
    .innerJoin('scan_status as s', 's.version_id', 'v.id')
    .select(['v.package_id', 'v.id'])
    .where('v.package_id', 'in', packageIds)
    .whereRef('v.version', '=', 'p.latest_version')
  if (readable !== null) q = q.where('v.repo_key', 'in', readable)
  const rows = await q.execute()
  const states = await scanStates(
    db,
    rows.map((r) => r.id),
  )
  const grouped = new Map<number, (VulnerabilityCounts | null)[]>()
  for (const r of rows) grouped.set(r.package_id, [...(grouped.get(r.package_id) ?? []), states.get(r.id)?.counts ?? null])
  for (const [id, list] of grouped) out.set(id, mergeCounts(list))
  return out
}

/**
 * The counts by severity of distinct advisories found in each git repository (one advisory in two
 * manifests counts once), from the stored findings; repositories without findings are left out.
 */
export async function gitRepoCounts(db: Kysely<Database>, gitRepoIds: number[]): Promise<Map<number, Counts>> {
  const grouped = new Map<number, Match[][]>()
  for (let i = 0; i < gitRepoIds.length; i += 500) {
    const rows = await db
      .selectFrom('scan_findings')
      .select(['git_repo_id', 'advisory_id', 'severity'])
      .where('git_repo_id', 'in', gitRepoIds.slice(i, i + 500))
      .execute()
    for (const r of rows) {
      const id = r.git_repo_id ?? 0
      const list = grouped.get(id) ?? []
      list.push([{ advisoryId: r.advisory_id, severity: r.severity as Severity, fixed: [] }])
      grouped.set(id, list)
    }
  }
  return new Map([...grouped].map(([id, matches]) => [id, countsOf(matches)]))
}

export interface FindingRow {
  component: string
  ecosystem: string
  version: string
  path: string
  advisory_id: string
  aliases: string[]
  summary: string
  severity: Severity
  cvss_score: number | null
  fixed_versions: string[]
  published: string | null
  last_updated: string
}

const SEVERITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1, unknown: 0 }

/**
 * One page of a subject's findings (component × advisory): a version's, the Security tab's list
 * (20 rows, §7), or a selected git repository's.
 */
export async function findingsPage(
  db: Kysely<Database>,
  subject: Subject,
  page: { number: number; rows: number; orderBy: 'last_updated' | 'severity' | 'component'; direction: 'asc' | 'desc' },
): Promise<{ total_count: number; data: FindingRow[] }> {
  const joined = db
    .selectFrom('scan_findings as f')
    .innerJoin('scan_components as c', 'c.id', 'f.component_id')
    .innerJoin('advisories as a', 'a.id', 'f.advisory_id')
  const base =
    'versionId' in subject
      ? joined.where('f.version_id', '=', subject.versionId)
      : joined.where('f.git_repo_id', '=', subject.gitRepoId)
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()
  const rows = await base
    .select([
      'c.name',
      'c.ecosystem',
      'c.version',
      'c.path',
      'a.id',
      'a.aliases',
      'a.summary',
      'f.severity',
      'a.cvss_score',
      'f.fixed',
      'a.published',
      'a.modified',
    ])
    .execute()
  const data: FindingRow[] = rows.map((r) => ({
    component: r.name,
    ecosystem: r.ecosystem,
    version: r.version,
    path: r.path,
    advisory_id: r.id,
    aliases: JSON.parse(r.aliases) as string[],
    summary: r.summary,
    severity: r.severity as Severity,
    cvss_score: r.cvss_score,
    fixed_versions: JSON.parse(r.fixed) as string[],
    published: r.published,
    last_updated: r.modified,
  }))
  const dir = page.direction === 'asc' ? 1 : -1
  const key = (f: FindingRow): string | number =>
    page.orderBy === 'severity' ? (SEVERITY_RANK[f.severity] ?? 0) : page.orderBy === 'component' ? f.component : f.last_updated
  data.sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    if (ka !== kb) return (ka < kb ? -1 : 1) * dir
    return a.advisory_id < b.advisory_id ? -1 : a.advisory_id > b.advisory_id ? 1 : 0
  })
  const from = (page.number - 1) * page.rows
  return { total_count: Number(total?.n ?? 0), data: data.slice(from, from + page.rows) }
}

export interface AdvisoryDetails {
  id: string
  aliases: string[]
  summary: string
  details: string
  severity: Severity
  cvss_score: number | null
  cvss_vector: string | null
  published: string | null
  modified: string
  withdrawn: string | null
  references: { type: string; url: string }[]
  affected: { ecosystem: string; release: string; name: string; ranges: AffectedRange[]; versions: string[]; fixed: string[] }[]
}

export async function advisoryDetails(db: Kysely<Database>, id: string): Promise<AdvisoryDetails | undefined> {
  const a = await db.selectFrom('advisories').selectAll().where('id', '=', id).executeTakeFirst()
  if (!a) return undefined
  const packages = await db.selectFrom('advisory_packages').selectAll().where('advisory_id', '=', id).execute()
  return {
    id: a.id,
    aliases: JSON.parse(a.aliases) as string[],
    summary: a.summary,
    details: a.details,
    severity: a.severity as Severity,
    cvss_score: a.cvss_score,
    cvss_vector: a.cvss_vector,
    published: a.published,
    modified: a.modified,
    withdrawn: a.withdrawn,
    references: JSON.parse(a.refs) as { type: string; url: string }[],
    affected: packages.map((p) => {
      const { ranges, versions } = JSON.parse(p.affected) as Pick<AffectedPackage, 'ranges' | 'versions'>
      const fixed = ranges.flatMap((r) => r.events.flatMap((e) => ('fixed' in e ? [e.fixed] : [])))
      return { ecosystem: p.ecosystem, release: p.release, name: p.name, ranges, versions, fixed }
    }),
  }
}

const NPM_SEVERITY: Record<Severity, NpmBulkAdvisory['severity']> = {
  critical: 'critical',
  high: 'high',
  medium: 'moderate',
  low: 'low',
  unknown: 'info',
}

/** A stable 31-bit number for an advisory id: npm keys advisories by a numeric id. */
export function npmAdvisoryNumber(id: string): number {
  let h = 2166136261
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619)
  return h >>> 1 || 1
}

/** An OSV range as an npm semver range: ">=1.0.0 <1.2.6 || <0.2.4". */
export function semverRangeOf(affected: Pick<AffectedPackage, 'ranges' | 'versions'>): string {
  const parts: string[] = []
  for (const range of affected.ranges) {
    if (range.type === 'GIT') continue
    let start: string | null = null
    for (const e of range.events) {
      if ('introduced' in e) start = e.introduced === '0' ? '' : `>=${e.introduced}`
      else if (start !== null && ('fixed' in e || 'limit' in e)) {
        parts.push(`${start} <${'fixed' in e ? e.fixed : e.limit}`.trim())
        start = null
      } else if (start !== null && 'last_affected' in e) {
        parts.push(`${start} <=${e.last_affected}`.trim())
        start = null
      }
    }
    if (start !== null) parts.push(start || '>=0.0.0-0')
  }
  for (const v of affected.versions) parts.push(v)
  return parts.join(' || ') || '<0.0.0-0'
}

/**
 * npm audit's bulk request ({ name: [versions] }) answered from the advisory database: every npm
 * advisory of a named package that affects one of the versions asked about.
 */
export async function npmBulkAdvisories(
  db: Kysely<Database>,
  request: Record<string, string[]>,
  linkOf: (id: string, refs: { type: string; url: string }[]) => string,
): Promise<Record<string, NpmBulkAdvisory[]>> {
  const names = Object.keys(request)
  const out: Record<string, NpmBulkAdvisory[]> = {}
  for (let i = 0; i < names.length; i += 500) {
    const rows = await db
      .selectFrom('advisory_packages as p')
      .innerJoin('advisories as a', 'a.id', 'p.advisory_id')
      .select(['p.name', 'p.affected', 'a.id', 'a.summary', 'a.severity', 'a.cvss_score', 'a.cvss_vector', 'a.refs', 'a.aliases'])
      .where('p.ecosystem', '=', 'npm')
      .where('p.name', 'in', names.slice(i, i + 500))
      .where('a.withdrawn', 'is', null)
      .execute()
    for (const r of rows) {
      const parsed = JSON.parse(r.affected) as Pick<AffectedPackage, 'ranges' | 'versions'>
      const affected: AffectedPackage = { ecosystem: 'npm', release: '', name: r.name, ...parsed }
      const versions = request[r.name] ?? []
      if (!versions.some((v) => isAffected(affected, v))) continue
      const list = out[r.name] ?? []
      out[r.name] = list
      list.push({
        id: npmAdvisoryNumber(r.id),
        url: linkOf(r.id, JSON.parse(r.refs) as { type: string; url: string }[]),
        title: r.summary ? `${r.summary} (${r.id})` : r.id,
        severity: NPM_SEVERITY[r.severity as Severity] ?? 'info',
        vulnerable_versions: semverRangeOf(parsed),
        cwe: [],
        cvss: { score: r.cvss_score ?? 0, vectorString: r.cvss_vector },
      })
    }
  }
  return out
}

/** How many advisories the database holds, and when an import or feed sync last finished successfully. */
export async function databaseState(db: Kysely<Database>): Promise<{ advisories: number; updatedAt: number | null }> {
  const [count, last] = await Promise.all([
    db
      .selectFrom('advisories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('advisory_imports')
      .select((eb) => eb.fn.max('finished_at').as('at'))
      .where('state', '=', 'done')
      .executeTakeFirst(),
  ])
  const at = last?.at
  return { advisories: Number(count?.n ?? 0), updatedAt: at === null || at === undefined ? null : Number(at) }
}
