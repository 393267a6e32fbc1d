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
  const groups = await db.selectFrom('groups').select('id').where('auto_join', '=', 1).execute()
  if (groups.length === 0) return
  await db
    .insertInto('group_members')
    .values(groups.map((g) => ({ group_id: g.id, user_id: userId })))
    .execute()
  await db
    .insertInto('settings')
    .values({ key: 'access.version', value: String(Date.now()), updated_at: Date.now() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(Date.now()), updated_at: Date.now() }))
    .execute()
}

export async function setPassword(db: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  const now = Date.now()
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute()
}
