import {
  PACKAGES_PAGE_MAX,
  PACKAGES_PAGE_SIZE,
  type PackageFilter,
  type PackageNode,
  type PackageOrder,
  packageIdOf,
  splitPackageId,
  splitVersionId,
  type VersionFilter,
  type VersionNode,
  type VersionOrder,
  versionIdOf,
} from '@trove/contracts/packages'
import { type License, SECURITY_LICENSES } from '@trove/contracts/shell'
import type { Principal } from '../../core/access.js'
import type { AppContext } from '../../core/context.js'
import type { Db } from '../../core/db.js'
import { badRequest, notFound } from '../../core/errors.js'
import { licenseAt, readStoredLicense } from '../../core/instance.js'
import { AnswerCache } from '../../storage/answerCache.js'
import { latestVersionCounts, mergeCounts, SCAN_SEVERITIES, scanStates } from '../scanner/index.js'
import {
  type CursorValue,
  countPackages,
  decodeCursor,
  distTags,
  encodeCursor,
  filesOfVersions,
  findPackage,
  latestLicenses,
  listPackages,
  listVersionNames,
  PACKAGE_SORT,
  type PackageQuery,
  type PackageRow,
  type PackageSortField,
  packageVisible,
  parseDate,
  parseList,
  type Readable,
  tagsOf,
  VERSION_SORT,
  type VersionQuery,
  type VersionRow,
  type VersionSortField,
  versionRows,
  versionSummaries,
} from './repo.js'
import { searchText } from './textSearch.js'

/** Type names other tools use for Trove's package types (packages §3 "Package types"). */
const TYPE_ALIASES: Record<string, string> = { gav: 'maven', python: 'pypi', oci: 'docker' }
const normalizeType = (t: string) => {
  const lower = t.trim().toLowerCase()
  return TYPE_ALIASES[lower] ?? lower
}

/** What a request may see: the readable repositories and the fields its licence allows. */
export interface Viewer {
  principal: Principal | null
  readable: Readable
  licenses: boolean
  operationalRisk: boolean
}

/** Which optional parts a query asked for, so none is fetched in vain. */
export interface Wanted {
  versionsCount?: boolean
  latestVersion?: boolean
  tags?: boolean
  licenses?: boolean
  files?: boolean
  totalCount?: boolean
}

export interface Page<T> {
  edges: { node: T; cursor: string }[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
  totalCount?: number
}

const iso = (ms: number) => new Date(Number(ms)).toISOString()

function pageSize(first: number | null | undefined): number {
  if (first === undefined || first === null) return PACKAGES_PAGE_SIZE
  if (!Number.isInteger(first) || first < 1 || first > PACKAGES_PAGE_MAX) {
    throw badRequest(`first: expected a whole number from 1 to ${PACKAGES_PAGE_MAX}`)
  }
  return first
}

/**
 * What every caller's view is made of besides the caller: the stored licence and the keys of the
 * repositories that hold versions. Read once and kept until this node writes settings or
 * repositories; a change made on another node is seen after `ttlMs`, as soon as the answers
 * cached from it expire. A TTL of 0 reads them on every call.
 */
export class ViewerFacts {
  private value: Promise<{ license: License; repoKeys: string[] }> | undefined
  private at = 0

  constructor(
    private readonly db: Db,
    private readonly ttlMs: number,
  ) {
    db.writes.on((tables) => {
      if (tables.has('*') || tables.has('settings') || tables.has('repositories')) this.value = undefined
    })
  }

  get(now = Date.now()): Promise<{ license: License; repoKeys: string[] }> {
    if (this.value && now - this.at < this.ttlMs) return this.value
    const value = this.read()
    this.at = now
    this.value = value
    // A failure is not kept.
    value.catch(() => {
      if (this.value === value) this.value = undefined
    })
    return value
  }

  private async read() {
    const kysely = this.db.kysely
    const [license, repos] = await Promise.all([
      readStoredLicense(kysely),
      kysely.selectFrom('repositories').select('key').where('rclass', '!=', 'virtual').execute(),
    ])
    return { license, repoKeys: repos.map((r) => r.key) }
  }
}

export class PackagesService {
  private readonly cache: AnswerCache

  private readonly facts: ViewerFacts

