import type { Readable } from 'node:stream'
import semver from 'semver'
import YAML from 'yaml'
import { HttpError } from '../../core/errors.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { resolveFile } from '../kit/files.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument } from '../kit/upstream.js'
import { type ChartMetadata, chartFileName, readChart } from './chart.js'

/** One chart version in `index.yaml`: its Chart.yaml fields, where to get it, its digest and when it came. */
export interface IndexEntry extends ChartMetadata {
  urls: string[]
  digest?: string
  created?: string
}

type Entries = Record<string, IndexEntry[]>

/** What a version's `metadata` column keeps: the chart's own fields. */
interface HelmVersionMetadata {
  chart: ChartMetadata
}

const byVersionDesc = (a: IndexEntry, b: IndexEntry) =>
  semver.valid(a.version) && semver.valid(b.version) ? semver.rcompare(a.version, b.version) : b.version.localeCompare(a.version)

/**
 * A chart repository's index as Helm reads it (apiVersion v1, entries newest first). `generated`
 * is when its newest chart was added, so the same charts give the same bytes (and the same ETag).
 */
export function indexYaml(entries: Entries, generated = newestCreated(entries)): string {
  const sorted = Object.fromEntries(
    Object.keys(entries)
      .sort()
      .map((name) => [name, [...(entries[name] ?? [])].sort(byVersionDesc)]),
  )
  return YAML.stringify({ apiVersion: 'v1', entries: sorted, generated: generated.toISOString() })
}

function newestCreated(entries: Entries): Date {
  let newest = 0
  for (const list of Object.values(entries))
    for (const e of list ?? []) {
      const at = typeof e.created === 'string' ? Date.parse(e.created) : Number.NaN
      if (at > newest) newest = at
    }
  return new Date(newest)
}

/** Helm chart repositories over Trove's repositories: uploads, the index, files, remote caching. */
export class HelmRepository {
  constructor(private readonly fctx: FormatContext) {}

  /**
   * Stores an uploaded chart archive and records its version. The same archive again succeeds (a
   * retry); another one under a stored version is refused with 409. `fileName`, when the client
   * named one, must be the chart's own `<name>-<version>.tgz`.
   */
  async upload(repo: Repository, body: Readable | Buffer, user: string | null, fileName?: string): Promise<IndexEntry> {
    const blob = await this.fctx.blobs.put(body)
    const { metadata, readme, licenses } = await readChart(
      await this.fctx.blobs.localFile(blob.sha256),
      this.fctx.config.repositories.archiveMaxExpandedBytes,
    )
    const file = chartFileName(metadata.name, metadata.version)
    if (fileName !== undefined && fileName !== file) {
      throw new HttpError(400, `Refused chart: ${fileName} holds ${metadata.name} ${metadata.version}; its file name is ${file}`)
    }
    const same = async () => {
      const stored = await this.fctx.artifacts.findFile(repo.key, file)
      if (stored?.sha256 !== blob.sha256) {
        throw new HttpError(409, `Chart ${metadata.name} version ${metadata.version} already exists in ${repo.key}`)
      }
    }
    if (await this.fctx.artifacts.findVersion(repo.key, 'helm', metadata.name, metadata.version)) await same()
    else {
      try {
        await this.record(repo.key, metadata, readme, licenses, blob, user, file)
      } catch (error) {
        if (error instanceof HttpError && error.status === 409) await same()
        else throw error
      }
    }
    return { ...metadata, urls: [file], digest: blob.sha256 }
  }

