import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../core/schema.js'

/** SQL of the Builds screens. Each function takes the database or a transaction. */
type Q = Kysely<Database> | Transaction<Database>

/** Rows per IN (…) list: well under SQLite's parameter limit, and PostgreSQL plans them alike. */
const CHUNK = 500

export interface LatestRunRow {
  name: string
  number: string
  started_at: number
  status: string | null
  runs: number
}

/** Every build's newest run (by start, then by id), with its number of runs, by name. */
export async function latestRuns(db: Q): Promise<LatestRunRow[]> {
  const rows = await db
    .selectFrom('builds as b')
    .select(['b.name', 'b.number', 'b.started_at', 'b.status'])
    .select((eb) =>
      eb
        .selectFrom('builds as c')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('c.name', '=', 'b.name')
        .as('runs'),
    )
    .where('b.id', '=', (eb) =>
      eb
        .selectFrom('builds as l')
        .select('l.id')
        .whereRef('l.name', '=', 'b.name')
        .orderBy('l.started_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(1),
    )
    .orderBy('b.name')
    .execute()
  // PostgreSQL answers bigint and count as strings.
  return rows.map((r) => ({ ...r, started_at: Number(r.started_at), runs: Number(r.runs) }))
}

export interface RunRow {
  id: number
  number: string
  started_at: number
  url: string | null
  agent: string | null
  created_by: string | null
  status: string | null
}

/** The runs of one build, newest first. */
export async function runsOf(db: Q, name: string): Promise<RunRow[]> {
  const rows = await db
    .selectFrom('builds')
    .select(['id', 'number', 'started_at', 'url', 'agent', 'created_by', 'status'])
    .where('name', '=', name)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map((r) => ({ ...r, started_at: Number(r.started_at) }))
}

/** One run with its document, or undefined. */
export async function runOf(db: Q, name: string, number: string): Promise<(RunRow & { info: string }) | undefined> {
  const row = await db
    .selectFrom('builds')
    .select(['id', 'number', 'started_at', 'url', 'agent', 'created_by', 'status', 'info'])
    .where('name', '=', name)
    .where('number', '=', number)
    .executeTakeFirst()
  return row && { ...row, started_at: Number(row.started_at) }
}

/** Removes runs by id, with their items. */
export async function deleteRuns(db: Q, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    await db.deleteFrom('build_items').where('build_id', 'in', chunk).execute()
    await db.deleteFrom('builds').where('id', 'in', chunk).execute()
  }
}

export interface FileMatch {
  repo_key: string
  path: string
  name: string
  sha1: string
  sha256: string
}

/** Stored files whose content has one of these checksums, in every repository (callers filter). */
export async function filesWithChecksums(db: Q, sums: { sha256: string[]; sha1: string[] }): Promise<FileMatch[]> {
  const out: FileMatch[] = []
  for (const [column, values] of [
    ['sha256', sums.sha256],
    ['sha1', sums.sha1],
  ] as const) {
    const unique = [...new Set(values)]
    for (let i = 0; i < unique.length; i += CHUNK) {
      out.push(
        ...(await db
          .selectFrom('files')
          .select(['repo_key', 'path', 'name', 'sha1', 'sha256'])
          .where(column, 'in', unique.slice(i, i + CHUNK))
          .orderBy('repo_key')
          .orderBy('path')
          .execute()),
      )
    }
  }
  return out
}