  constructor(private readonly ctx: AppContext) {
    this.cache = new AnswerCache(ctx.config.repositories.packagesCacheMs)
    this.facts = new ViewerFacts(ctx.db, ctx.config.repositories.packagesCacheMs)
  }

  /** Answers depend on the arguments, the fields asked for and what the caller may see. */
  private cached<T>(op: string, viewer: Viewer, args: unknown, wanted: Wanted, compute: () => Promise<T>): Promise<T> {
    const key = JSON.stringify([op, args, wanted, viewer.readable, viewer.licenses, viewer.operationalRisk])
    return this.cache.get(key, compute)
  }

  private get db() {
    return this.ctx.db.kysely
  }

  /** The repositories a caller may read (null: all) and the licence's gates on fields. */
  async viewer(principal: Principal | null): Promise<Viewer> {
    const facts = await this.facts.get()
    const license = licenseAt(facts.license)
    const base = { principal, licenses: SECURITY_LICENSES.includes(license.type), operationalRisk: false }
    if (principal?.admin) return { ...base, readable: null }
    const keys = facts.repoKeys
    const readable = await this.ctx.authz.readableRepoKeys(principal, keys)
    return { ...base, readable: readable.length === keys.length ? null : readable }
  }

  private repos(viewer: Viewer, asked: string[] | undefined | null): Readable {
    if (!asked || asked.length === 0) return viewer.readable
    if (viewer.readable === null) return asked
    const readable = new Set(viewer.readable)
    return asked.filter((k) => readable.has(k))
  }

  packages(
    viewer: Viewer,
    args: { filter?: PackageFilter | null; first?: number | null; after?: string | null; orderBy?: PackageOrder | null },
    wanted: Wanted,
  ): Promise<Page<PackageNode>> {
    return this.cached('packages', viewer, args, wanted, () => this.packagesNow(viewer, args, wanted))
  }

  private async packagesNow(
    viewer: Viewer,
    args: { filter?: PackageFilter | null; first?: number | null; after?: string | null; orderBy?: PackageOrder | null },
    wanted: Wanted,
  ): Promise<Page<PackageNode>> {
    const f = args.filter ?? {}
    const types = [
      ...(f.package_type && f.package_type !== '*' ? [f.package_type] : []),
      ...(f.packageTypeIn ?? []).filter((t) => t !== '*'),
    ].map(normalizeType)
    const q: PackageQuery = {
      types: types.length > 0 ? types : undefined,
      name: f.name ?? undefined,
      lowercaseName: f.lowercase_name?.toLowerCase() ?? undefined,
      description: f.description ?? undefined,
      tags: f.tags ?? undefined,
      scope: f.scope ?? undefined,
      text: f.search ? searchText(f.search) || undefined : undefined,
      repos: this.repos(viewer, f.repositories),
      before: f.before ? parseDate(f.before, 'filter.before') : undefined,
      after: f.after ? parseDate(f.after, 'filter.after') : undefined,
      versionCountMin: f.versionCountMin ?? undefined,
    }
    // A free-text search is ranked unless another order is asked for.
    const field = (args.orderBy?.field ?? (q.text ? 'RELEVANCE' : 'NAME')) as PackageSortField
    if (field !== 'RELEVANCE' && !PACKAGE_SORT[field]) {
      throw badRequest(`orderBy.field: one of ${[...Object.keys(PACKAGE_SORT), 'RELEVANCE'].join(', ')}`)
    }
    const sort = { field, desc: args.orderBy?.direction === 'DESC' }
    const first = pageSize(args.first)
    const cursorShape: ('string' | 'number')[] =
      field === 'RELEVANCE' ? ['number', 'string', 'number'] : [PACKAGE_SORT[field].type, 'number']
    const after = args.after ? decodeCursor(args.after, cursorShape) : null
    const db = this.db
    const rows = await listPackages(db, this.ctx.db.dialect, q, sort, first + 1, after)
    const hasNextPage = rows.length > first
    const page = rows.slice(0, first)
    const nodes = await this.packageNodes(viewer, page, wanted)
    const cursorOf = (r: PackageRow) =>
      field === 'RELEVANCE'
        ? encodeCursor([Number(r.rank ?? 0), r.lowercase_name, Number(r.id)])
        : encodeCursor([field === 'NAME' ? r.lowercase_name : Number(sortValue(r, field)), Number(r.id)])
    const edges = page.map((r, i) => ({ node: nodes[i] as PackageNode, cursor: cursorOf(r) }))
    return {
      edges,
      pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null },
      totalCount: wanted.totalCount ? await countPackages(db, this.ctx.db.dialect, q) : undefined,
    }
  }

