import type { Kysely, Transaction } from 'kysely'
import { licenseNames } from '../../core/licenses.js'
import type { Database } from '../../core/schema.js'
import { type Match, type MatchInput, matchComponents, releaseOf } from './matcher.js'
import type { Component, Severity } from './types.js'

type Tx = Kysely<Database> | Transaction<Database>

/** Whose components: a stored version or a git repository selected for scanning. */
export type Subject = { versionId: number } | { gitRepoId: number }

const ROW_CHUNK = 400

export type Counts = Record<Severity, number>
export const noCounts = (): Counts => ({ critical: 0, high: 0, medium: 0, low: 0, unknown: 0 })

const subjectColumns = (s: Subject) =>
  'versionId' in s ? { version_id: s.versionId, git_repo_id: null } : { version_id: null, git_repo_id: s.gitRepoId }

/** Matches a scan's components and stores them with their findings, replacing what the subject had. */
export async function storeScan(
  db: Kysely<Database>,
  subject: Subject,
  components: Component[],
  os: string | null,
  /** Records the outcome (the version's status row) in the same transaction. */
  finish: (tx: Transaction<Database>, counts: Counts) => Promise<void>,
): Promise<Counts> {
  const inputs: (MatchInput & { source: Component })[] = dedupe(components).map((c) => ({
    ecosystem: c.ecosystem,
    release: c.release ?? releaseOf(c.ecosystem, os),
    name: c.name,
    version: c.version,
    source: c,
  }))
  const matches = await matchComponents(db, inputs)
  return db.transaction().execute(async (tx) => {
    const cols = subjectColumns(subject)
    await deleteSubject(tx, subject)
    for (let i = 0; i < inputs.length; i += ROW_CHUNK) {
      await tx
        .insertInto('scan_components')
        .values(
          inputs.slice(i, i + ROW_CHUNK).map((c) => ({
            ...cols,
            ecosystem: c.ecosystem,
            release: c.release,
            name: c.name,
            version: c.version,
            path: c.source.path.slice(0, 2048),
            binary_name: c.source.binary ?? null,
            licenses: JSON.stringify(licenseNames(c.source.licenses ?? [])),
          })),
        )
        .execute()
    }
    const ids = await componentIds(tx, subject)
    await insertFindings(
      tx,
      cols,
      ids.map((id, i) => ({ id, matches: matches[i] ?? [] })),
    )
    const counts = countsOf(matches)
    await finish(tx, counts)
    return counts
  })
}

/** The same component found twice (a lockfile listed in two places) is one component. */
function dedupe(components: Component[]): Component[] {
  const seen = new Map<string, Component>()
  for (const c of components) {
    const key = `${c.ecosystem}\u0000${c.release ?? ''}\u0000${c.name}\u0000${c.version}\u0000${c.path}`
    if (!seen.has(key)) seen.set(key, c)
  }
  return [...seen.values()]
}

async function deleteSubject(tx: Tx, subject: Subject): Promise<void> {
  if ('versionId' in subject) {
    await tx.deleteFrom('scan_findings').where('version_id', '=', subject.versionId).execute()
    await tx.deleteFrom('scan_components').where('version_id', '=', subject.versionId).execute()
  } else {
    await tx.deleteFrom('scan_findings').where('git_repo_id', '=', subject.gitRepoId).execute()
    await tx.deleteFrom('scan_components').where('git_repo_id', '=', subject.gitRepoId).execute()
  }
}

/** The subject's component ids in insertion order (ids grow with each row inserted). */
async function componentIds(tx: Tx, subject: Subject): Promise<number[]> {
  const q = tx.selectFrom('scan_components').select('id').orderBy('id')
  const rows = await ('versionId' in subject
    ? q.where('version_id', '=', subject.versionId)
    : q.where('git_repo_id', '=', subject.gitRepoId)
  ).execute()
  return rows.map((r) => r.id)
}

