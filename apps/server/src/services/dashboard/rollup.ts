import { type Kysely, sql } from 'kysely'
import type { Database } from '../../core/schema.js'

/** How long the activity feed keeps its rows. */
export const ACTIVITY_KEPT_MS = 90 * 86_400_000
const DAY_COLUMNS = ['downloads', 'uploads', 'bytes', 'files'] as const
const REPOSITORY_COLUMNS = [...DAY_COLUMNS, 'critical', 'high', 'medium', 'low', 'unknown'] as const

const added = (table: string, columns: readonly string[]) =>
  Object.fromEntries(columns.map((c) => [c, sql<number>`${sql.ref(`${table}.${c}`)} + excluded.${sql.ref(c)}`]))

/**
 * Folds the changes the triggers of migration 0133 recorded into the per-day and per-repository
 * rows, and removes them: the cost is that of the changes since the last fold, whatever is stored.
 * Several nodes may fold at once: on PostgreSQL a transaction lock makes them take turns, and on
 * SQLite a fold whose snapshot another wrote past fails instead of counting twice. Returns the
 * number of changes folded.
 */
export async function foldDeltas(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<number> {
  const any = await db.selectFrom('dashboard_deltas').select('id').limit(1).executeTakeFirst()
  if (!any) return 0
  return db.transaction().execute(async (tx) => {
    if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext('trove.dashboard.fold'))`.execute(tx)
    const last = await tx
      .selectFrom('dashboard_deltas')
      .select((eb) => [eb.fn.max('id').as('max'), eb.fn.countAll<number | string>().as('n')])
      .executeTakeFirstOrThrow()
    if (last.max === null) return 0
    const max = Number(last.max)
    const sum = (c: string) => sql<number>`sum(${sql.ref(c)})`.as(c)
    await tx
      .insertInto('dashboard_days')
      .columns(['day', 'repo_key', ...DAY_COLUMNS])
      .expression(
        tx
          .selectFrom('dashboard_deltas')
          .select(['day', 'repo_key', ...DAY_COLUMNS.map(sum)])
          .where('id', '<=', max)
          // Rows of the scanner's counts only: nothing for the days.
          .where((eb) => eb.or(DAY_COLUMNS.map((c) => eb(c, '<>', 0))))
          .groupBy(['day', 'repo_key']),
      )
      .onConflict((oc) => oc.columns(['day', 'repo_key']).doUpdateSet(added('dashboard_days', DAY_COLUMNS)))
      .execute()
    await tx
      .insertInto('dashboard_repositories')
      .columns(['repo_key', ...REPOSITORY_COLUMNS])
      .expression(
        tx
          .selectFrom('dashboard_deltas')
          .select(['repo_key', ...REPOSITORY_COLUMNS.map(sum)])
          .where('id', '<=', max)
          .groupBy('repo_key'),
      )
      .onConflict((oc) => oc.column('repo_key').doUpdateSet(added('dashboard_repositories', REPOSITORY_COLUMNS)))
      .execute()
    await tx.deleteFrom('dashboard_deltas').where('id', '<=', max).execute()
    return Number(last.n)
  })
}

/** Drops activity older than ACTIVITY_KEPT_MS. */
export async function pruneActivity(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('dashboard_activity')
    .where('at', '<', now - ACTIVITY_KEPT_MS)
    .execute()
}
