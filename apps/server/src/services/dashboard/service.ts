import {
  type ActivityItem,
  type CriticalVersion,
  DASHBOARD_ACTIVITY,
  DASHBOARD_CRITICAL,
  DASHBOARD_DAYS,
  DASHBOARD_REPOSITORIES,
  DASHBOARD_TOP_PACKAGES,
  type Dashboard,
  type RepositoryUsage,
  type StorageDay,
} from '@trove/contracts/dashboard'
import type { Kysely } from 'kysely'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import type { Database } from '../../core/schema.js'
import { nodeList, runningServices } from '../operations/index.js'
import { SCAN_SEVERITIES } from '../scanner/index.js'
import { foldDeltas } from './rollup.js'

const DAY_MS = 86_400_000
/** A plain user's activity is looked for among this many newest events (the feed of all is not read through). */
const USER_ACTIVITY_WINDOW = 1000

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** The Overview dashboard: every figure from the roll-up tables, folded up to date first. */
export class DashboardService {
  constructor(private readonly ctx: AppContext) {}

  private get db(): Kysely<Database> {
    return this.ctx.db.kysely
  }

  fold(): Promise<number> {
    return foldDeltas(this.db, this.ctx.db.dialect)
  }

  async dashboard(principal: Principal, now = Date.now()): Promise<Dashboard> {
    await this.fold()
    const db = this.db
    const admin = principal.admin
    const repositories = await db.selectFrom('repositories').select(['key', 'rclass', 'package_type']).execute()
    const visible = admin
      ? repositories
      : await this.ctx.authz
          .readableRepoKeys(
            principal,
            repositories.map((r) => r.key),
          )
          .then((keys) => {
            const set = new Set(keys)
            return repositories.filter((r) => set.has(r.key))
          })
    const keys = visible.map((r) => r.key)
    const byKey = new Map(visible.map((r) => [r.key, r]))
    const today = Math.floor(now / DAY_MS)
    const firstDay = today - DASHBOARD_DAYS + 1

    const [usageRows, dayRows, topPackages, running, activity, nodes] = await Promise.all([
      db.selectFrom('dashboard_repositories').selectAll().execute(),
      db
        .selectFrom('dashboard_days')
        .select(['day', 'repo_key', 'downloads', 'uploads', 'bytes'])
        .where('day', '>', firstDay - 1)
        .execute(),
      this.topPackages(admin ? null : keys),
      runningServices(db, now),
      this.activity(principal, admin ? null : new Set(keys)),
      admin ? nodeList(db, now) : Promise.resolve(null),
    ])

    const usage = usageRows.filter((u) => byKey.has(u.repo_key))
    const largest: RepositoryUsage[] = usage
      .map((u) => ({
        repoKey: u.repo_key,
        packageType: byKey.get(u.repo_key)?.package_type ?? '',
        rclass: byKey.get(u.repo_key)?.rclass ?? '',
        bytes: Number(u.bytes),
        files: Number(u.files),
        downloads: Number(u.downloads),
      }))
      .filter((u) => u.files > 0)
      .sort((a, b) => b.bytes - a.bytes || a.repoKey.localeCompare(b.repoKey))
    const drawn = largest.slice(0, DASHBOARD_REPOSITORIES)
    const drawnKeys = new Set(drawn.map((r) => r.repoKey))

    // Bytes at the end of each day: today's total less what every later day added.
    const days = dayRows.filter((d) => byKey.has(d.repo_key))
    const traffic = new Map<number, { downloads: number; uploads: number }>()
    const growth = new Map<number, Map<string, number>>()
    for (let d = firstDay; d <= today; d++) {
      traffic.set(d, { downloads: 0, uploads: 0 })
      growth.set(d, new Map())
    }
    for (const row of days) {
      const t = traffic.get(row.day)
      if (t) {
        t.downloads += Number(row.downloads)
        t.uploads += Number(row.uploads)
      }
      const series = drawnKeys.has(row.repo_key) ? row.repo_key : 'other'
      const g = growth.get(row.day)
      g?.set(series, (g.get(series) ?? 0) + Number(row.bytes))
    }
    const totalBytes = usage.reduce((sum, u) => sum + Number(u.bytes), 0)
    const current = new Map<string, number>(drawn.map((r) => [r.repoKey, r.bytes]))
    current.set('other', totalBytes - drawn.reduce((sum, r) => sum + r.bytes, 0))
    const storage: StorageDay[] = []
    for (let d = today; d >= firstDay; d--) {
      const byRepository = Object.fromEntries([...current].map(([k, v]) => [k, Math.max(0, v)]))
      storage.unshift({
        day: isoDay(d),
        bytes: Math.max(
          0,
          [...current.values()].reduce((a, b) => a + b, 0),
        ),
        byRepository,
      })
      for (const [series, delta] of growth.get(d) ?? []) current.set(series, (current.get(series) ?? 0) - delta)
    }
    const trafficDays = [...traffic].map(([d, t]) => ({ day: isoDay(d), ...t }))

    const scanner = running.has('scanner')
    return {
      scope: admin ? 'instance' : 'readable',
      generatedAt: now,
      totals: {
        repositories: visible.length,
        files: usage.reduce((sum, u) => sum + Number(u.files), 0),
        bytes: totalBytes,
        downloads: trafficDays.reduce((sum, t) => sum + t.downloads, 0),
        uploads: trafficDays.reduce((sum, t) => sum + t.uploads, 0),
      },
      repositories: drawn,
      storage,
      traffic: trafficDays,
      topPackages,
      vulnerabilities: scanner
        ? {
            counts: Object.fromEntries(
              SCAN_SEVERITIES.map((s) => [s, usage.reduce((sum, u) => sum + Number(u[s]), 0)]),
            ) as Record<(typeof SCAN_SEVERITIES)[number], number>,
            newestCritical: await this.newestCritical(admin ? null : keys),
          }
        : null,
      activity,
      nodes:
        nodes?.map((n) => ({ nodeId: n.node_id, status: n.status, services: n.services, lastHeartbeat: n.last_heartbeat })) ??
        null,
    }
  }

