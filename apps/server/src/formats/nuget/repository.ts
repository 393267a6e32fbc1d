import crypto from 'node:crypto'
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument, upstreamHeaders } from '../kit/upstream.js'
import { fetchOnce, RefusedUpstream, upstreamFetch } from '../kit/upstreamFetch.js'
import {
  compareVersions,
  type DependencyGroup,
  licensesOf,
  type NuGetPackage,
  type Nuspec,
  nupkgPath,
  nuspecPath,
  parseVersion,
  readNupkg,
} from './nupkg.js'

export const TYPE = 'nuget'

/** A version as the feeds list it, wherever it lives: a local's recorded one, or a remote upstream's. */
export interface NuGetEntry {
  nuspec: Nuspec
  /** When it was published (ms). */
  published: number
  /** The .nupkg's size and SHA-512 (base64), when Trove holds it ('' / 0 for an upstream's version not fetched yet). */
  size: number
  sha512: string
  downloads: number
  /** The repository that holds (or fetches) its .nupkg. */
  repoKey: string
  /** A remote's: where its upstream serves the .nupkg. */
  upstreamUrl?: string
}

/** What a version's `metadata` column keeps. */
interface NuGetVersionMetadata {
  nuspec: Nuspec
  sha512: string
}

const sha512Of = async (file: string) => {
  const hash = crypto.createHash('sha512')
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('base64')
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')
const strList = (v: unknown) =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []

/** The resources of a NuGet v3 service index a remote uses. */
interface ServiceIndex {
  packageBase: string
  registrations: string
  search: string | undefined
}

/** NuGet repositories over Trove's repositories: pushes, the versions the feeds list, .nupkg files. */
export class NuGetRepository {
  constructor(private readonly fctx: FormatContext) {}

  /**
   * Stores a pushed .nupkg and records its version (with its .nuspec beside it). The same package
   * again succeeds (a retry); other bytes under a stored version are refused with 409.
   */
  async push(repo: Repository, body: Readable | Buffer, user: string | null): Promise<Nuspec> {
    const blob = await this.fctx.blobs.put(body)
    const pkg = await readNupkg(
      await this.fctx.blobs.localFile(blob.sha256),
      this.fctx.config.repositories.archiveMaxExpandedBytes,
    )
    const { nuspec } = pkg
    const same = async () => {
      const stored = await this.fctx.artifacts.findFile(repo.key, nupkgPath(nuspec.id, nuspec.version))
      if (stored?.sha256 !== blob.sha256) {
        throw new HttpError(409, `Package ${nuspec.id} ${nuspec.version} already exists in ${repo.key}`)
      }
    }
    if (await this.findVersion(repo.key, nuspec.id, nuspec.version)) {
      await same()
      return nuspec
    }
    try {
      await this.record(repo.key, pkg, blob, user)
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) await same()
      else throw error
    }
    return nuspec
  }

  /** The package's name as first recorded: NuGet ids are case-insensitive, the first push's casing stays. */
  private async knownName(id: string): Promise<string> {
    const row = await this.fctx.db.kysely
      .selectFrom('packages')
      .select('name')
      .where('package_type', '=', TYPE)
      .where('lowercase_name', '=', id.toLowerCase())
      .executeTakeFirst()
    return row?.name ?? id
  }

  private async findVersion(repoKey: string, id: string, version: string) {
    const rows = await this.versionRows(repoKey, id)
    return rows.find((r) => r.version.toLowerCase() === version.toLowerCase())
  }

  private versionRows(repoKey: string, id?: string) {
    let query = this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .innerJoin('files as f', 'f.version_id', 'v.id')
      .select(['p.name', 'v.version', 'v.metadata', 'v.created_at', 'v.download_count', 'f.size'])
      .where('v.repo_key', '=', repoKey)
      .where('p.package_type', '=', TYPE)
      .where('f.lead', '=', 1)
    if (id !== undefined) query = query.where('p.lowercase_name', '=', id.toLowerCase())
    return query.execute()
  }

  private async record(
    repoKey: string,
    pkg: NuGetPackage,
    blob: Awaited<ReturnType<FormatContext['blobs']['put']>>,
    user: string | null,
    createdAt?: number,
    overwrite = false,
  ): Promise<void> {
    const { nuspec } = pkg
    const name = await this.knownName(nuspec.id)
    const nuspecBlob = await this.fctx.blobs.put(pkg.nuspecXml)
    const sha512 = await sha512Of(await this.fctx.blobs.localFile(blob.sha256))
    const fileBase = `${name}.${nuspec.version}`
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: TYPE,
      name,
      version: nuspec.version,
      description: nuspec.description || nuspec.summary,
      readme: pkg.readme,
      licenses: licensesOf(nuspec),
      tags: nuspec.tags,
      dependencies: nuspec.dependencyGroups.flatMap((g) =>
        g.dependencies.map((d) => ({ name: d.id, range: d.range, scope: g.targetFramework || 'any' })),
      ),
      metadata: { nuspec, sha512 } satisfies NuGetVersionMetadata,
      createdBy: user,
      createdAt,
      overwrite,
      files: [
        {
          path: nupkgPath(nuspec.id, nuspec.version),
          name: `${fileBase}.nupkg`,
          blob,
          mimeType: 'application/octet-stream',
          lead: true,
        },
        { path: nuspecPath(nuspec.id, nuspec.version), name: `${name}.nuspec`, blob: nuspecBlob, mimeType: 'application/xml' },
      ],
    })
  }

  /**
   * The versions a repository serves, of one package (any case) or, for a search, of all: a
   * local's own, a remote's upstream's (one package only), a virtual's members' (the first member
   * that has a version wins).
   */
  async entries(repo: Repository, id?: string, seen = new Set<string>()): Promise<NuGetEntry[]> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass === 'virtual') {
      const all: NuGetEntry[] = []
      const have = new Set<string>()
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        if (member?.packageType !== TYPE) continue
        for (const e of await this.entries(member, id, seen)) {
          const k = `${e.nuspec.id.toLowerCase()}\0${e.nuspec.version.toLowerCase()}`
          if (have.has(k)) continue
          have.add(k)
          all.push(e)
        }
      }
      return all
    }
    const local = (await this.versionRows(repo.key, id)).map((r): NuGetEntry => {
      const meta = JSON.parse(r.metadata) as NuGetVersionMetadata
      return {
        nuspec: { ...meta.nuspec, id: r.name },
        published: Number(r.created_at),
        size: Number(r.size),
        sha512: meta.sha512,
        downloads: Number(r.download_count),
        repoKey: repo.key,
      }
    })
    if (repo.rclass === 'local' || id === undefined) return local
    // A remote: the upstream's versions, with what the remote has cached in their place.
    const cached = new Map(local.map((e) => [e.nuspec.version.toLowerCase(), e]))
    const upstream = await this.remoteEntries(repo, id)
    const merged = upstream.map((e) => cached.get(e.nuspec.version.toLowerCase()) ?? e)
    for (const e of local)
      if (!upstream.some((u) => u.nuspec.version.toLowerCase() === e.nuspec.version.toLowerCase())) merged.push(e)
    return merged
  }

  /** Search: the newest version of each package whose id, title, description or tags hold the query. */
  async search(
    repo: Repository,
    options: { q: string; prerelease: boolean },
    seen = new Set<string>(),
  ): Promise<Map<string, NuGetEntry[]>> {
    const found = new Map<string, NuGetEntry[]>()
    if (seen.has(repo.key)) return found
    seen.add(repo.key)
    const add = (entries: NuGetEntry[]) => {
      for (const e of entries) {
        const k = e.nuspec.id.toLowerCase()
        const list = found.get(k) ?? []
        if (!list.some((x) => x.nuspec.version.toLowerCase() === e.nuspec.version.toLowerCase())) list.push(e)
        found.set(k, list)
      }
    }
    if (repo.rclass === 'virtual') {
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        if (member?.packageType !== TYPE) continue
        for (const [k, list] of await this.search(member, options, seen)) {
          if (!found.has(k)) add(list)
        }
      }
      return found
    }
    const q = options.q.trim().toLowerCase()
    const matches = (e: NuGetEntry) =>
      (options.prerelease || !parseVersion(e.nuspec.version)?.prerelease) &&
      (!q || [e.nuspec.id, e.nuspec.title, e.nuspec.description, ...e.nuspec.tags].some((s) => s.toLowerCase().includes(q)))
    if (repo.rclass === 'remote') add((await this.remoteSearch(repo, options)).filter(matches))
    else add((await this.entries(repo)).filter(matches))
    for (const list of found.values()) list.sort((a, b) => compareVersions(a.nuspec.version, b.nuspec.version))
    return found
  }

  /**
   * The .nupkg of a version: a local's file; a remote's cached copy, else fetched from its upstream,
   * checked like a push and recorded; a virtual's first member that has the version.
   */
  async nupkg(repo: Repository, id: string, version: string): Promise<FileRow | undefined> {
    const entry = (await this.entries(repo, id)).find((e) => e.nuspec.version.toLowerCase() === version.toLowerCase())
    if (!entry) return undefined
    const path = nupkgPath(id, entry.nuspec.version)
    const cached = await this.fctx.artifacts.findFile(entry.repoKey, path)
    if (cached) return cached
    const holder = await this.fctx.repos.get(entry.repoKey)
    if (holder?.rclass !== 'remote' || holder.offline) return undefined
    return fetchOnce(`nuget\0${holder.key}\0${entry.nuspec.id.toLowerCase()}\0${entry.nuspec.version.toLowerCase()}`, () =>
      this.fetchNupkg(holder, entry),
    )
  }

  /** The .nuspec of a version, as stored beside its .nupkg (a remote's fetched with it). */
  async nuspec(repo: Repository, id: string, version: string): Promise<FileRow | undefined> {
    const nupkg = await this.nupkg(repo, id, version)
    return nupkg ? this.fctx.artifacts.findFile(nupkg.repo_key, nuspecPath(id, version)) : undefined
  }

  async delete(repo: Repository, id: string, version: string): Promise<void> {
    const parsed = parseVersion(version)
    const found = parsed ? await this.findVersion(repo.key, id, parsed.normalized) : undefined
    if (!found || !(await this.fctx.artifacts.deleteVersion(repo.key, TYPE, found.name, found.version))) {
      throw new HttpError(404, `Package ${id} ${version} is not in ${repo.key}`)
    }
  }

  /**
   * Files of a repository changed outside the NuGet calls (the tree's delete, copy and move): each
   * touched version is derived again from its stored .nupkg. Without it the version goes; with it,
   * the version is recorded from it (the .nuspec beside it written anew). A package Trove would
   * refuse, or one stored under another id or version's path, records nothing.
   */
  async filesChanged(repo: Repository, paths: string[]): Promise<void> {
    const touched = new Map<string, { id: string; version: string }>()
    for (const p of paths) {
      const m = /^([^/]+)\/([^/]+)\/([^/]+)\.(nupkg|nuspec)$/.exec(p.toLowerCase())
      if (m && (m[3] === `${m[1]}.${m[2]}` || (m[4] === 'nuspec' && m[3] === m[1]))) {
        touched.set(`${m[1]}/${m[2]}`, { id: m[1] as string, version: m[2] as string })
      }
    }
    for (const { id, version } of touched.values()) {
      const recorded = await this.fctx.db.kysely
        .selectFrom('package_versions as v')
        .innerJoin('packages as p', 'p.id', 'v.package_id')
        .select(['v.id', 'p.name', 'v.version'])
        .where('v.repo_key', '=', repo.key)
        .where('p.package_type', '=', TYPE)
        .where('p.lowercase_name', '=', id)
        .execute()
      const current = recorded.find((r) => r.version.toLowerCase() === version)
      const nupkg = await this.fctx.artifacts.findFile(repo.key, nupkgPath(id, version))
      if (!nupkg) {
        if (current) await this.fctx.artifacts.deleteVersion(repo.key, TYPE, current.name, current.version)
        continue
      }
      if (current && nupkg.version_id === current.id) continue
      try {
        const pkg = await readNupkg(
          await this.fctx.blobs.localFile(nupkg.sha256),
          this.fctx.config.repositories.archiveMaxExpandedBytes,
        )
        if (nupkgPath(pkg.nuspec.id, pkg.nuspec.version) !== nupkg.path) continue
        const blob = { sha256: nupkg.sha256, sha1: nupkg.sha1, md5: nupkg.md5, size: nupkg.size }
        await this.record(repo.key, pkg, blob, nupkg.created_by, undefined, true)
      } catch (error) {
        if (!(error instanceof HttpError)) throw error
      }
    }
  }

  private async fetchNupkg(repo: Repository, entry: NuGetEntry): Promise<FileRow | undefined> {
    const { id, version } = entry.nuspec
    const index = await this.serviceIndex(repo)
    const lower = `${id.toLowerCase()}/${version.toLowerCase()}/${id.toLowerCase()}.${version.toLowerCase()}.nupkg`
    const url = entry.upstreamUrl || `${index.packageBase}${lower}`
    let response: Response
    try {
      response = await upstreamFetch(repo.key, url, {
        headers: upstreamHeaders(this.fctx, repo, 'application/octet-stream'),
        signal: AbortSignal.timeout(300_000),
      })
    } catch (error) {
      if (error instanceof RefusedUpstream) throw error
      throw new HttpError(502, `The upstream of ${repo.key} cannot be reached for ${id} ${version}`)
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel()
      if (response.status === 404) return undefined
      throw new HttpError(502, `The upstream of ${repo.key} answered ${response.status} for ${id} ${version}`)
    }
    const blob = await this.fctx.blobs.put(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream))
    let pkg: NuGetPackage
    try {
      pkg = await readNupkg(await this.fctx.blobs.localFile(blob.sha256), this.fctx.config.repositories.archiveMaxExpandedBytes)
    } catch (error) {
      throw new HttpError(502, `The upstream of ${repo.key} served a package Trove refuses: ${(error as Error).message}`)
    }
    if (pkg.nuspec.id.toLowerCase() !== id.toLowerCase() || pkg.nuspec.version.toLowerCase() !== version.toLowerCase()) {
      throw new HttpError(502, `The upstream of ${repo.key} served ${pkg.nuspec.id} ${pkg.nuspec.version} for ${id} ${version}`)
    }
    try {
      await this.record(repo.key, pkg, blob, null, entry.published)
    } catch (error) {
      // Another request recorded it first.
      if (!(error instanceof HttpError && error.status === 409)) throw error
    }
    return this.fctx.artifacts.findFile(repo.key, nupkgPath(id, version))
  }

  /** A remote's upstream service index (its URL is the index's, or the folder holding `index.json`). */
  private async serviceIndex(repo: Repository): Promise<ServiceIndex> {
    const raw = (repo.url ?? '').replace(/\/+$/, '')
    const url = raw.endsWith('.json') ? raw : `${raw}/index.json`
    const doc = await upstreamDocument(this.fctx, repo, {
      path: 'index.json',
      url,
      accept: 'application/json',
      convert: (text) => {
        try {
          const parsed = JSON.parse(text) as { resources?: unknown }
          if (Array.isArray(parsed?.resources)) return text
        } catch {}
        throw new HttpError(502, `The upstream of ${repo.key} answered a service index that is not NuGet's`)
      },
    })
    if (doc === undefined) throw new HttpError(502, `The upstream of ${repo.key} has no NuGet service index at ${url}`)
    const resources = (JSON.parse(doc) as { resources: { '@id'?: unknown; '@type'?: unknown }[] }).resources
    const find = (...types: string[]) => {
      for (const type of types) {
        const found = resources.find((r) => r && r['@type'] === type && typeof r['@id'] === 'string')
        if (found) return (found['@id'] as string).replace(/\/?$/, '/')
      }
      return undefined
    }
    const packageBase = find('PackageBaseAddress/3.0.0')
    const registrations = find('RegistrationsBaseUrl/3.6.0', 'RegistrationsBaseUrl/3.4.0', 'RegistrationsBaseUrl')
    if (!packageBase || !registrations) {
      throw new HttpError(502, `The upstream of ${repo.key} names no PackageBaseAddress or RegistrationsBaseUrl`)
    }
    return { packageBase, registrations, search: find('SearchQueryService/3.5.0', 'SearchQueryService')?.replace(/\/$/, '') }
  }

  /** A remote's upstream versions of one package, from its registration index (pages fetched when not inlined). */
  private async remoteEntries(repo: Repository, id: string): Promise<NuGetEntry[]> {
    const index = await this.serviceIndex(repo)
    const lower = id.toLowerCase()
    const json = (what: string) => (text: string) => {
      try {
        const parsed = JSON.parse(text) as unknown
        if (parsed && typeof parsed === 'object') return text
      } catch {}
      throw new HttpError(502, `The upstream of ${repo.key} answered ${what} that is not JSON`)
    }
    const doc = await upstreamDocument(this.fctx, repo, {
      path: `registration/${lower}/index.json`,
      url: `${index.registrations}${lower}/index.json`,
      accept: 'application/json',
      convert: json(`the registration of ${id}`),
    })
    if (doc === undefined) return []
    const pages = (JSON.parse(doc) as { items?: unknown }).items
    const leaves: Record<string, unknown>[] = []
    for (const [n, page] of (Array.isArray(pages) ? pages : []).entries()) {
      let items = (page as { items?: unknown })?.items
      const pageUrl = (page as { '@id'?: unknown })?.['@id']
      if (!Array.isArray(items) && typeof pageUrl === 'string') {
        const pageDoc = await upstreamDocument(this.fctx, repo, {
          path: `registration/${lower}/page-${n}.json`,
          url: pageUrl,
          accept: 'application/json',
          convert: json(`a registration page of ${id}`),
        })
        items = pageDoc === undefined ? [] : (JSON.parse(pageDoc) as { items?: unknown }).items
      }
      if (Array.isArray(items)) leaves.push(...items.filter((i): i is Record<string, unknown> => !!i && typeof i === 'object'))
    }
    return leaves.flatMap((leaf) => {
      const entry = upstreamEntry(leaf.catalogEntry, repo.key, str(leaf.packageContent))
      return entry ? [entry] : []
    })
  }

  /** A remote's upstream search (its SearchQueryService), kept for the metadata cache lifetime. */
  private async remoteSearch(repo: Repository, options: { q: string; prerelease: boolean }): Promise<NuGetEntry[]> {
    const index = await this.serviceIndex(repo)
    if (!index.search) return []
    const query = new URLSearchParams({ q: options.q, skip: '0', take: '100', prerelease: String(options.prerelease) })
    query.set('semVerLevel', '2.0.0')
    const doc = await upstreamDocument(this.fctx, repo, {
      path: `query?${query}`,
      url: `${index.search}?${query}`,
      accept: 'application/json',
      convert: (text) => {
        try {
          if (Array.isArray((JSON.parse(text) as { data?: unknown }).data)) return text
        } catch {}
        throw new HttpError(502, `The upstream of ${repo.key} answered a search that is not NuGet's`)
      },
    })
    const data = doc === undefined ? [] : ((JSON.parse(doc) as { data: unknown[] }).data ?? [])
    return data.flatMap((d) => {
      const entry = upstreamEntry(d, repo.key, '')
      return entry ? [entry] : []
    })
  }
}

