import {
  PACKAGE_TYPE_LABELS,
  type PackageType,
  type QuickCreateResponse,
  type QuickSetupResponse,
  type RepositoryConfig,
  type RepositoryConfigInput,
  type RepositoryConfigUpdate,
  type RepositorySummary,
  SAMPLE_REPOSITORIES,
} from '@trove/contracts/repositories'
import { clientUrlOf, DEFAULT_UPSTREAMS } from '@trove/contracts/repositoryConstants'
import type { Kysely } from 'kysely'
import { badRequest, conflict, notFound } from '../core/errors.js'
import { resolveTarget, Unresolved } from '../core/safeAddress.js'
import type { Database } from '../core/schema.js'
import type { SecretBox } from '../core/secretBox.js'
import { servesStale } from '../core/staleWhileDown.js'
import { packagesChanged } from './answerCache.js'
import {
  findRepository,
  listMembers,
  listRepositories,
  type RepositoryRow,
  setMembers,
  type Tx,
  virtualsContaining,
} from './repo.js'

/** A repository as formats use it: its row, its members when virtual, and the upstream's password opened. */
export interface Repository {
  key: string
  rclass: RepositoryRow['rclass']
  packageType: PackageType
  url: string | null
  username: string | null
  password: string | null
  offline: boolean
  metadataCacheSecs: number
  artifactCacheSecs: number
  missedCacheSecs: number
  members: string[]
  defaultDeploymentRepo: string | null
}

/** Where a repository's clients find it. */
export function repositoryUrl(baseUrl: string, key: string): string {
  return `${baseUrl}/artifactory/${key}`
}

/**
 * How long a node reuses a repository's configuration without reading it again. Changes made on this
 * node apply at once; those made on another node of a cluster within this time.
 */
const CONFIG_CACHE_MS = 2000

/**
 * Refuses (400, `url: …`) an upstream URL that is not http(s) or whose host is, or resolves to, a
 * link-local or metadata address (integrations/safeAddress.ts). Loopback and private addresses
 * stay allowed. A host that does not resolve now is accepted: every fetch checks again
 * (formats/kit/upstreamFetch.ts).
 */
async function refuseUnsafeUpstream(url: string | undefined): Promise<void> {
  if (!url) return
  try {
    await resolveTarget(url)
  } catch (error) {
    if (!(error instanceof Unresolved)) throw error
  }
}

