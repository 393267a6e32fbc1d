import type { Kysely } from 'kysely'

/** The run's status as `runStatus` (services/builds/buildInfoDoc.ts) read it when this migration was written. */
function statusOf(text: string): string | null {
  let info: { statuses?: unknown; status?: unknown }
  try {
    info = JSON.parse(text)
  } catch {
    return null
  }
  const statuses = Array.isArray(info.statuses) ? (info.statuses as { status?: unknown; timestamp?: unknown }[]) : []
  let best: { status: string; at: number } | null = null
  for (const [i, s] of statuses.entries()) {
    if (!s || typeof s.status !== 'string' || !s.status.trim()) continue
    const parsed = typeof s.timestamp === 'string' ? Date.parse(s.timestamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : Number.NaN
    const at = Number.isFinite(parsed) ? parsed : i
    if (!best || at >= best.at) best = { status: s.status.trim(), at }
  }
  const status = best?.status ?? (typeof info.status === 'string' ? info.status.trim() : '')
  return status ? status.slice(0, 255) : null
}

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
export async function up(db: Kysely<any>): Promise<void> {
  // The Builds screens list every build with its last run's status: kept beside the run so the
  // list never parses documents (which may be megabytes each).
  await db.schema.alterTable('builds').addColumn('status', 'varchar(255)').execute()
  for (let after = 0; ; ) {
    const rows = await db.selectFrom('builds').select(['id', 'info']).where('id', '>', after).orderBy('id').limit(100).execute()
    if (rows.length === 0) break
    for (const row of rows) {
      const status = statusOf(row.info)
      if (status) await db.updateTable('builds').set({ status }).where('id', '=', row.id).execute()
    }
    after = rows[rows.length - 1]?.id ?? after
  }
  // The list reads each build's newest run; the run screen matches items to files by sha1 when
  // a tool sent no sha256 (files had an index on sha256 only).
  await db.schema.createIndex('builds_name_started').on('builds').columns(['name', 'started_at']).execute()
  await db.schema.createIndex('files_sha1').on('files').column('sha1').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('files_sha1').execute()
  await db.schema.dropIndex('builds_name_started').execute()
  await db.schema.alterTable('builds').dropColumn('status').execute()
}
