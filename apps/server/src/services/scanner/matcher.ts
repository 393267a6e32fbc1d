import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'
import { fixedVersions, isAffected } from './ecosystems.js'
import type { AffectedPackage, Ecosystem, Severity } from './types.js'

/** A component as the matcher needs it (stored or about to be). */
export interface MatchInput {
  ecosystem: string
  /** "12" for Debian bookworm, "v3.19" for Alpine, "" otherwise */
  release: string
  name: string
  version: string
}

export interface Match {
  advisoryId: string
  severity: Severity
  fixed: string[]
}

interface Candidate {
  advisoryId: string
  severity: Severity
  release: string
  affected: AffectedPackage
}

/** How many names go into one IN (…) list. */
const NAME_CHUNK = 500

/** The release an OS's packages are matched against: Debian's major number, Alpine's "v<major>.<minor>". */
export function releaseOf(ecosystem: string, os: string | null): string {
  if (!os) return ''
  const [id, versionId = ''] = os.split(' ')
  if (ecosystem === 'Debian' && id === 'debian') return versionId.split('.')[0] ?? ''
  if (ecosystem === 'Alpine' && id === 'alpine') return `v${versionId.split('.').slice(0, 2).join('.')}`
  return ''
}

/**
 * Matches components against the advisory database: one query per ecosystem and chunk of names,
 * then each advisory's ranges evaluated in the ecosystem's own version ordering. An advisory for
 * a Debian or Alpine release matches only packages of that release (one without a release, all).
 */
export async function matchComponents(db: Kysely<Database>, components: MatchInput[]): Promise<Match[][]> {
  const byEcosystem = new Map<string, Set<string>>()
  for (const c of components) {
    const names = byEcosystem.get(c.ecosystem) ?? new Set<string>()
    byEcosystem.set(c.ecosystem, names)
    names.add(c.name)
  }
  const candidates = new Map<string, Candidate[]>()
  for (const [ecosystem, names] of byEcosystem) {
    const list = [...names]
    for (let i = 0; i < list.length; i += NAME_CHUNK) {
      const rows = await db
        .selectFrom('advisory_packages as p')
        .innerJoin('advisories as a', 'a.id', 'p.advisory_id')
        .select(['p.advisory_id', 'p.release', 'p.name', 'p.affected', 'a.severity'])
        .where('p.ecosystem', '=', ecosystem)
        .where('p.name', 'in', list.slice(i, i + NAME_CHUNK))
        .where('a.withdrawn', 'is', null)
        .execute()
      for (const r of rows) {
        const key = `${ecosystem}\u0000${r.name}`
        const { ranges, versions } = JSON.parse(r.affected) as Pick<AffectedPackage, 'ranges' | 'versions'>
        const candidate: Candidate = {
          advisoryId: r.advisory_id,
          severity: r.severity as Severity,
          release: r.release,
          affected: { ecosystem: ecosystem as Ecosystem, release: r.release, name: r.name, ranges, versions },
        }
        const list = candidates.get(key)
        if (list) list.push(candidate)
        else candidates.set(key, [candidate])
      }
    }
  }
  return components.map((c) => {
    const matches: Match[] = []
    const seen = new Set<string>()
    for (const cand of candidates.get(`${c.ecosystem}\u0000${c.name}`) ?? []) {
      if (cand.release && cand.release !== c.release) continue
      if (seen.has(cand.advisoryId) || !isAffected(cand.affected, c.version)) continue
      seen.add(cand.advisoryId)
      matches.push({ advisoryId: cand.advisoryId, severity: cand.severity, fixed: fixedVersions(cand.affected, c.version) })
    }
    return matches
  })
}
