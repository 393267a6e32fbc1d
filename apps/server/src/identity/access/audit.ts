import type { AuditEvent, AuditPage } from '@trove/contracts/access'
import type { Kysely } from 'kysely'
import type { Database } from '../../core/schema.js'
import { ACCESS_VERSION_SETTING } from './authorizer.js'

export type AuditTarget = AuditEvent['targetType']

/**
 * Records who changed what, in the same transaction as the change, and bumps the access version
 * so every node's authorizer reloads.
 */
export async function recordChange(
  db: Kysely<Database>,
  event: { actor: string; action: string; targetType: AuditTarget; targetName: string; details?: Record<string, unknown> },
): Promise<void> {
  const now = Date.now()
  await recordEvent(db, event)
  const version = JSON.stringify(now * 1000 + Math.floor(Math.random() * 1000))
  await db
    .insertInto('settings')
    .values({ key: ACCESS_VERSION_SETTING, value: version, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: version, updated_at: now }))
    .execute()
}

/** Records an event that changes no access rule (a sign-in lock): nothing to reload. */
export async function recordEvent(
  db: Kysely<Database>,
  event: { actor: string; action: string; targetType: AuditTarget; targetName: string; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      at: Date.now(),
      actor: event.actor,
      action: event.action,
      target_type: event.targetType,
      target_name: event.targetName,
      details: JSON.stringify(event.details ?? {}),
    })
    .execute()
}

export async function listAudit(
  db: Kysely<Database>,
  query: { targetType?: AuditTarget; page: number; pageSize: number },
): Promise<AuditPage> {
  let base = db.selectFrom('audit_events')
  if (query.targetType) base = base.where('target_type', '=', query.targetType)
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ])
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at,
      actor: r.actor,
      action: r.action,
      targetType: r.target_type as AuditTarget,
      targetName: r.target_name,
      details: JSON.parse(r.details) as Record<string, unknown>,
    })),
    total: Number(count.n),
    page: query.page,
    pageSize: query.pageSize,
  }
}