async function insertFindings(
  tx: Tx,
  cols: { version_id: number | null; git_repo_id: number | null },
  rows: { id: number; matches: Match[] }[],
): Promise<void> {
  const values = rows.flatMap(({ id, matches }) =>
    matches.map((m) => ({
      ...cols,
      component_id: id,
      advisory_id: m.advisoryId,
      severity: m.severity,
      fixed: JSON.stringify(m.fixed),
    })),
  )
  for (let i = 0; i < values.length; i += ROW_CHUNK)
    await tx
      .insertInto('scan_findings')
      .values(values.slice(i, i + ROW_CHUNK))
      .execute()
}

/** Counts by severity of distinct advisories (one advisory found in two components counts once). */
export function countsOf(matches: Match[][]): Counts {
  const worst = new Map<string, Severity>()
  for (const list of matches) for (const m of list) worst.set(m.advisoryId, m.severity)
  const counts = noCounts()
  for (const s of worst.values()) counts[s]++
  return counts
}

/**
 * Re-evaluates the stored components an advisory update touched: only those whose (ecosystem,
 * name) an imported advisory names, old or new. Returns the versions and git repositories whose
 * counts it rewrote.
 */
export async function reevaluate(
  db: Kysely<Database>,
  touched: Map<string, Set<string>>,
): Promise<{ versions: number; gitRepos: number; components: number }> {
  const versionIds = new Set<number>()
  const gitIds = new Set<number>()
  let componentCount = 0
  for (const [ecosystem, nameSet] of touched) {
    const names = [...nameSet]
    for (let i = 0; i < names.length; i += ROW_CHUNK) {
      const rows = await db
        .selectFrom('scan_components')
        .select(['id', 'version_id', 'git_repo_id', 'ecosystem', 'release', 'name', 'version'])
        .where('ecosystem', '=', ecosystem)
        .where('name', 'in', names.slice(i, i + ROW_CHUNK))
        .execute()
      if (rows.length === 0) continue
      componentCount += rows.length
      const matches = await matchComponents(db, rows)
      await db.transaction().execute(async (tx) => {
        for (let j = 0; j < rows.length; j += ROW_CHUNK) {
          await tx
            .deleteFrom('scan_findings')
            .where(
              'component_id',
              'in',
              rows.slice(j, j + ROW_CHUNK).map((r) => r.id),
            )
            .execute()
        }
        for (const [k, r] of rows.entries()) {
          if (r.version_id !== null) versionIds.add(r.version_id)
          if (r.git_repo_id !== null) gitIds.add(r.git_repo_id)
          const m = matches[k] ?? []
          if (m.length > 0)
            await insertFindings(tx, { version_id: r.version_id, git_repo_id: r.git_repo_id }, [{ id: r.id, matches: m }])
        }
      })
    }
  }
  await recount(db, [...versionIds])
  return { versions: versionIds.size, gitRepos: gitIds.size, components: componentCount }
}

/** Rewrites the severity counts of scanned versions from their findings. */
export async function recount(db: Kysely<Database>, versionIds: number[]): Promise<void> {
  for (let i = 0; i < versionIds.length; i += ROW_CHUNK) {
    const ids = versionIds.slice(i, i + ROW_CHUNK)
    const rows = await db
      .selectFrom('scan_findings')
      .select(['version_id', 'advisory_id', 'severity'])
      .where('version_id', 'in', ids)
      .execute()
    const byVersion = new Map<number, Match[][]>()
    for (const r of rows) {
      const list = byVersion.get(r.version_id ?? 0) ?? []
      list.push([{ advisoryId: r.advisory_id, severity: r.severity as Severity, fixed: [] }])
      byVersion.set(r.version_id ?? 0, list)
    }
    await db.transaction().execute(async (tx) => {
      for (const id of ids) {
        await tx
          .updateTable('scan_status')
          .set(countsOf(byVersion.get(id) ?? []))
          .where('version_id', '=', id)
          .where('state', '=', 'scanned')
          .execute()
      }
    })
  }
}
