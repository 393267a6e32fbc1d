import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { WriteWatch } from '../../core/dbWrites.js'
import { conflict, HttpError, notFound } from '../../core/errors.js'
import { isSpdxId, toSpdx } from '../../core/licenses.js'
import type { Database } from '../../core/schema.js'
import { recordChange } from '../../identity/index.js'
import { SEVERITIES, type Severity } from './types.js'

const SEVERITY_RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, unknown: 0 }
const licenceId = z.string().refine(isSpdxId, { error: (i) => `unknown SPDX licence id ${String(i.input)}` })

export const PolicyForm = z.object({
  name: z.string().trim().min(1).max(128),
  description: z.string().max(1000).default(''),
  /** Findings of this severity or worse violate the policy; absent: security findings do not. */
  minSeverity: z
    .enum(SEVERITIES as [Severity, ...Severity[]], { error: `expected one of ${SEVERITIES.join(', ')}` })
    .nullable()
    .default(null),
  /** Only these licences are allowed (absent: any) */
  allowedLicenses: z.array(licenceId).max(500).nullable().default(null),
  deniedLicenses: z.array(licenceId).max(500).default([]),
  actions: z
    .object({
      notify: z.boolean().default(false),
      failBuild: z.boolean().default(false),
      blockDownload: z.boolean().default(false),
    })
    .default({ notify: false, failBuild: false, blockDownload: false }),
})
export type PolicyForm = z.infer<typeof PolicyForm>
export type PolicyRules = Omit<PolicyForm, 'name' | 'description'>

export const WatchForm = z.object({
  name: z.string().trim().min(1).max(128),
  /** Repository keys, or "*" for all */
  repositories: z.array(z.string().min(1).max(64)).max(500).default([]),
  builds: z.array(z.string().min(1).max(255)).max(500).default([]),
  projects: z.array(z.string().min(1).max(64)).max(100).default([]),
  policies: z.array(z.string().min(1).max(128)).min(1, 'a watch applies at least one policy').max(50),
})
export type WatchForm = z.infer<typeof WatchForm>
export type WatchResources = Omit<WatchForm, 'name'>