  private async record(
    repoKey: string,
    metadata: ChartMetadata,
    readme: string | null,
    licenses: string[],
    blob: Awaited<ReturnType<FormatContext['blobs']['put']>>,
    user: string | null,
    file: string,
    createdAt?: number,
  ): Promise<void> {
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: 'helm',
      name: metadata.name,
      version: metadata.version,
      description: metadata.description ?? '',
      readme,
      licenses,
      tags: metadata.keywords ?? [],
      dependencies: (metadata.dependencies ?? []).map((d) => ({ name: d.name, range: d.version ?? '*', scope: 'runtime' })),
      metadata: { chart: metadata } satisfies HelmVersionMetadata,
      createdBy: user,
      createdAt,
      files: [{ path: file, blob, mimeType: 'application/gzip', lead: true }],
    })
  }

  /** The index entries of a repository: a local's versions, a remote's upstream index, a virtual's members merged. */
  async entries(repo: Repository, seen = new Set<string>()): Promise<Entries> {
    if (seen.has(repo.key)) return {}
    seen.add(repo.key)
    if (repo.rclass === 'local') return this.localEntries(repo.key)
    if (repo.rclass === 'remote') return (await this.remoteEntries(repo)) ?? {}
    const merged: Entries = {}
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== 'helm') continue
      const entries = await this.entries(member, seen)
      for (const [name, versions] of Object.entries(entries)) {
        const list = merged[name] ?? []
        // The first member that holds a version wins, as it does for the files.
        for (const v of versions) if (!list.some((e) => e.version === v.version)) list.push(v)
        merged[name] = list
      }
    }
    return merged
  }

  private async localEntries(repoKey: string): Promise<Entries> {
    const rows = await this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .innerJoin('files as f', 'f.version_id', 'v.id')
      .select(['p.name', 'v.version', 'v.metadata', 'v.created_at', 'f.path', 'f.sha256'])
      .where('v.repo_key', '=', repoKey)
      .where('p.package_type', '=', 'helm')
      .where('f.lead', '=', 1)
      .execute()
    const entries: Entries = {}
    for (const row of rows) {
      const { chart } = JSON.parse(row.metadata) as HelmVersionMetadata
      const list = entries[row.name] ?? []
      list.push({ ...chart, urls: [row.path], digest: row.sha256, created: new Date(row.created_at).toISOString() })
      entries[row.name] = list
    }
    return entries
  }

  /**
   * A remote's upstream index, kept for the metadata cache lifetime. Chart URLs under the
   * upstream's own URL become paths in the remote (served and cached by it); others stay absolute.
   */
  private async remoteEntries(repo: Repository): Promise<Entries | undefined> {
    const base = `${(repo.url ?? '').replace(/\/+$/, '')}/`
    const doc = await upstreamDocument(this.fctx, repo, {
      path: 'index.yaml',
      url: `${base}index.yaml`,
      accept: 'application/x-yaml, text/yaml, */*',
      convert: (text) => {
        let parsed: unknown
        try {
          parsed = YAML.parse(text, { maxAliasCount: 100 })
        } catch {
          throw new HttpError(502, `The upstream of ${repo.key} answered an index.yaml that is not YAML`)
        }
        const entries = (parsed as { entries?: unknown } | null)?.entries
        if (!entries || typeof entries !== 'object') {
          throw new HttpError(502, `The upstream of ${repo.key} answered an index.yaml without entries`)
        }
        const out: Entries = {}
        for (const [name, versions] of Object.entries(entries as Record<string, unknown>)) {
          if (!Array.isArray(versions)) continue
          out[name] = versions
            .filter((v): v is IndexEntry => !!v && typeof v === 'object' && typeof (v as IndexEntry).version === 'string')
            .map((v) => ({
              ...v,
              urls: (Array.isArray(v.urls) ? v.urls : []).map((u) => {
                const absolute = URL.canParse(u, base) ? new URL(u, base).href : u
                return absolute.startsWith(base) ? absolute.slice(base.length) : absolute
              }),
            }))
        }
        return JSON.stringify(out)
      },
    })
    return doc === undefined ? undefined : (JSON.parse(doc) as Entries)
  }

  /**
   * A chart file by its path in the repository: a local's own, a remote's (fetched and recorded on
   * a miss, so it shows in the packages browser), a virtual's first member's.
   */
  async file(repo: Repository, path: string): Promise<FileRow | undefined> {
    if (repo.rclass === 'virtual') {
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        const found = member && member.packageType === 'helm' ? await this.file(member, path) : undefined
        if (found) return found
      }
      return undefined
    }
    const cached = repo.rclass === 'remote' ? await this.fctx.artifacts.findFile(repo.key, path) : undefined
    const file = await resolveFile(this.fctx, repo, path)
    if (repo.rclass === 'remote' && file && !cached && file.version_id === null && path.endsWith('.tgz')) {
      // A chart the remote just fetched: record its version, as an upload would.
      try {
        const chart = await readChart(
          await this.fctx.blobs.localFile(file.sha256),
          this.fctx.config.repositories.archiveMaxExpandedBytes,
        )
        const blob = { sha256: file.sha256, sha1: file.sha1, md5: file.md5, size: file.size }
        await this.record(repo.key, chart.metadata, chart.readme, chart.licenses, blob, null, path)
      } catch (error) {
        // Another request recorded it first, or the upstream's file is not a chart Trove reads.
        if (!(error instanceof HttpError)) throw error
      }
      return this.fctx.artifacts.findFile(repo.key, path)
    }
    return file
  }
}
