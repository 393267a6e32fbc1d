import { type Kysely, sql } from 'kysely'
import { autoId, isSqlite } from './portable.js'

/**
 * The Overview dashboard's aggregates (services/dashboard). Triggers append one small row to
 * dashboard_deltas per change they see (a file stored, replaced or deleted, a download-count flush,
 * a scan's counts) in the transaction of the change: an insert without conflicts, so no hot row is
 * locked while publishes and flushes run. The dashboard folds the deltas into per-day and
 * per-repository rows (services/dashboard/rollup.ts), and answers from those.
 */

type Fire = 'insert' | 'update' | 'delete'
interface Trigger {
  name: string
  table: string
  when: 'BEFORE' | 'AFTER'
  fire: Fire
  /** UPDATE OF these columns */
  columns?: string[]
  /** a condition on NEW / OLD */
  condition?: string
  /** the statements, written once for both databases with {now_day} and {now_ms} */
  body: string[]
}

const DELTA =
  'INSERT INTO dashboard_deltas (day, repo_key, downloads, uploads, bytes, files, critical, high, medium, low, unknown)'
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'unknown']
const ACTIVITY = 'INSERT INTO dashboard_activity (at, kind, actor, repo_key, package_type, name, version)'
// A version's package, or nothing when the package went first (a whole package deleted).
const versionActivity = (kind: string, row: 'NEW' | 'OLD', actor: string) =>
  `${ACTIVITY} SELECT {now_ms}, ${kind}, ${actor}, ${row}.repo_key, p.package_type, p.name, ${row}.version FROM packages p WHERE p.id = ${row}.package_id`
const signIn = `${ACTIVITY} SELECT {now_ms}, 'signin', u.name, NULL, NULL, NULL, NULL FROM users u WHERE u.id = NEW.user_id`

