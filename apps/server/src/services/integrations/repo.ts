import type { ExpressionBuilder, Kysely, Selectable } from 'kysely'
import type { Database, GitIntegrationsTable, GitScanRepositoriesTable } from '../../core/schema.js'

export type IntegrationRow = Selectable<GitIntegrationsTable>
export type ScanRepositoryRow = Selectable<GitScanRepositoriesTable>

export const listIntegrationRows = (db: Kysely<Database>) =>
  db.selectFrom('git_integrations').selectAll().orderBy('name').execute()

export const integrationByKey = (db: Kysely<Database>, key: string) =>
  db.selectFrom('git_integrations').selectAll().where('key', '=', key).executeTakeFirst()

export const integrationById = (db: Kysely<Database>, id: number) =>
  db.selectFrom('git_integrations').selectAll().where('id', '=', id).executeTakeFirst()

export const integrationByName = (db: Kysely<Database>, name: string) =>
  db.selectFrom('git_integrations').selectAll().where('name', '=', name).executeTakeFirst()

export async function insertIntegration(db: Kysely<Database>, row: Omit<IntegrationRow, 'id'>): Promise<void> {
  await db.insertInto('git_integrations').values(row).execute()
}

export async function updateIntegration(
  db: Kysely<Database>,
  key: string,
  changes: Partial<Omit<IntegrationRow, 'id' | 'key'>>,
): Promise<void> {
  await db.updateTable('git_integrations').set(changes).where('key', '=', key).execute()
}

export async function deleteIntegration(db: Kysely<Database>, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('git_scan_repositories').where('integration_id', '=', id).execute()
    await trx.deleteFrom('git_integrations').where('id', '=', id).execute()
  })
}

/** Integrations not asked since `before` (ms): the periodic re-test's work. */
export const integrationsCheckedBefore = (db: Kysely<Database>, before: number) =>
  db.selectFrom('git_integrations').selectAll().where('checked_at', '<=', before).execute()

/**
 * Claims a re-test by moving checked_at from the value read; of several nodes reading the same
 * row, exactly one moves it, so a vendor is asked once per interval however many nodes run.
 */
export async function claimCheck(db: Kysely<Database>, id: number, seen: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('git_integrations')
    .set({ checked_at: now })
    .where('id', '=', id)
    .where('checked_at', '=', seen)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export const selectedCounts = (db: Kysely<Database>) =>
  db
    .selectFrom('git_scan_repositories')
    .select(['integration_id', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('integration_id')
    .execute()

export const scanRepositories = (db: Kysely<Database>, integrationId: number) =>
  db.selectFrom('git_scan_repositories').selectAll().where('integration_id', '=', integrationId).orderBy('full_name').execute()

export const scanRepositoryByName = (db: Kysely<Database>, integrationId: number, fullName: string) =>
  db
    .selectFrom('git_scan_repositories')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .where('full_name', '=', fullName)
    .executeTakeFirst()

/** Replaces an integration's selection: rows no longer chosen go, new ones start pending. */
export async function replaceSelection(
  db: Kysely<Database>,
  integrationId: number,
  chosen: { fullName: string; cloneUrl: string }[],
  now: number,
): Promise<ScanRepositoryRow[]> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('git_scan_repositories')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .execute()
    const keep = new Set(chosen.map((c) => c.fullName))
    const gone = existing.filter((r) => !keep.has(r.full_name)).map((r) => r.id)
    if (gone.length) await trx.deleteFrom('git_scan_repositories').where('id', 'in', gone).execute()
    const had = new Set(existing.map((r) => r.full_name))
    const added = chosen.filter((c) => !had.has(c.fullName))
    if (added.length) {
      await trx
        .insertInto('git_scan_repositories')
        .values(
          added.map((c) => ({
            integration_id: integrationId,
            full_name: c.fullName,
            clone_url: c.cloneUrl,
            status: 'pending',
            selected_at: now,
          })),
        )
        .execute()
    }
    return trx
      .selectFrom('git_scan_repositories')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .orderBy('full_name')
      .execute()
  })
}

export async function recordClone(
  db: Kysely<Database>,
  id: number,
  result: { status: 'cloned' | 'failed'; headCommit: string | null; error: string | null; at: number },
): Promise<void> {
  await db
    .updateTable('git_scan_repositories')
    .set({ status: result.status, head_commit: result.headCommit, error: result.error, cloned_at: result.at })
    .where('id', '=', id)
    .execute()
}

/** When a selected repository was last cloned, or asked to be (a pending one: when it was selected). */
const lastAttempt = (eb: ExpressionBuilder<Database, 'git_scan_repositories'>) => eb.fn.coalesce('cloned_at', 'selected_at')

/**
 * Selected repositories to clone again: those cloned (or failed) before `before`, and those still
 * pending since before `stalePending` (the node that was cloning them stopped).
 */
export const clonesDue = (db: Kysely<Database>, before: number, stalePending: number) =>
  db
    .selectFrom('git_scan_repositories')
    .selectAll()
    .select((eb) => lastAttempt(eb).as('last_attempt'))
    .where((eb) =>
      eb.or([
        eb.and([eb('status', 'in', ['cloned', 'failed']), eb(lastAttempt(eb), '<', before)]),
        eb.and([eb('status', '=', 'pending'), eb(lastAttempt(eb), '<', stalePending)]),
      ]),
    )
    .orderBy('id')
    .execute()

/** Claims a repository's next clone: of several nodes, the one whose conditional update lands clones it. */
export async function claimClone(db: Kysely<Database>, id: number, seen: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('git_scan_repositories')
    .set({ cloned_at: now })
    .where('id', '=', id)
    .where((eb) => eb(lastAttempt(eb), '=', seen))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