  /** One package by its id (`<type>://<name>`), or null when unknown or not readable. */
  package(viewer: Viewer, pkgid: string, wanted: Wanted): Promise<PackageNode | null> {
    return this.cached('package', viewer, pkgid, wanted, async () => {
      const row = await this.findVisible(viewer, pkgid)
      if (!row) return null
      return (await this.packageNodes(viewer, [row], wanted))[0] ?? null
    })
  }

  private async findVisible(viewer: Viewer, pkgid: string): Promise<PackageRow | null> {
    const parts = splitPackageId(pkgid)
    if (!parts) return null
    const row = await findPackage(this.db, normalizeType(parts.type), parts.name)
    if (!row || !(await packageVisible(this.db, row.id, viewer.readable))) return null
    return row
  }

  private async packageNodes(viewer: Viewer, rows: PackageRow[], wanted: Wanted): Promise<PackageNode[]> {
    const ids = rows.map((r) => Number(r.id))
    const restricted = viewer.readable !== null
    const [summaries, tags, licenses] = await Promise.all([
      wanted.versionsCount || (wanted.latestVersion && restricted)
        ? versionSummaries(this.db, ids, viewer.readable, Boolean(wanted.latestVersion && restricted))
        : undefined,
      wanted.tags ? tagsOf(this.db, ids) : undefined,
      wanted.licenses && viewer.licenses ? latestLicenses(this.db, ids) : undefined,
    ])
    const latestScans = await latestVersionCounts(this.db, ids, viewer.readable)
    return rows.map((r) => {
      const id = Number(r.id)
      const summary = summaries?.get(id)
      return {
        id: packageIdOf(r.package_type, r.name),
        name: r.name,
        packageType: r.package_type,
        created: iso(r.created_at),
        modified: iso(r.modified_at),
        versionsCount: summary?.count ?? 0,
        description: r.description,
        latestVersion: restricted ? (summary?.latest ?? null) : r.latest_version,
        stats: { downloads: Number(r.downloads), followers: 0 },
        licenses: licenses ? (licenses.get(id) ?? []).map((name) => ({ name, source: 'declared' })) : null,
        tags: tags?.get(id) ?? [],
        vulnerabilities: latestScans.get(id) ?? null,
        operationalRisk: null,
      }
    })
  }

  versions(
    viewer: Viewer,
    args: { filter: VersionFilter; first?: number | null; after?: string | null; orderBy?: VersionOrder | null },
    wanted: Wanted,
  ): Promise<Page<VersionNode>> {
    return this.cached('versions', viewer, args, wanted, () => this.versionsNow(viewer, args, wanted))
  }

  private async versionsNow(
    viewer: Viewer,
    args: { filter: VersionFilter; first?: number | null; after?: string | null; orderBy?: VersionOrder | null },
    wanted: Wanted,
  ): Promise<Page<VersionNode>> {
    const f = args.filter
    const field = (args.orderBy?.field ?? 'NAME_SEMVER') as VersionSortField
    if (!VERSION_SORT[field]) throw badRequest(`orderBy.field: one of ${Object.keys(VERSION_SORT).join(', ')}`)
    const sort = { field, desc: (args.orderBy?.direction ?? 'DESC') === 'DESC' }
    const first = pageSize(args.first)
    const after = args.after ? decodeCursor(args.after, [VERSION_SORT[field].type, 'string']) : null
    const empty: Page<VersionNode> = { edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 }
    const pkg = await this.findVisible(viewer, f.packageId)
    if (!pkg) return empty
    const severities = (f.severities ?? []).map((s) => s.toLowerCase()).map((s) => (s === 'moderate' ? 'medium' : s))
    const unknownSeverity = severities.find((s) => !SCAN_SEVERITIES.includes(s as never))
    if (unknownSeverity) throw badRequest(`filter.severities: unknown severity ${unknownSeverity}`)
    const q: VersionQuery = {
      pkgId: Number(pkg.id),
      repos: this.repos(viewer, f.repos),
      name: f.name ?? undefined,
      tags: f.tags ?? undefined,
      before: f.before ? parseDate(f.before, 'filter.before') : undefined,
      after: f.after ? parseDate(f.after, 'filter.after') : undefined,
      licenses: f.licenses ?? undefined,
      severities: severities as VersionQuery['severities'],
      cve: f.cve ?? undefined,
      releasesOnly: f.ignorePreRelease ?? false,
    }
    const names = await listVersionNames(this.db, this.ctx.db.dialect, q, sort, first + 1, after)
    const hasNextPage = names.length > first
    const page = names.slice(0, first)
    const nodes = await this.versionNodes(
      viewer,
      pkg,
      q.repos,
      page.map((n) => n.version),
      wanted,
    )
    const edges = page.map((n, i) => ({
      node: nodes[i] as VersionNode,
      cursor: encodeCursor([VERSION_SORT[field].type === 'number' ? Number(n.k) : String(n.k), n.version]),
    }))
    return { edges, pageInfo: { hasNextPage, endCursor: edges.at(-1)?.cursor ?? null } }
  }