const triggers: Trigger[] = [
  // Files: uploads and bytes stored, on the day the file was stored.
  {
    name: 'dashboard_files_insert',
    table: 'files',
    when: 'AFTER',
    fire: 'insert',
    body: [`${DELTA} VALUES (NEW.created_at / 86400000, NEW.repo_key, 0, 1, NEW.size, 1, 0, 0, 0, 0, 0)`],
  },
  {
    name: 'dashboard_files_delete',
    table: 'files',
    when: 'AFTER',
    fire: 'delete',
    body: [`${DELTA} VALUES ({now_day}, OLD.repo_key, 0, 0, -OLD.size, -1, 0, 0, 0, 0, 0)`],
  },
  // A file replaced by other content (an upload) or moved to another repository.
  {
    name: 'dashboard_files_replace',
    table: 'files',
    when: 'AFTER',
    fire: 'update',
    columns: ['size', 'repo_key', 'sha256'],
    condition: 'NEW.size <> OLD.size OR NEW.repo_key <> OLD.repo_key OR NEW.sha256 <> OLD.sha256',
    body: [
      `${DELTA} VALUES ({now_day}, OLD.repo_key, 0, 0, -OLD.size, -1, 0, 0, 0, 0, 0)`,
      `${DELTA} VALUES ({now_day}, NEW.repo_key, 0, CASE WHEN NEW.sha256 <> OLD.sha256 THEN 1 ELSE 0 END, NEW.size, 1, 0, 0, 0, 0, 0)`,
    ],
  },
  // Downloads: storage/artifacts.ts flushes the counts it gathered every half second; each file's
  // added count lands on the day of its last download in that batch.
  {
    name: 'dashboard_files_downloads',
    table: 'files',
    when: 'AFTER',
    fire: 'update',
    columns: ['download_count'],
    condition: 'NEW.download_count > OLD.download_count',
    body: [
      `${DELTA} VALUES (COALESCE(NEW.last_downloaded_at / 86400000, {now_day}), NEW.repo_key, NEW.download_count - OLD.download_count, 0, 0, 0, 0, 0, 0, 0, 0)`,
    ],
  },
  // The scanner's counts per version, by repository.
  {
    name: 'dashboard_scan_insert',
    table: 'scan_status',
    when: 'AFTER',
    fire: 'insert',
    body: [
      `${DELTA} SELECT {now_day}, v.repo_key, 0, 0, 0, 0, ${SEVERITIES.map((s) => `NEW.${s}`).join(', ')} FROM package_versions v WHERE v.id = NEW.version_id`,
    ],
  },
  {
    name: 'dashboard_scan_update',
    table: 'scan_status',
    when: 'AFTER',
    fire: 'update',
    columns: SEVERITIES,
    body: [
      `${DELTA} SELECT {now_day}, v.repo_key, 0, 0, 0, 0, ${SEVERITIES.map((s) => `NEW.${s} - OLD.${s}`).join(', ')} FROM package_versions v WHERE v.id = NEW.version_id`,
    ],
  },
  // A status deleted while its version stays (a rescan); a deleted version's counts go in
  // dashboard_versions_delete, before the cascade takes its status (whose version is gone by then).
  {
    name: 'dashboard_scan_delete',
    table: 'scan_status',
    when: 'AFTER',
    fire: 'delete',
    body: [
      `${DELTA} SELECT {now_day}, v.repo_key, 0, 0, 0, 0, ${SEVERITIES.map((s) => `-OLD.${s}`).join(', ')} FROM package_versions v WHERE v.id = OLD.version_id`,
    ],
  },
  {
    name: 'dashboard_versions_delete',
    table: 'package_versions',
    when: 'BEFORE',
    fire: 'delete',
    body: [
      `${DELTA} SELECT {now_day}, OLD.repo_key, 0, 0, 0, 0, ${SEVERITIES.map((s) => `-s.${s}`).join(', ')} FROM scan_status s WHERE s.version_id = OLD.id`,
      versionActivity("'delete'", 'OLD', 'NULL'),
    ],
  },
  // Activity: versions published (or cached from a remote), sign-ins (once MFA, if any, passed).
  {
    name: 'dashboard_versions_insert',
    table: 'package_versions',
    when: 'AFTER',
    fire: 'insert',
    body: [
      versionActivity(
        "CASE WHEN (SELECT r.rclass FROM repositories r WHERE r.key = NEW.repo_key) = 'remote' THEN 'cache' ELSE 'publish' END",
        'NEW',
        'NEW.created_by',
      ),
    ],
  },
  {
    name: 'dashboard_sessions_insert',
    table: 'sessions',
    when: 'AFTER',
    fire: 'insert',
    condition: 'NEW.mfa_pending = 0',
    body: [signIn],
  },
  {
    name: 'dashboard_sessions_mfa',
    table: 'sessions',
    when: 'AFTER',
    fire: 'update',
    columns: ['mfa_pending'],
    condition: 'OLD.mfa_pending <> 0 AND NEW.mfa_pending = 0',
    body: [signIn],
  },
  // A repository made again under a deleted one's key starts empty.
  {
    name: 'dashboard_repositories_insert',
    table: 'repositories',
    when: 'AFTER',
    fire: 'insert',
    body: [
      'DELETE FROM dashboard_repositories WHERE repo_key = NEW.key',
      'DELETE FROM dashboard_days WHERE repo_key = NEW.key',
      'DELETE FROM dashboard_deltas WHERE repo_key = NEW.key',
    ],
  },
]

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema of their own time
async function createTrigger(db: Kysely<any>, t: Trigger): Promise<void> {
  const lite = isSqlite(db)
  const nowDay = lite ? "(CAST(strftime('%s', 'now') AS INTEGER) / 86400)" : '(CAST(extract(epoch FROM now()) AS bigint) / 86400)'
  const nowMs = lite
    ? "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
    : 'CAST(extract(epoch FROM clock_timestamp()) * 1000 AS bigint)'
  const body = t.body.map((s) => `${s.replaceAll('{now_day}', nowDay).replaceAll('{now_ms}', nowMs)};`).join('\n')
  const event = `${t.fire.toUpperCase()}${t.columns ? ` OF ${t.columns.join(', ')}` : ''}`
  if (lite) {
    await sql
      .raw(
        `CREATE TRIGGER ${t.name} ${t.when} ${event} ON ${t.table} FOR EACH ROW${t.condition ? ` WHEN ${t.condition}` : ''} BEGIN\n${body}\nEND`,
      )
      .execute(db)
    return
  }
  const result = t.when === 'BEFORE' ? (t.fire === 'delete' ? 'OLD' : 'NEW') : 'NULL'
  await sql
    .raw(`CREATE FUNCTION ${t.name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN\n${body}\nRETURN ${result};\nEND $$`)
    .execute(db)
  await sql
    .raw(
      `CREATE TRIGGER ${t.name} ${t.when} ${event} ON ${t.table} FOR EACH ROW${t.condition ? ` WHEN (${t.condition})` : ''} EXECUTE FUNCTION ${t.name}()`,
    )
    .execute(db)
}