/** An upstream's catalog entry (or search result) as an entry; undefined for one without a valid id and version. */
function upstreamEntry(raw: unknown, repoKey: string, packageContent: string): NuGetEntry | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const c = raw as Record<string, unknown>
  const id = str(c.id)
  const version = parseVersion(str(c.version))
  if (!id || !version) return undefined
  const groups = Array.isArray(c.dependencyGroups) ? c.dependencyGroups : []
  const dependencyGroups: DependencyGroup[] = groups.flatMap((g) => {
    if (!g || typeof g !== 'object') return []
    const deps = (g as { dependencies?: unknown }).dependencies
    return [
      {
        targetFramework: str((g as { targetFramework?: unknown }).targetFramework),
        dependencies: (Array.isArray(deps) ? deps : []).flatMap((d) =>
          d && typeof d === 'object' && str((d as { id?: unknown }).id)
            ? [{ id: str((d as { id: unknown }).id), range: str((d as { range?: unknown }).range) }]
            : [],
        ),
      },
    ]
  })
  const published = Date.parse(str(c.published))
  return {
    nuspec: {
      id,
      version: version.normalized,
      fullVersion: version.full,
      title: str(c.title),
      authors: strList(c.authors).join(', '),
      owners: strList(c.owners).join(', '),
      description: str(c.description),
      summary: str(c.summary),
      releaseNotes: str(c.releaseNotes),
      copyright: str(c.copyright),
      tags: strList(c.tags).flatMap((t) => t.split(/\s+/).filter(Boolean)),
      projectUrl: str(c.projectUrl),
      iconUrl: str(c.iconUrl),
      licenseUrl: str(c.licenseUrl),
      licenseExpression: str(c.licenseExpression),
      requireLicenseAcceptance: c.requireLicenseAcceptance === true,
      readme: '',
      dependencyGroups,
    },
    published: Number.isNaN(published) || published < 0 ? Date.now() : published,
    size: 0,
    sha512: '',
    downloads: 0,
    repoKey,
    upstreamUrl: packageContent || undefined,
  }
}