  private async versionNodes(
    viewer: Viewer,
    pkg: PackageRow,
    repos: Readable,
    names: string[],
    wanted: Wanted,
  ): Promise<VersionNode[]> {
    const pkgId = Number(pkg.id)
    const pid = packageIdOf(pkg.package_type, pkg.name)
    const [rows, tags] = await Promise.all([
      versionRows(this.db, pkgId, names, repos),
      wanted.tags ? distTags(this.db, pkgId, repos) : [],
    ])
    const [files, scans] = await Promise.all([
      filesOfVersions(
        this.db,
        rows.map((r) => Number(r.id)),
      ),
      scanStates(
        this.db,
        rows.map((r) => Number(r.id)),
      ),
    ])
    const filesByVersion = new Map<number, typeof files>()
    for (const file of files) {
      const key = Number(file.version_id)
      filesByVersion.set(key, [...(filesByVersion.get(key) ?? []), file])
    }
    const byName = new Map<string, VersionRow[]>()
    for (const r of rows) byName.set(r.version, [...(byName.get(r.version) ?? []), r])
    return names.map((name) => {
      const rs = byName.get(name) ?? []
      const own = rs.map((r) => filesByVersion.get(Number(r.id)) ?? [])
      const firstFiles = own.find((list) => list.length > 0) ?? []
      return {
        id: versionIdOf(pid, name),
        name,
        created: iso(Math.min(...rs.map((r) => Number(r.created_at)))),
        modified: iso(Math.max(...rs.map((r) => Number(r.modified_at)))),
        package: { id: pid },
        repos: rs.map((r, i) => ({
          name: r.repo_key,
          type: r.rclass,
          leadFilePath: own[i]?.find((file) => file.lead)?.path ?? own[i]?.[0]?.path ?? null,
        })),
        licenses: viewer.licenses
          ? [...new Set(rs.flatMap((r) => parseList(r.licenses)))].map((l) => ({ name: l, source: 'declared' }))
          : null,
        size: Math.max(0, ...rs.map((r) => Number(r.size))),
        stats: { downloadCount: rs.reduce((sum, r) => sum + Number(r.download_count), 0) },
        vulnerabilities: mergeCounts(rs.map((r) => scans.get(Number(r.id))?.counts ?? null)),
        operationalRisk: null,
        tags: tags.filter((t) => t.version === name).map((t) => t.tag),
        files: firstFiles.map((file) => ({
          name: file.name,
          path: file.path,
          lead: Boolean(file.lead),
          size: Number(file.size),
          md5: file.md5,
          sha1: file.sha1,
          sha256: file.sha256,
          mimeType: file.mime_type,
        })),
      }
    })
  }