export const IgnoreForm = z
  .object({
    advisoryId: z.string().min(1).max(255).nullable().default(null),
    license: z.string().min(1).max(255).nullable().default(null),
    /** Only this package (`<type>://<name>`), and only this version of it */
    packageId: z.string().min(1).max(600).nullable().default(null),
    version: z.string().min(1).max(255).nullable().default(null),
    reason: z.string().trim().min(1, 'say why it is ignored').max(1000),
    /** ISO date; absent: until removed */
    expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .refine((f) => f.advisoryId || f.license, { error: 'an ignore rule names an advisory or a licence', path: ['advisoryId'] })

export interface Violation {
  watch: string
  policy: string
  type: 'security' | 'license'
  /** The advisory id, or the licence */
  issue: string
  severity: Severity | null
  component: string
  componentVersion: string
  packageId: string
  version: string
  repo: string
  blocksDownload: boolean
  failsBuild: boolean
}

interface LoadedWatch {
  name: string
  resources: WatchResources
  policies: { name: string; rules: PolicyRules }[]
}

/**
 * Policies and watches (the scanner's §1 "security data"): which findings and licences violate,
 * where, and what follows. Watches and policies are few and read on every download of a watched
 * repository, so they are kept in memory until one of their tables changes.
 */
export class PolicyService {
  private loaded: Promise<LoadedWatch[]> | undefined

  constructor(
    private readonly db: Kysely<Database>,
    writes: WriteWatch,
  ) {
    writes.on((tables) => {
      if (tables.has('*') || tables.has('scan_policies') || tables.has('scan_watches') || tables.has('scan_ignore_rules'))
        this.loaded = undefined
    })
  }

  private watches(): Promise<LoadedWatch[]> {
    this.loaded ??= (async () => {
      const [policies, watches] = await Promise.all([
        this.db.selectFrom('scan_policies').selectAll().execute(),
        this.db.selectFrom('scan_watches').selectAll().execute(),
      ])
      const byName = new Map(policies.map((p) => [p.name, JSON.parse(p.rules) as PolicyRules]))
      return watches.map((w) => {
        const resources = JSON.parse(w.resources) as WatchResources
        return {
          name: w.name,
          resources,
          policies: resources.policies.flatMap((name) => {
            const rules = byName.get(name)
            return rules ? [{ name, rules }] : []
          }),
        }
      })
    })().catch((err) => {
      this.loaded = undefined
      throw err
    })
    return this.loaded
  }

  // ---- administration ----

  async listPolicies() {
    const rows = await this.db.selectFrom('scan_policies').selectAll().orderBy('name').execute()
    return rows.map((r) => ({ name: r.name, description: r.description, ...(JSON.parse(r.rules) as PolicyRules) }))
  }

  async savePolicy(form: PolicyForm, existing?: string): Promise<void> {
    const { name, description, ...rules } = form
    const now = Date.now()
    const values = { name, description, rules: JSON.stringify(rules), updated_at: now }
    if (existing) {
      const res = await this.db.updateTable('scan_policies').set(values).where('name', '=', existing).executeTakeFirst()
      if (Number(res.numUpdatedRows) === 0) throw notFound(`No policy ${existing}`)
      return
    }
    const taken = await this.db.selectFrom('scan_policies').select('id').where('name', '=', name).executeTakeFirst()
    if (taken) throw conflict(`name: a policy named ${name} already exists`)
    await this.db
      .insertInto('scan_policies')
      .values({ ...values, created_at: now })
      .execute()
  }

  async deletePolicy(name: string): Promise<void> {
    const usedBy = (await this.watches()).filter((w) => w.resources.policies.includes(name)).map((w) => w.name)
    if (usedBy.length > 0) throw conflict(`The policy ${name} is applied by the watches ${usedBy.join(', ')}`)
    const res = await this.db.deleteFrom('scan_policies').where('name', '=', name).executeTakeFirst()
    if (Number(res.numDeletedRows) === 0) throw notFound(`No policy ${name}`)
  }

  async listWatches() {
    const rows = await this.db.selectFrom('scan_watches').selectAll().orderBy('name').execute()
    return rows.map((r) => ({ name: r.name, ...(JSON.parse(r.resources) as WatchResources) }))
  }

  async saveWatch(form: WatchForm, existing?: string): Promise<void> {
    const known = new Set((await this.db.selectFrom('scan_policies').select('name').execute()).map((p) => p.name))
    const missing = form.policies.filter((p) => !known.has(p))
    if (missing.length > 0) throw new HttpError(400, `policies: no policy named ${missing.join(', ')}`)
    const { name, ...resources } = form
    const now = Date.now()
    const values = { name, resources: JSON.stringify(resources), updated_at: now }
    if (existing) {
      const res = await this.db.updateTable('scan_watches').set(values).where('name', '=', existing).executeTakeFirst()
      if (Number(res.numUpdatedRows) === 0) throw notFound(`No watch ${existing}`)
      return
    }
    const taken = await this.db.selectFrom('scan_watches').select('id').where('name', '=', name).executeTakeFirst()
    if (taken) throw conflict(`name: a watch named ${name} already exists`)
    await this.db
      .insertInto('scan_watches')
      .values({ ...values, created_at: now })
      .execute()
  }

  async deleteWatch(name: string): Promise<void> {
    const res = await this.db.deleteFrom('scan_watches').where('name', '=', name).executeTakeFirst()
    if (Number(res.numDeletedRows) === 0) throw notFound(`No watch ${name}`)
  }

  async listIgnoreRules() {
    const rows = await this.db.selectFrom('scan_ignore_rules').selectAll().orderBy('id', 'desc').execute()
    return rows.map((r) => ({
      id: r.id,
      advisoryId: r.advisory_id,
      license: r.license,
      packageId: r.package_id,
      version: r.version,
      reason: r.reason,
      expiresAt: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
      createdBy: r.created_by,
      createdAt: new Date(r.created_at).toISOString(),
    }))
  }

  /** Adds an ignore rule; the audit log records who accepted what and why. */
  async addIgnoreRule(form: z.infer<typeof IgnoreForm>, actor: string): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('scan_ignore_rules')
        .values({
          advisory_id: form.advisoryId,
          license: form.license,
          package_id: form.packageId,
          version: form.version,
          reason: form.reason,
          expires_at: form.expiresAt ? Date.parse(form.expiresAt) : null,
          created_by: actor,
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await recordChange(tx, {
        actor,
        action: 'scanner.ignore.create',
        targetType: 'security',
        targetName: form.advisoryId ?? form.license ?? '',
        details: { ...form, id: row.id },
      })
      return row.id
    })
  }

  async removeIgnoreRule(id: number, actor: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('scan_ignore_rules').selectAll().where('id', '=', id).executeTakeFirst()
      if (!row) throw notFound(`No ignore rule ${id}`)
      await tx.deleteFrom('scan_ignore_rules').where('id', '=', id).execute()
      await recordChange(tx, {
        actor,
        action: 'scanner.ignore.delete',
        targetType: 'security',
        targetName: row.advisory_id ?? row.license ?? '',
        details: { id, reason: row.reason },
      })
    })
  }

  // ---- evaluation ----

  /** The watches that cover a repository: by name, by "*", or by its project (keys `<project>-…`). */
  private watchesOf(watches: LoadedWatch[], repoKey: string): LoadedWatch[] {
    return watches.filter(
      (w) =>
        w.resources.repositories.includes('*') ||
        w.resources.repositories.includes(repoKey) ||
        w.resources.projects.some((project) => repoKey.startsWith(`${project}-`)),
    )
  }

  /** The violations of versions (all stored versions of watched repositories when `versionIds` is absent). */
  async violations(
    filter: { versionIds?: number[]; repo?: string; type?: 'security' | 'license'; severity?: Severity } = {},
  ): Promise<Violation[]> {
    const watches = await this.watches()
    return this.evaluate(filter, (repoKey) => this.watchesOf(watches, repoKey))
  }

  /**
   * The violations of a build run: of the stored versions its artifacts and dependencies are
   * (matched by checksum), under the watches that name the build (or "*"), wherever the versions
   * are stored.
   */
  async buildViolations(buildId: number, buildName: string): Promise<{ violations: Violation[]; versionIds: number[] }> {
    const watches = (await this.watches()).filter(
      (w) => w.resources.builds.includes('*') || w.resources.builds.includes(buildName),
    )
    const items = await this.db.selectFrom('build_items').select(['sha256', 'sha1']).where('build_id', '=', buildId).execute()
    const versionIds = new Set<number>()
    for (const [column, values] of [
      ['sha256', items.flatMap((i) => (i.sha256 ? [i.sha256] : []))],
      ['sha1', items.flatMap((i) => (i.sha256 || !i.sha1 ? [] : [i.sha1]))],
    ] as const) {
      const unique = [...new Set(values)]
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await this.db
          .selectFrom('files')
          .select('version_id')
          .where(column, 'in', unique.slice(i, i + 500))
          .where('version_id', 'is not', null)
          .execute()
        for (const r of rows) if (r.version_id !== null) versionIds.add(r.version_id)
      }
    }
    const ids = [...versionIds]
    if (watches.length === 0 || ids.length === 0) return { violations: [], versionIds: ids }
    return { violations: await this.evaluate({ versionIds: ids }, () => watches), versionIds: ids }
  }

  private async evaluate(
    filter: { versionIds?: number[]; repo?: string; type?: 'security' | 'license'; severity?: Severity },
    watchesOf: (repoKey: string) => LoadedWatch[],
  ): Promise<Violation[]> {
    if ((await this.watches()).length === 0) return []
    const now = Date.now()
    const ignores = (await this.db.selectFrom('scan_ignore_rules').selectAll().execute()).filter(
      (r) => r.expires_at === null || r.expires_at > now,
    )
    let q = this.db
      .selectFrom('scan_components as c')
      .innerJoin('package_versions as v', 'v.id', 'c.version_id')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .leftJoin('scan_findings as f', 'f.component_id', 'c.id')
      .select([
        'c.name',
        'c.version as cversion',
        'c.licenses',
        'c.path',
        'p.package_type',
        'p.name as pname',
        'v.version',
        'v.repo_key',
        'f.advisory_id',
        'f.severity',
      ])
    if (filter.versionIds) q = q.where('c.version_id', 'in', filter.versionIds.length > 0 ? filter.versionIds : [-1])
    if (filter.repo) q = q.where('v.repo_key', '=', filter.repo)
    const rows = await q.execute()
    const out: Violation[] = []
    const seen = new Set<string>()
    for (const r of rows) {
      const packageId = `${r.package_type}://${r.pname}`
      const ignored = (issue: { advisory?: string; license?: string }) =>
        ignores.some(
          (i) =>
            (i.advisory_id ? i.advisory_id === issue.advisory : i.license === issue.license) &&
            (!i.package_id || i.package_id === packageId) &&
            (!i.version || i.version === r.version),
        )
      for (const w of watchesOf(r.repo_key)) {
        for (const p of w.policies) {
          const push = (
            v: Omit<Violation, 'watch' | 'policy' | 'packageId' | 'version' | 'repo' | 'blocksDownload' | 'failsBuild'>,
          ) => {
            if (filter.type && v.type !== filter.type) return
            if (filter.severity && v.severity !== filter.severity) return
            const key = `${w.name}\u0000${p.name}\u0000${r.repo_key}\u0000${packageId}\u0000${r.version}\u0000${v.issue}\u0000${v.component}`
            if (seen.has(key)) return
            seen.add(key)
            out.push({
              ...v,
              watch: w.name,
              policy: p.name,
              packageId,
              version: r.version,
              repo: r.repo_key,
              blocksDownload: p.rules.actions.blockDownload,
              failsBuild: p.rules.actions.failBuild,
            })
          }
          const min = p.rules.minSeverity
          if (min && r.advisory_id && r.severity) {
            const sev = r.severity as Severity
            if (SEVERITY_RANK[sev] >= SEVERITY_RANK[min] && !ignored({ advisory: r.advisory_id }))
              push({ type: 'security', issue: r.advisory_id, severity: sev, component: r.name, componentVersion: r.cversion })
          }
          // Licences are judged on the package itself (the component found at its root).
          if (r.path === '') {
            for (const l of JSON.parse(r.licenses) as { name: string; spdx: string | null }[]) {
              const id = l.spdx ?? toSpdx(l.name) ?? l.name
              const denied = p.rules.deniedLicenses.includes(id)
              const notAllowed = p.rules.allowedLicenses !== null && !p.rules.allowedLicenses.includes(id)
              if ((denied || notAllowed) && !ignored({ license: id }))
                push({ type: 'license', issue: id, severity: null, component: r.name, componentVersion: r.cversion })
            }
          }
        }
      }
    }
    return out
  }

  /**
   * Why a download of a version from a repository is refused, or null: the first violation of a
   * policy that blocks downloads, naming the advisory or licence. Nothing is looked up unless a
   * blocking watch covers the repository.
   */
  async downloadBlocked(versionId: number, repoKey: string): Promise<string | null> {
    const watches = this.watchesOf(await this.watches(), repoKey)
    if (!watches.some((w) => w.policies.some((p) => p.rules.actions.blockDownload))) return null
    const v = (await this.violations({ versionIds: [versionId] })).find((x) => x.blocksDownload && x.repo === repoKey)
    if (!v) return null
    const what =
      v.type === 'security'
        ? `${v.issue} (${v.severity}) in ${v.component}@${v.componentVersion}`
        : `licence ${v.issue} of ${v.component}@${v.componentVersion}`
    return `Download blocked by the policy ${v.policy} of the watch ${v.watch}: ${what}`
  }
}