export class RepositoryService {
  private readonly cache = new Map<string, { at: number; repo: Promise<Repository | undefined> }>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly secrets: SecretBox,
  ) {}

  /** Drops every repository kept (another process of the node changed one). */
  forgetAll(): void {
    this.cache.clear()
  }

  /** The repository a client names, or undefined (every package-client request asks: kept briefly). */
  async get(key: string): Promise<Repository | undefined> {
    const now = Date.now()
    const hit = this.cache.get(key)
    if (hit && now - hit.at < CONFIG_CACHE_MS) return hit.repo
    const entry = {
      at: now,
      // While the database is away, the repository last read stands in (core/staleWhileDown.ts).
      repo: this.load(key).catch((error: unknown) => {
        if (!hit || !servesStale(error, hit.at, now)) throw error
        if (this.cache.get(key) === entry) this.cache.set(key, hit)
        return hit.repo
      }),
    }
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(key, entry)
    entry.repo.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key)
    })
    return entry.repo
  }

  private async load(key: string): Promise<Repository | undefined> {
    const row = await findRepository(this.db, key)
    if (!row) return undefined
    return {
      key: row.key,
      rclass: row.rclass,
      packageType: row.package_type as PackageType,
      url: row.url,
      username: row.username,
      password: row.password_sealed ? this.secrets.open(row.password_sealed) : null,
      offline: Boolean(row.offline),
      metadataCacheSecs: row.metadata_cache_secs,
      artifactCacheSecs: row.artifact_cache_secs,
      missedCacheSecs: row.missed_cache_secs,
      members: row.rclass === 'virtual' ? await listMembers(this.db, key) : [],
      defaultDeploymentRepo: row.default_deployment_repo,
    }
  }

  async list(filter: { rclass?: string; packageType?: string }, baseUrl: string): Promise<RepositorySummary[]> {
    const rows = await listRepositories(this.db, filter)
    return rows.map((r) => ({
      key: r.key,
      type: r.rclass.toUpperCase() as RepositorySummary['type'],
      description: r.description,
      url: r.rclass === 'remote' && r.url ? r.url : repositoryUrl(baseUrl, r.key),
      clientUrl: clientUrlOf(baseUrl, r.package_type, r.key),
      packageType: PACKAGE_TYPE_LABELS[r.package_type as PackageType] ?? r.package_type,
    }))
  }

  async config(key: string): Promise<RepositoryConfig> {
    const row = await findRepository(this.db, key)
    if (!row) throw notFound(`Repository ${key} does not exist`)
    return this.toConfig(row)
  }

  private async toConfig(row: RepositoryRow, db: Tx = this.db): Promise<RepositoryConfig> {
    const base: RepositoryConfig = {
      key: row.key,
      rclass: row.rclass,
      packageType: row.package_type as PackageType,
      description: row.description,
      notes: row.notes,
      includesPattern: row.includes_pattern,
      excludesPattern: row.excludes_pattern,
      created: row.created_at,
      modified: row.updated_at,
    }
    if (row.rclass === 'remote') {
      return {
        ...base,
        url: row.url ?? '',
        username: row.username ?? '',
        hasPassword: Boolean(row.password_sealed),
        offline: Boolean(row.offline),
        retrievalCachePeriodSecs: row.metadata_cache_secs,
        missedRetrievalCachePeriodSecs: row.missed_cache_secs,
        unusedArtifactsCleanupPeriodHours: Math.round(row.artifact_cache_secs / 3600),
      }
    }
    if (row.rclass === 'virtual') {
      return { ...base, repositories: await listMembers(db, row.key), defaultDeploymentRepo: row.default_deployment_repo ?? '' }
    }
    return base
  }

  /** Checks a virtual repository's members and deployment target against the database. */
  private async checkVirtual(tx: Tx, key: string, packageType: string, members: string[], deployTo: string | null) {
    if (new Set(members).size !== members.length) throw badRequest('repositories: a repository is listed twice')
    for (const member of members) {
      if (member === key) throw badRequest('repositories: a virtual repository cannot include itself')
      const row = await findRepository(tx, member)
      if (!row) throw badRequest(`repositories: repository ${member} does not exist`)
      if (row.package_type !== packageType) throw badRequest(`repositories: ${member} is not a ${packageType} repository`)
      if (row.rclass === 'virtual') throw badRequest(`repositories: ${member} is virtual; list local and remote repositories`)
    }
    if (deployTo) {
      if (!members.includes(deployTo)) throw badRequest('defaultDeploymentRepo: must be one of the repositories listed')
      const row = await findRepository(tx, deployTo)
      if (row?.rclass !== 'local') throw badRequest('defaultDeploymentRepo: must be a local repository')
    }
  }

  async create(key: string, input: RepositoryConfigInput): Promise<RepositoryConfig> {
    if (input.rclass === 'remote') await refuseUnsafeUpstream(input.url)
    this.cache.clear()
    return this.createRow(key, input).finally(() => this.cache.clear())
  }

  /** Creates a repository within the caller's transaction (a received release bundle's). */
  async createIn(tx: Tx, key: string, input: RepositoryConfigInput): Promise<RepositoryConfig> {
    this.cache.clear()
    return this.insertIn(tx, key, input)
  }

  private async createRow(key: string, input: RepositoryConfigInput): Promise<RepositoryConfig> {
    return this.db.transaction().execute((tx) => this.insertIn(tx, key, input))
  }

  /** Inserts a repository within the caller's transaction (409 when its key is taken, in any case). */
  private async insertIn(tx: Tx, key: string, input: RepositoryConfigInput): Promise<RepositoryConfig> {
    if (input.key && input.key !== key) throw badRequest('key: does not match the key in the path')
    if (input.rclass === 'remote' && !input.url) throw badRequest('url: a remote repository needs the URL of its upstream')
    const now = Date.now()
    {
      const existing = await tx
        .selectFrom('repositories')
        .select('key')
        .where((eb) => eb(eb.fn('lower', ['key']), '=', key.toLowerCase()))
        .executeTakeFirst()
      if (existing) throw conflict(`Repository ${existing.key} already exists`)
      const members = input.rclass === 'virtual' ? (input.repositories ?? []) : []
      const deployTo = input.rclass === 'virtual' ? input.defaultDeploymentRepo || null : null
      if (input.rclass === 'virtual') await this.checkVirtual(tx, key, input.packageType, members, deployTo)
      const remote = input.rclass === 'remote'
      await tx
        .insertInto('repositories')
        .values({
          key,
          rclass: input.rclass,
          package_type: input.packageType,
          description: input.description ?? '',
          notes: input.notes ?? '',
          includes_pattern: input.includesPattern || '**/*',
          excludes_pattern: input.excludesPattern ?? '',
          url: remote ? (input.url?.replace(/\/+$/, '') ?? null) : null,
          username: remote ? input.username || null : null,
          password_sealed: remote && input.password ? this.secrets.seal(input.password) : null,
          offline: remote && input.offline ? 1 : 0,
          metadata_cache_secs: input.retrievalCachePeriodSecs ?? 600,
          missed_cache_secs: input.missedRetrievalCachePeriodSecs ?? 1800,
          artifact_cache_secs: (input.unusedArtifactsCleanupPeriodHours ?? 0) * 3600,
          default_deployment_repo: deployTo,
          created_at: now,
          updated_at: now,
        })
        .execute()
      await setMembers(tx, key, members)
      const row = await findRepository(tx, key)
      return this.toConfigIn(tx, row as RepositoryRow)
    }
  }

  private async toConfigIn(tx: Tx, row: RepositoryRow): Promise<RepositoryConfig> {
    return this.toConfig(row, tx)
  }

  async update(key: string, input: RepositoryConfigUpdate): Promise<RepositoryConfig> {
    await refuseUnsafeUpstream(input.url)
    this.cache.clear()
    return this.updateRow(key, input).finally(() => this.cache.clear())
  }

  private async updateRow(key: string, input: RepositoryConfigUpdate): Promise<RepositoryConfig> {
    return this.db.transaction().execute(async (tx) => {
      const row = await findRepository(tx, key)
      if (!row) throw notFound(`Repository ${key} does not exist`)
      if (input.key !== undefined && input.key !== key) throw badRequest('key: a repository cannot be renamed')
      if (input.rclass !== undefined && input.rclass !== row.rclass)
        throw badRequest('rclass: the class of a repository cannot change')
      if (input.packageType !== undefined && input.packageType !== row.package_type) {
        throw badRequest('packageType: the package type of a repository cannot change')
      }
      const remote = row.rclass === 'remote'
      const patch: Partial<RepositoryRow> = { updated_at: Date.now() }
      if (input.description !== undefined) patch.description = input.description
      if (input.notes !== undefined) patch.notes = input.notes
      if (input.includesPattern !== undefined) patch.includes_pattern = input.includesPattern || '**/*'
      if (input.excludesPattern !== undefined) patch.excludes_pattern = input.excludesPattern
      if (remote) {
        if (input.url !== undefined) patch.url = input.url.replace(/\/+$/, '')
        if (input.username !== undefined) patch.username = input.username || null
        // An absent password keeps the stored one; an empty one clears it.
        if (input.password !== undefined) patch.password_sealed = input.password ? this.secrets.seal(input.password) : null
        if (input.offline !== undefined) patch.offline = input.offline ? 1 : 0
        if (input.retrievalCachePeriodSecs !== undefined) patch.metadata_cache_secs = input.retrievalCachePeriodSecs
        if (input.missedRetrievalCachePeriodSecs !== undefined) patch.missed_cache_secs = input.missedRetrievalCachePeriodSecs
        if (input.unusedArtifactsCleanupPeriodHours !== undefined) {
          patch.artifact_cache_secs = input.unusedArtifactsCleanupPeriodHours * 3600
        }
      }
      if (row.rclass === 'virtual') {
        const members = input.repositories ?? (await listMembers(tx, key))
        const deployTo =
          input.defaultDeploymentRepo !== undefined ? input.defaultDeploymentRepo || null : row.default_deployment_repo
        await this.checkVirtual(tx, key, row.package_type, members, deployTo)
        patch.default_deployment_repo = deployTo
        if (input.repositories) await setMembers(tx, key, members)
      }
      await tx.updateTable('repositories').set(patch).where('key', '=', key).execute()
      return this.toConfigIn(tx, (await findRepository(tx, key)) as RepositoryRow)
    })
  }

  /** Deletes a repository with its files and versions; their blobs are freed by the GC. */
  async remove(key: string): Promise<void> {
    this.cache.clear()
    return this.removeRow(key).finally(() => this.cache.clear())
  }

  private async removeRow(key: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const row = await findRepository(tx, key)
      if (!row) throw notFound(`Repository ${key} does not exist`)
      for (const v of await virtualsContaining(tx, key)) {
        await tx
          .updateTable('repositories')
          .set({ default_deployment_repo: null })
          .where('key', '=', v)
          .where('default_deployment_repo', '=', key)
          .execute()
      }
      await tx
        .deleteFrom('repository_members')
        .where((eb) => eb.or([eb('member_key', '=', key), eb('virtual_key', '=', key)]))
        .execute()
      const held = await tx
        .selectFrom('release_bundle_files as f')
        .innerJoin('release_bundles as b', 'b.id', 'f.bundle_id')
        .select(['b.name', 'b.version'])
        .where('f.repo_key', '=', key)
        .where('b.state', '=', 'signed')
        .limit(1)
        .executeTakeFirst()
      if (held) {
        throw conflict(
          `${key} holds files of release bundle ${held.name} ${held.version}: delete the bundle before the repository`,
        )
      }
      await tx.deleteFrom('files').where('repo_key', '=', key).execute()
      await tx.deleteFrom('dist_tags').where('repo_key', '=', key).execute()
      await tx.deleteFrom('package_versions').where('repo_key', '=', key).execute()
      await tx.deleteFrom('remote_cache').where('repo_key', '=', key).execute()
      await tx.deleteFrom('repositories').where('key', '=', key).execute()
      // Packages left without any version anywhere go too.
      await tx
        .deleteFrom('packages')
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('package_versions').select('id').whereRef('package_versions.package_id', '=', 'packages.id'))),
        )
        .execute()
    })
    packagesChanged()
  }

  /** Creates the sample repositories of a package type (those not there yet). */
  /**
   * Quick setup (shell §2.6): for each package type its local, remote and virtual sample
   * repositories (SAMPLE_REPOSITORIES; the remote proxies DEFAULT_UPSTREAMS unless told otherwise,
   * the virtual holds both and deploys to the local), in one transaction. A sample name that is
   * taken refuses the whole batch (409 naming every clash) and nothing is made.
   */
  async quickSetup(
    packageTypes: PackageType[],
    upstreams: Partial<Record<PackageType, string>> = {},
  ): Promise<QuickSetupResponse> {
    const types = [...new Set(packageTypes)]
    for (const type of types) await refuseUnsafeUpstream(upstreams[type])
    const made: QuickSetupResponse['repositories'] = []
    this.cache.clear()
    try {
      await this.db.transaction().execute(async (tx) => {
        const wanted = types.flatMap((t) =>
          SAMPLE_REPOSITORIES[t].filter((s) => s.rclass !== 'remote' || upstreams[t] || DEFAULT_UPSTREAMS[t]),
        )
        const taken = await tx
          .selectFrom('repositories')
          .select('key')
          .where((eb) =>
            eb(
              eb.fn('lower', ['key']),
              'in',
              wanted.map((w) => w.key.toLowerCase()),
            ),
          )
          .execute()
        if (taken.length > 0) {
          const names = taken.map((t) => t.key).sort()
          throw conflict(`Nothing was created: ${names.join(', ')} already exist${names.length === 1 ? 's' : ''}`)
        }
        for (const packageType of types) {
          const samples = wanted.filter((w) => SAMPLE_REPOSITORIES[packageType].includes(w))
          const local = samples.find((s) => s.rclass === 'local')?.key
          const remote = samples.find((s) => s.rclass === 'remote')?.key
          for (const sample of samples) {
            await this.insertIn(tx, sample.key, {
              rclass: sample.rclass,
              packageType,
              url: sample.rclass === 'remote' ? (upstreams[packageType] ?? DEFAULT_UPSTREAMS[packageType]) : undefined,
              repositories: sample.rclass === 'virtual' ? [local, remote].filter((k): k is string => !!k) : undefined,
              defaultDeploymentRepo: sample.rclass === 'virtual' ? local : undefined,
            } as RepositoryConfigInput)
            made.push({ key: sample.key, rclass: sample.rclass, packageType })
          }
        }
      })
    } finally {
      this.cache.clear()
    }
    packagesChanged()
    return { repositories: made }
  }

  async quickCreate(packageType: PackageType, upstream: string | undefined): Promise<QuickCreateResponse> {
    const created: string[] = []
    const existing: string[] = []
    const samples = SAMPLE_REPOSITORIES[packageType]
    for (const sample of samples) {
      if (await findRepository(this.db, sample.key)) {
        existing.push(sample.key)
        continue
      }
      if (sample.rclass === 'remote' && !upstream) continue
      const members = samples.filter((s) => s.rclass !== 'virtual').map((s) => s.key)
      await this.create(sample.key, {
        rclass: sample.rclass,
        packageType,
        url: sample.rclass === 'remote' ? upstream : undefined,
        repositories:
          sample.rclass === 'virtual'
            ? (await Promise.all(members.map(async (m) => ((await findRepository(this.db, m)) ? m : null)))).filter(
                (m): m is string => m !== null,
              )
            : undefined,
        defaultDeploymentRepo: sample.rclass === 'virtual' && members[0] ? members[0] : undefined,
      })
      created.push(sample.key)
    }
    return { created, existing }
  }
}
