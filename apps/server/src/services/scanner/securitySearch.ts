import type { SecuritySearchResult } from '@trove/contracts/scanner'
import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'
import { contains } from '../../core/sqlLike.js'
import type { Severity } from './types.js'

/** What the security-compliance search type asks (packages §2, §3: name, cve, severities, licenses, repositories). */
export interface SecuritySearch {
  /** An advisory id or alias (CVE-…), or a component's name */
  text: string
  cve: string[]
  severities: Severity[]
  licenses: string[]
  repositories: string[]
}

/** How many advisories one search answers, and how many impacted versions each lists. */
const MAX_ADVISORIES = 50
const MAX_IMPACTED = 100
const MAX_LICENSED = 200

type Db = Kysely<Database>

/**
 * The security-compliance search: the advisories a text names (by id, alias or affected package),
 * or, with no text, those found in stored versions, each with the versions it impacts in the
 * repositories the caller reads (`readable`; null: all); and, with licences, the versions whose
 * components carry them. Nothing outside `readable` is counted or shown.
 */
export async function searchSecurity(db: Db, readable: string[] | null, q: SecuritySearch): Promise<SecuritySearchResult> {
  const repos = q.repositories.length > 0 ? q.repositories.filter((r) => readable === null || readable.includes(r)) : readable
  const wantsAdvisories = q.text !== '' || q.cve.length > 0 || q.severities.length > 0 || q.licenses.length === 0
  const advisories = wantsAdvisories ? await matchingAdvisories(db, repos, q) : []
  const impacted = await impactedVersions(
    db,
    repos,
    advisories.map((a) => a.id),
  )
  return {
    advisories: advisories.map((a) => {
      const list = impacted.get(a.id) ?? []
      return {
        id: a.id,
        aliases: JSON.parse(a.aliases) as string[],
        severity: a.severity as Severity,
        cvss_score: a.cvss_score,
        summary: a.summary,
        published: a.published,
        impacted: list.slice(0, MAX_IMPACTED),
        impacted_count: list.length,
      }
    }),
    licensed: q.licenses.length > 0 ? await licensedVersions(db, repos, q.licenses) : [],
  }
}

async function matchingAdvisories(db: Db, repos: string[] | null, q: SecuritySearch) {
  const ids = [...q.cve, ...(q.text ? [q.text] : [])].map((s) => s.trim()).filter(Boolean)
  let query = db
    .selectFrom('advisories as a')
    .select(['a.id', 'a.aliases', 'a.severity', 'a.cvss_score', 'a.summary', 'a.published'])
    .where('a.withdrawn', 'is', null)
  if (ids.length > 0) {
    const names = q.text ? [q.text.toLowerCase()] : []
    query = query.where((eb) =>
      eb.or([
        eb(
          eb.fn('upper', ['a.id']),
          'in',
          ids.map((i) => i.toUpperCase()),
        ),
        // aliases is a JSON array of strings: an alias appears quoted in it
        ...ids.map((i) => contains(eb.fn('upper', ['a.aliases']), JSON.stringify(i.toUpperCase()))),
        ...(names.length > 0
          ? [eb('a.id', 'in', eb.selectFrom('advisory_packages as p').select('p.advisory_id').where('p.name', 'in', names))]
          : []),
      ]),
    )
  } else {
    // No text: the advisories found in stored versions the caller reads.
    let found = db.selectFrom('scan_findings as f').select('f.advisory_id')
    if (repos !== null)
      found = found
        .innerJoin('package_versions as v', 'v.id', 'f.version_id')
        .where('v.repo_key', 'in', repos.length > 0 ? repos : [''])
    query = query.where('a.id', 'in', found)
  }
  if (q.severities.length > 0) query = query.where('a.severity', 'in', q.severities)
  return query.orderBy('a.cvss_score', 'desc').orderBy('a.id').limit(MAX_ADVISORIES).execute()
}

type Impacted = SecuritySearchResult['advisories'][number]['impacted'][number]

async function impactedVersions(db: Db, repos: string[] | null, advisoryIds: string[]): Promise<Map<string, Impacted[]>> {
  const out = new Map<string, Impacted[]>()
  if (advisoryIds.length === 0 || (repos !== null && repos.length === 0)) return out
  let q = db
    .selectFrom('scan_findings as f')
    .innerJoin('scan_components as c', 'c.id', 'f.component_id')
    .innerJoin('package_versions as v', 'v.id', 'f.version_id')
    .innerJoin('packages as p', 'p.id', 'v.package_id')
    .select([
      'f.advisory_id',
      'p.package_type',
      'p.name',
      'v.version',
      'v.repo_key',
      'c.name as component',
      'c.version as cv',
      'f.fixed',
    ])
    .where('f.advisory_id', 'in', advisoryIds)
  if (repos !== null) q = q.where('v.repo_key', 'in', repos)
  const rows = await q.orderBy('p.name').orderBy('v.version').orderBy('v.repo_key').execute()
  for (const r of rows) {
    const list = out.get(r.advisory_id) ?? []
    out.set(r.advisory_id, list)
    list.push({
      package_id: `${r.package_type}://${r.name}`,
      version: r.version,
      repo: r.repo_key,
      component: r.component,
      component_version: r.cv,
      fixed_versions: JSON.parse(r.fixed) as string[],
    })
  }
  return out
}

async function licensedVersions(db: Db, repos: string[] | null, licenses: string[]) {
  if (repos !== null && repos.length === 0) return []
  const wanted = new Set(licenses.map((l) => l.toLowerCase()))
  let q = db
    .selectFrom('scan_components as c')
    .innerJoin('package_versions as v', 'v.id', 'c.version_id')
    .innerJoin('packages as p', 'p.id', 'v.package_id')
    .select(['p.package_type', 'p.name', 'v.version', 'v.repo_key', 'c.name as component', 'c.version as cv', 'c.licenses'])
    .where((eb) => eb.or(licenses.map((l) => contains(eb.fn('lower', ['c.licenses']), l.toLowerCase()))))
  if (repos !== null) q = q.where('v.repo_key', 'in', repos)
  const rows = await q
    .orderBy('p.name')
    .orderBy('v.version')
    .limit(MAX_LICENSED * 4)
    .execute()
  const out: SecuritySearchResult['licensed'] = []
  for (const r of rows) {
    const declared = JSON.parse(r.licenses) as { name: string; spdx: string | null }[]
    const hits = declared.filter((l) => wanted.has((l.spdx ?? l.name).toLowerCase()) || wanted.has(l.name.toLowerCase()))
    if (hits.length === 0) continue
    out.push({
      package_id: `${r.package_type}://${r.name}`,
      version: r.version,
      repo: r.repo_key,
      component: r.component,
      component_version: r.cv,
      licenses: hits.map((l) => l.spdx ?? l.name),
    })
    if (out.length === MAX_LICENSED) break
  }
  return out
}