const bigints = ['downloads', 'uploads', 'bytes', 'files'] as const

// biome-ignore lint/suspicious/noExplicitAny: see createTrigger
export async function up(db: Kysely<any>): Promise<void> {
  let deltas = db.schema.createTable('dashboard_deltas').addColumn('id', 'integer', autoId(db))
  deltas = deltas.addColumn('day', 'integer', (c) => c.notNull()).addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
  for (const c of [...bigints, ...SEVERITIES]) deltas = deltas.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0))
  await deltas.execute()

  // Per day (days since 1970-01-01, UTC) and repository: downloads, uploads, and the net change of
  // bytes and files stored.
  let days = db.schema
    .createTable('dashboard_days')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
  for (const c of bigints) days = days.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0))
  await days.addPrimaryKeyConstraint('dashboard_days_pk', ['day', 'repo_key']).execute()

  // Per repository, now: bytes and files stored, downloads ever, and the scanner's counts.
  let repos = db.schema.createTable('dashboard_repositories').addColumn('repo_key', 'varchar(64)', (c) => c.primaryKey())
  for (const c of [...bigints, ...SEVERITIES]) repos = repos.addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0))
  await repos.execute()

  // Publishes, deletes and sign-ins, newest last; access changes stay in audit_events.
  await db.schema
    .createTable('dashboard_activity')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor', 'varchar(255)')
    .addColumn('repo_key', 'varchar(64)')
    .addColumn('package_type', 'varchar(32)')
    .addColumn('name', 'varchar(512)')
    .addColumn('version', 'varchar(255)')
    .execute()
  await db.schema.createIndex('dashboard_activity_at').on('dashboard_activity').column('at').execute()

  // The newest versions found with critical vulnerabilities, without reading every status.
  await db.schema
    .createIndex('scan_status_critical_scanned')
    .on('scan_status')
    .column('scanned_at')
    .where(sql.ref('critical'), '>', 0)
    .execute()

  // What is stored already.
  await sql`INSERT INTO dashboard_days (day, repo_key, downloads, uploads, bytes, files)
    SELECT created_at / 86400000, repo_key, 0, count(*), sum(size), count(*) FROM files GROUP BY created_at / 86400000, repo_key`.execute(
    db,
  )
  await sql`INSERT INTO dashboard_repositories (repo_key, downloads, uploads, bytes, files)
    SELECT repo_key, sum(download_count), count(*), sum(size), count(*) FROM files GROUP BY repo_key`.execute(db)
  const sums = sql.raw(SEVERITIES.map((s) => `sum(s.${s})`).join(', '))
  const fromSums = sql.raw(SEVERITIES.map((s) => `${s} = excluded.${s}`).join(', '))
  await sql`INSERT INTO dashboard_repositories (repo_key, critical, high, medium, low, unknown)
    SELECT v.repo_key, ${sums} FROM scan_status s JOIN package_versions v ON v.id = s.version_id GROUP BY v.repo_key
    ON CONFLICT (repo_key) DO UPDATE SET ${fromSums}`.execute(db)

  for (const t of triggers) await createTrigger(db, t)
}

// biome-ignore lint/suspicious/noExplicitAny: see createTrigger
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of triggers) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${t.name}${isSqlite(db) ? '' : ` ON ${t.table}`}`).execute(db)
    if (!isSqlite(db)) await sql.raw(`DROP FUNCTION IF EXISTS ${t.name}()`).execute(db)
  }
  await db.schema.dropIndex('scan_status_critical_scanned').execute()
  for (const t of ['dashboard_activity', 'dashboard_repositories', 'dashboard_days', 'dashboard_deltas']) {
    await db.schema.dropTable(t).execute()
  }
}
