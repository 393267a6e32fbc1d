import type { Kysely, Selectable } from 'kysely'
import type { Database, UsersTable } from '../../core/schema.js'

export type UserRow = Selectable<UsersTable>

export function findUserByName(db: Kysely<Database>, name: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst()
}

export function findUserById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertUser(
  db: Kysely<Database>,
  user: { name: string; email: string | null; passwordHash: string; admin: boolean },
): Promise<number> {
  const now = Date.now()
  const row = await db
    .insertInto('users')
    .values({
      name: user.name,
      email: user.email,
      password_hash: user.passwordHash,
      realm: 'internal',
      admin: user.admin ? 1 : 0,
      disabled: 0,
      created_at: now,
      updated_at: now,
      password_changed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await joinAutoJoinGroups(db, row.id)
  return row.id
}

/** Every new user joins the groups marked auto-join; other nodes see it within seconds. */
async function joinAutoJoinGroups(db: Kysely<Database>, userId: number): Promise<void> {
  await joinNewUserGroups(db, userId, [])
}

/**
 * Puts a new user in the groups marked auto-join and in the groups named (a provider's default
 * groups; names of groups that do not exist are skipped), then bumps the access version so every
 * node's authorizer sees the membership. Returns the names of the groups joined.
 */
export async function joinNewUserGroups(db: Kysely<Database>, userId: number, names: readonly string[]): Promise<string[]> {
  let query = db.selectFrom('groups').select(['id', 'name']).where('auto_join', '=', 1)
  if (names.length > 0)
    query = db
      .selectFrom('groups')
      .select(['id', 'name'])
      .where((eb) => eb.or([eb('auto_join', '=', 1), eb('name', 'in', [...names])]))
  const groups = await query.orderBy('name').execute()
  if (groups.length === 0) return []
  await db
    .insertInto('group_members')
    .values(groups.map((g) => ({ group_id: g.id, user_id: userId })))
    .onConflict((oc) => oc.doNothing())
    .execute()
  const now = Date.now()
  await db
    .insertInto('settings')
    .values({ key: 'access.version', value: String(now), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(now), updated_at: now }))
    .execute()
  return groups.map((g) => g.name)
}

export async function setPassword(db: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  const now = Date.now()
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute()
}
