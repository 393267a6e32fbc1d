import type { Kysely } from 'kysely'
import type { Database } from './schema.js'

/** Instance-wide settings an administrator changes; each value is JSON. */
export async function getSetting<T>(db: Kysely<Database>, key: string, fallback: T): Promise<T> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
  return row ? (JSON.parse(row.value) as T) : fallback
}

export async function setSetting(db: Kysely<Database>, key: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value)
  const now = Date.now()
  await db
    .insertInto('settings')
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
    .execute()
}

export const MFA_REQUIRED_SETTING = 'security.mfaRequired'
/** Whether anonymous callers may browse (security configuration, off by default). */
export const ANONYMOUS_ACCESS_SETTING = 'security.anonymousAccess'
