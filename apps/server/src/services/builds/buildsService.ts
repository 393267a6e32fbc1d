import type {
  BuildDiffResponse,
  BuildItemFile,
  BuildListResponse,
  BuildModule,
  BuildRunResponse,
  BuildRunsResponse,
} from '@trove/contracts/builds'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import { badRequest, forbidden, notFound, unauthorized } from '../../core/errors.js'
import { type DocModule, diffModules, modulesOf, propertiesOf, runStatus, vcsRevisionOf } from './buildInfoDoc.js'
import { deleteRuns, filesWithChecksums, latestRuns, runOf, runsOf } from './buildsRepo.js'

const iso = (ms: number) => new Date(ms).toISOString()
const runLabel = (name: string, number: string) => `${name} #${number}`

/**
 * The Builds screens' logic: what a caller may see of the stored build info and what they may
 * remove. Every read asks `read` on the build; a build the caller may not read answers exactly
 * like one that does not exist (404), and an anonymous caller is asked to sign in (401) instead.
 */
export class BuildsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.db.kysely
  }

  private canRead(principal: Principal | null, name: string) {
    return this.ctx.authz.canOnBuild(principal, 'read', name)
  }

  /** Throws the answer an unreadable or unknown build gets. */
  private missing(principal: Principal | null, what: string): never {
    if (!principal) throw unauthorized()
    throw notFound(`Build not found: ${what}`)
  }

  async list(principal: Principal | null): Promise<BuildListResponse> {
    const builds: BuildListResponse['builds'] = []
    for (const row of await latestRuns(this.db)) {
      if (!(await this.canRead(principal, row.name))) continue
      builds.push({
        name: row.name,
        lastNumber: row.number,
        lastStarted: iso(row.started_at),
        status: row.status,
        runs: row.runs,
      })
    }
    // Nothing to show an anonymous caller: ask them to sign in rather than show an empty list.
    if (builds.length === 0 && !principal) throw unauthorized()
    return { builds }
  }

  async runs(principal: Principal | null, name: string): Promise<BuildRunsResponse> {
    const rows = (await this.canRead(principal, name)) ? await runsOf(this.db, name) : []
    if (rows.length === 0) this.missing(principal, name)
    return {
      name,
      canDelete: await this.ctx.authz.canOnBuild(principal, 'delete', name),
      runs: rows.map((r) => ({
        number: r.number,
        started: iso(r.started_at),
        agent: r.agent,
        url: r.url,
        publishedBy: r.created_by,
        status: r.status,
      })),
    }
  }

  private async document(principal: Principal | null, name: string, number: string) {
    const row = (await this.canRead(principal, name)) ? await runOf(this.db, name, number) : undefined
    if (!row) this.missing(principal, runLabel(name, number))
    return { row, info: JSON.parse(row.info) as Record<string, unknown> }
  }

  async run(principal: Principal | null, name: string, number: string): Promise<BuildRunResponse> {
    const { row, info } = await this.document(principal, name, number)
    const { environment, properties } = propertiesOf(info)
    const duration = info.durationMillis
    return {
      name,
      number: row.number,
      started: iso(row.started_at),
      durationMillis: typeof duration === 'number' && Number.isFinite(duration) ? duration : null,
      agent: row.agent,
      url: row.url,
      publishedBy: row.created_by,
      status: row.status ?? runStatus(info),
      vcsRevision: vcsRevisionOf(info),
      canDelete: await this.ctx.authz.canOnBuild(principal, 'delete', name),
      modules: await this.withFiles(principal, modulesOf(info)),
      environment,
      properties,
      info,
    }
  }

  /**
   * Each item with the stored file holding its content, in a repository the caller may read:
   * matched by sha256 when the item has one, else by sha1; a file of the item's own name first.
   */
  private async withFiles(principal: Principal | null, modules: DocModule[]): Promise<BuildModule[]> {
    const all = modules.flatMap((m) => [...m.artifacts, ...m.dependencies])
    const matches = await filesWithChecksums(this.db, {
      sha256: all.flatMap((i) => (i.sha256 ? [i.sha256] : [])),
      sha1: all.flatMap((i) => (!i.sha256 && i.sha1 ? [i.sha1] : [])),
    })
    const readable = new Map<string, boolean>()
    for (const key of new Set(matches.map((m) => m.repo_key))) {
      readable.set(key, await this.ctx.authz.canOnRepo(principal, 'read', key))
    }
    const bySum = new Map<string, typeof matches>()
    for (const m of matches) {
      if (!readable.get(m.repo_key)) continue
      for (const s of [m.sha256, m.sha1]) if (s) bySum.set(s, [...(bySum.get(s) ?? []), m])
    }
    const fileOf = (item: DocModule['artifacts'][number]): BuildItemFile | null => {
      const found = (item.sha256 ? bySum.get(item.sha256) : item.sha1 ? bySum.get(item.sha1) : undefined) ?? []
      const best = found.find((f) => f.name === item.name || item.name.endsWith(`/${f.name}`)) ?? found[0]
      return best ? { repoKey: best.repo_key, path: best.path } : null
    }
    const view = (item: DocModule['artifacts'][number]) => ({
      name: item.name,
      type: item.type,
      sha1: item.sha1,
      sha256: item.sha256,
      md5: item.md5,
      scopes: item.scopes,
      file: fileOf(item),
    })
    return modules.map((m) => ({ id: m.id, artifacts: m.artifacts.map(view), dependencies: m.dependencies.map(view) }))
  }

  /** What changed from run `base` to run `number` of one build. */
  async diff(principal: Principal | null, name: string, number: string, base: string): Promise<BuildDiffResponse> {
    if (number === base) throw badRequest('Pick two different runs to compare')
    const compared = await this.document(principal, name, number)
    const older = await this.document(principal, name, base)
    return {
      name,
      base: { number: older.row.number, started: iso(older.row.started_at) },
      compared: { number: compared.row.number, started: iso(compared.row.started_at) },
      ...diffModules(modulesOf(older.info), modulesOf(compared.info)),
    }
  }

  /**
   * Removes runs of a build (all of them with `numbers` null). Needs `delete` on the build; every
   * named run must exist, or nothing is removed.
   */
  async remove(principal: Principal | null, name: string, numbers: string[] | null): Promise<string[]> {
    if (numbers && numbers.length === 0) throw badRequest('Name the runs to delete: buildNumbers=1,2 (or deleteAll=1)')
    const runs = (await this.canRead(principal, name)) ? await runsOf(this.db, name) : []
    if (runs.length === 0) this.missing(principal, name)
    if (!(await this.ctx.authz.canOnBuild(principal, 'delete', name))) {
      throw forbidden(`${principal?.name ?? 'Anonymous'} may not delete runs of build ${name}`)
    }
    const byNumber = new Map(runs.map((r) => [r.number, r.id]))
    const wanted = numbers ?? runs.map((r) => r.number)
    const unknown = wanted.filter((n) => !byNumber.has(n))
    if (unknown.length > 0) throw notFound(`Build not found: ${unknown.map((n) => runLabel(name, n)).join(', ')}`)
    const ids = wanted.map((n) => byNumber.get(n) as number)
    await this.db.transaction().execute((tx) => deleteRuns(tx, ids))
    return wanted
  }
}
