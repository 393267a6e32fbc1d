import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, RepositoriesTable } from '../core/schema.js'

export type Tx = Kysely<Database> | Transaction<Database>
export type RepositoryRow = Selectable<RepositoriesTable>

export async function findRepository(db: Tx, key: string): Promise<RepositoryRow | undefined> {
  return db.selectFrom('repositories').selectAll().where('key', '=', key).executeTakeFirst()
}

export async function listRepositories(db: Tx, filter: { rclass?: string; packageType?: string } = {}): Promise<RepositoryRow[]> {
  let q = db.selectFrom('repositories').selectAll().orderBy('key')
  if (filter.rclass) q = q.where('rclass', '=', filter.rclass as RepositoryRow['rclass'])
  if (filter.packageType) q = q.where('package_type', '=', filter.packageType)
  return q.execute()
}

/** Members of a virtual repository, in resolution order. */
export async function listMembers(db: Tx, virtualKey: string): Promise<string[]> {
  const rows = await db
    .selectFrom('repository_members')
    .select('member_key')
    .where('virtual_key', '=', virtualKey)
    .orderBy('position')
    .execute()
  return rows.map((r) => r.member_key)
}

export async function setMembers(db: Tx, virtualKey: string, members: string[]): Promise<void> {
  await db.deleteFrom('repository_members').where('virtual_key', '=', virtualKey).execute()
  if (members.length === 0) return
  await db
    .insertInto('repository_members')
    .values(members.map((member_key, position) => ({ virtual_key: virtualKey, member_key, position })))
    .execute()
}

/** Virtual repositories that list `key` as a member. */
export async function virtualsContaining(db: Tx, key: string): Promise<string[]> {
  const rows = await db.selectFrom('repository_members').select('virtual_key').where('member_key', '=', key).execute()
  return rows.map((r) => r.virtual_key)
}