  /** The most downloaded packages (packages.downloads, kept by the download flush); of `keys` only, unless null. */
  private async topPackages(keys: string[] | null) {
    if (keys && keys.length === 0) return []
    let q = this.db
      .selectFrom('packages')
      .select(['package_type', 'name', 'latest_version', 'downloads'])
      .where('downloads', '>', 0)
      .orderBy('downloads', 'desc')
      .orderBy('id', 'desc')
      .limit(DASHBOARD_TOP_PACKAGES)
    if (keys) {
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('package_versions as v')
            .select('v.id')
            .whereRef('v.package_id', '=', 'packages.id')
            .where('v.repo_key', 'in', keys),
        ),
      )
    }
    const rows = await q.execute()
    return rows.map((r) => ({
      packageType: r.package_type,
      name: r.name,
      latestVersion: r.latest_version,
      downloads: Number(r.downloads),
    }))
  }

  /** The versions scanned most recently with critical findings (index scan_status_critical_scanned). */
  private async newestCritical(keys: string[] | null): Promise<CriticalVersion[]> {
    if (keys && keys.length === 0) return []
    let q = this.db
      .selectFrom('scan_status as s')
      .innerJoin('package_versions as v', 'v.id', 's.version_id')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['s.version_id', 's.critical', 's.scanned_at', 'v.version', 'v.repo_key', 'p.package_type', 'p.name'])
      .where('s.critical', '>', 0)
      .orderBy('s.scanned_at', 'desc')
      .limit(DASHBOARD_CRITICAL)
    if (keys) q = q.where('v.repo_key', 'in', keys)
    const rows = await q.execute()
    if (rows.length === 0) return []
    const findings = await this.db
      .selectFrom('scan_findings')
      .select(['version_id', 'advisory_id'])
      .distinct()
      .where(
        'version_id',
        'in',
        rows.map((r) => r.version_id),
      )
      .where('severity', '=', 'critical')
      .orderBy('advisory_id')
      .execute()
    return rows.map((r) => ({
      packageType: r.package_type,
      name: r.name,
      version: r.version,
      repoKey: r.repo_key,
      critical: Number(r.critical),
      scannedAt: r.scanned_at === null ? null : Number(r.scanned_at),
      advisories: findings
        .filter((f) => f.version_id === r.version_id)
        .slice(0, 3)
        .map((f) => f.advisory_id),
    }))
  }

  /**
   * Newest first: publishes, deletes and sign-ins, and for administrators the audit log's access
   * changes. A plain user sees what happened in the repositories they may read and their own sign-ins.
   */
  private async activity(principal: Principal, keys: Set<string> | null): Promise<ActivityItem[]> {
    const rows = await this.db
      .selectFrom('dashboard_activity')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(keys ? USER_ACTIVITY_WINDOW : DASHBOARD_ACTIVITY)
      .execute()
    const items: ActivityItem[] = rows
      .filter((r) =>
        keys ? (r.kind === 'signin' ? r.actor === principal.name : r.repo_key !== null && keys.has(r.repo_key)) : true,
      )
      .slice(0, DASHBOARD_ACTIVITY)
      .map((r) => ({
        at: Number(r.at),
        kind: r.kind,
        actor: r.actor,
        repoKey: r.repo_key,
        packageType: r.package_type,
        name: r.name,
        version: r.version,
        action: null,
        target: null,
      }))
    if (keys) return items
    const audit = await this.db.selectFrom('audit_events').selectAll().orderBy('id', 'desc').limit(DASHBOARD_ACTIVITY).execute()
    const changes: ActivityItem[] = audit.map((a) => ({
      at: Number(a.at),
      kind: 'access',
      actor: a.actor,
      repoKey: null,
      packageType: null,
      name: null,
      version: null,
      action: a.action,
      target: `${a.target_type} ${a.target_name}`,
    }))
    return [...items, ...changes].sort((a, b) => b.at - a.at).slice(0, DASHBOARD_ACTIVITY)
  }
}