  /**
   * The version rows a console call names: a Version id, or `path` = `<repoKey>/<file path>` (the
   * version that file belongs to). Only readable repositories count. 404 when none.
   */
  async versionRef(
    viewer: Viewer,
    ref: { id?: string; path?: string },
  ): Promise<{ rows: VersionRow[]; file?: { id: number; repo_key: string; path: string } }> {
    if (ref.path) {
      const file = await this.fileAt(viewer, ref.path)
      if (file.version_id === null) return { rows: [], file }
      const row = await this.db
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['v.package_id', 'v.version'])
        .where('v.id', '=', file.version_id)
        .executeTakeFirst()
      if (!row) return { rows: [], file }
      const rows = (await versionRows(this.db, Number(row.package_id), [row.version], [file.repo_key])).filter(
        (r) => Number(r.id) === Number(file.version_id),
      )
      return { rows, file }
    }
    const parts = ref.id ? splitVersionId(ref.id) : null
    if (!parts) throw badRequest('id: expected a version id <type>://<name>:<version>')
    const pkg = await this.findVisible(viewer, parts.packageId)
    if (!pkg) throw notFound(`Package not found: ${parts.packageId}`)
    const rows = await versionRows(this.db, Number(pkg.id), [parts.version], viewer.readable)
    if (rows.length === 0) throw notFound(`Version not found: ${ref.id}`)
    // The most recently changed copy first.
    rows.sort((a, b) => Number(b.modified_at) - Number(a.modified_at))
    return { rows }
  }

  /** A file by `<repoKey>/<path>` in a repository the caller may read; 404 otherwise (nothing leaks). */
  async fileAt(viewer: Viewer, fullPath: string) {
    const clean = fullPath.replace(/^\/+/, '')
    const slash = clean.indexOf('/')
    if (slash <= 0) throw badRequest('path: expected <repository>/<path of the file>')
    return this.file(viewer, clean.slice(0, slash), clean.slice(slash + 1))
  }

  async file(viewer: Viewer, repoKey: string, path: string) {
    const readable = viewer.readable === null || viewer.readable.includes(repoKey)
    const file = readable
      ? await this.db
          .selectFrom('files')
          .selectAll()
          .where('repo_key', '=', repoKey)
          .where('path', '=', path.replace(/^\/+/, ''))
          .executeTakeFirst()
      : undefined
    if (!file) throw notFound(`File not found: ${repoKey}/${path}`)
    return file
  }

  async readme(viewer: Viewer, ref: { id?: string; path?: string }): Promise<string | null> {
    const { rows } = await this.versionRef(viewer, ref)
    return rows.find((r) => r.readme)?.readme ?? null
  }

  async dependencies(viewer: Viewer, ref: { id?: string; path?: string }) {
    const { rows } = await this.versionRef(viewer, ref)
    const first = rows[0]
    if (!first) return []
    return this.db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', Number(first.id))
      .orderBy('scope')
      .orderBy('name')
      .execute()
  }

  /** Properties of the file at `path`, or of the version's lead file. */
  async properties(viewer: Viewer, ref: { id?: string; path?: string }) {
    let file: { id: number; repo_key: string; path: string } | undefined
    if (ref.path) file = await this.fileAt(viewer, ref.path)
    else {
      const { rows } = await this.versionRef(viewer, ref)
      const files = await filesOfVersions(
        this.db,
        rows.map((r) => Number(r.id)),
      )
      file = files.find((f) => f.lead) ?? files[0]
    }
    if (!file) return { path: null, properties: [] }
    const rows = await this.db
      .selectFrom('file_properties')
      .select(['name', 'value'])
      .where('file_id', '=', Number(file.id))
      .orderBy('name')
      .orderBy('value')
      .execute()
    const byName = new Map<string, string[]>()
    for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r.value])
    return {
      path: `${file.repo_key}/${file.path}`,
      properties: [...byName].map(([name, values]) => ({ name, values })),
    }
  }

  async artifactCount(viewer: Viewer): Promise<number> {
    if (viewer.readable !== null && viewer.readable.length === 0) return 0
    let q = this.db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n'))
    if (viewer.readable !== null) q = q.where('repo_key', 'in', viewer.readable)
    return Number((await q.executeTakeFirstOrThrow()).n)
  }
}

function sortValue(r: PackageRow, field: PackageSortField): CursorValue {
  switch (field) {
    case 'NAME':
    case 'RELEVANCE':
      return r.lowercase_name
    case 'CREATED':
      return Number(r.created_at)
    case 'MODIFIED':
      return Number(r.modified_at)
    case 'DOWNLOADS':
      return Number(r.downloads)
  }
}
