import { Readable } from 'node:stream'
import type { BlobInfo } from '../../core/blobStore.js'
import { HttpError } from '../../core/errors.js'
import { packagesChanged } from '../../storage/answerCache.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import type { FormatContext } from '../kit/types.js'
import { rememberUpstream, upstreamDocument, upstreamHeaders } from '../kit/upstream.js'
import { fetchOnce, RefusedUpstream, upstreamFetch } from '../kit/upstreamFetch.js'
import {
  type CrateFacts,
  canonicalName,
  checkCrate,
  crateFilePath,
  type IndexEntry,
  indexEntryOf,
  indexPath,
  type PublishMetadata,
  readCrate,
} from './crate.js'

const TYPE = 'cargo'

/** What `package_versions.metadata` keeps for a crate version: its index line (yanked included). */
export interface CargoVersionMetadata {
  entry: IndexEntry
}

const SCOPES: Record<string, string> = { normal: 'runtime', dev: 'dev', build: 'build' }

/** Cargo registries over Trove's repositories: publishing, index files, archives, yanking, remote caching. */
export class CargoRepository {
  constructor(private readonly fctx: FormatContext) {}

  /** Publishes a version from `cargo publish`'s metadata and archive into a local repository. */
  async publish(repo: Repository, metadata: PublishMetadata, crate: Buffer, user: string | null): Promise<IndexEntry> {
    const { name, vers } = metadata
    checkCrate(name, vers)
    const facts = await readCrate(crate, name, vers, this.fctx.config.repositories.archiveMaxExpandedBytes)
    // crates.io keeps names unique regardless of case and of - against _.
    const taken = await this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select('p.name')
      .where('v.repo_key', '=', repo.key)
      .where('p.package_type', '=', TYPE)
      .where((eb) => eb(eb.fn('replace', ['p.lowercase_name', eb.val('-'), eb.val('_')]), '=', canonicalName(name)))
      .executeTakeFirst()
    if (taken && taken.name !== name) {
      throw new HttpError(
        400,
        `A crate named ${JSON.stringify(taken.name)} already exists in ${repo.key}: publish under that name`,
      )
    }
    const existing = await this.fctx.artifacts.findVersion(repo.key, TYPE, name, vers)
    if (existing) throw new HttpError(409, `crate version \`${name}@${vers}\` already exists in ${repo.key}`)
    const blob = await this.fctx.blobs.put(crate)
    const entry = indexEntryOf(metadata, blob.sha256)
    try {
      await this.record(repo.key, entry, { ...facts, ...fromPublish(metadata, facts) }, blob, user)
    } catch (error) {
      if (error instanceof HttpError && error.status === 409) {
        throw new HttpError(409, `crate version \`${name}@${vers}\` already exists in ${repo.key}`)
      }
      throw error
    }
    return entry
  }

  private async record(repoKey: string, entry: IndexEntry, facts: CrateFacts, blob: BlobInfo, user: string | null) {
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: TYPE,
      name: entry.name,
      version: entry.vers,
      description: facts.description ?? '',
      readme: facts.readme,
      licenses: facts.license ? [facts.license] : [],
      tags: facts.keywords,
      dependencies: entry.deps.map((d) => ({ name: d.package ?? d.name, range: d.req, scope: SCOPES[d.kind] ?? 'runtime' })),
      metadata: { entry } satisfies CargoVersionMetadata,
      createdBy: user,
      files: [{ path: crateFilePath(entry.name, entry.vers), blob, mimeType: 'application/gzip', lead: true }],
    })
  }

  /** A local's index lines of a crate (by its lower-cased name), oldest first. */
  private async localEntries(repoKey: string, lowerName: string): Promise<IndexEntry[]> {
    const rows = await this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.metadata'])
      .where('v.repo_key', '=', repoKey)
      .where('p.package_type', '=', TYPE)
      .where('p.lowercase_name', '=', lowerName)
      .orderBy('v.created_at')
      .orderBy('v.id')
      .execute()
    return rows.map((r) => (JSON.parse(r.metadata) as CargoVersionMetadata).entry).filter((e) => e?.vers)
  }

  /**
   * An index file's lines: a local's versions, a remote's upstream file as it came (nothing in a
   * line is rewritten: a crate's `cksum` stands whoever serves it), a virtual's members merged
   * (the first member that holds a version wins). Undefined when no member knows the crate.
   */
  async indexLines(repo: Repository, lowerName: string, seen = new Set<string>()): Promise<string[] | undefined> {
    if (seen.has(repo.key)) return undefined
    seen.add(repo.key)
    if (repo.rclass === 'local') {
      const entries = await this.localEntries(repo.key, lowerName)
      return entries.length === 0 ? undefined : entries.map((e) => JSON.stringify(e))
    }
    if (repo.rclass === 'remote') {
      // A remote's URL is its upstream's sparse index (another Trove's …/index, or https://index.crates.io).
      const path = indexPath(lowerName)
      const doc = await upstreamDocument(this.fctx, repo, {
        path: `index/${path}`,
        url: `${(repo.url ?? '').replace(/\/+$/, '')}/${path}`,
        accept: 'text/plain, */*',
        convert: (text) => text,
      })
      return doc === undefined ? undefined : doc.split('\n').filter((l) => l.trim() !== '')
    }
    const merged: string[] = []
    const versions = new Set<string>()
    let found = false
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== TYPE) continue
      const lines = await this.indexLines(member, lowerName, seen)
      if (!lines) continue
      found = true
      for (const line of lines) {
        const vers = versionOf(line)
        if (vers === undefined || versions.has(vers)) continue
        versions.add(vers)
        merged.push(line)
      }
    }
    return found ? merged : undefined
  }

  /**
   * A version's archive: a local's own, a remote's (fetched from the upstream's `dl` on a miss and
   * recorded, so the packages browser shows it), a virtual's first member's that lists the version.
   */
  async crate(repo: Repository, name: string, version: string, seen = new Set<string>()): Promise<FileRow | undefined> {
    checkCrate(name, version)
    if (seen.has(repo.key)) return undefined
    seen.add(repo.key)
    if (repo.rclass === 'virtual') {
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        const found = member?.packageType === TYPE ? await this.crate(member, name, version, seen) : undefined
        if (found) return found
      }
      return undefined
    }
    const path = crateFilePath(name, version)
    const stored = await this.fctx.artifacts.servedFile(repo.key, path)
    if (stored || repo.rclass === 'local' || repo.offline) return stored
    const line = (await this.indexLines(repo, name.toLowerCase()))?.find((l) => versionOf(l) === version)
    if (!line) return undefined
    const entry = JSON.parse(line) as IndexEntry
    if (entry.name !== name) return undefined
    return fetchOnce(`cargo\0${repo.key}\0${path}`, () => this.fetchCrate(repo, entry))
  }

  private async fetchCrate(repo: Repository, entry: IndexEntry): Promise<FileRow | undefined> {
    const url = await this.upstreamDownloadUrl(repo, entry)
    let response: Response
    try {
      response = await upstreamFetch(repo.key, url, {
        headers: upstreamHeaders(this.fctx, repo),
        signal: AbortSignal.timeout(300_000),
      })
    } catch (error) {
      if (error instanceof RefusedUpstream) throw error
      throw new HttpError(502, `The upstream of ${repo.key} could not be reached for ${entry.name} ${entry.vers}`)
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel()
      if (response.status === 404 || response.status === 410) {
        await rememberUpstream(this.fctx, repo.key, crateFilePath(entry.name, entry.vers), null)
        return undefined
      }
      throw new HttpError(502, `The upstream of ${repo.key} answered ${response.status} for ${entry.name} ${entry.vers}`)
    }
    const blob = await this.fctx.blobs.put(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream))
    if (entry.cksum && blob.sha256 !== entry.cksum) {
      throw new HttpError(
        502,
        `The upstream of ${repo.key} sent ${entry.name} ${entry.vers} with another checksum than its index`,
      )
    }
    try {
      const facts = await readCrate(
        await this.fctx.blobs.localFile(blob.sha256),
        entry.name,
        entry.vers,
        this.fctx.config.repositories.archiveMaxExpandedBytes,
      )
      await this.record(repo.key, { ...entry, yanked: false }, facts, blob, null)
    } catch (error) {
      // Another request recorded it first, or the upstream's archive is not one Trove reads.
      if (!(error instanceof HttpError)) throw error
      if (error.status !== 409)
        throw new HttpError(502, `The upstream of ${repo.key} sent a crate Trove cannot read: ${error.message}`)
    }
    return this.fctx.artifacts.findFile(repo.key, crateFilePath(entry.name, entry.vers))
  }

  /** The upstream's `dl` template (from its config.json) filled in for a version, as Cargo fills it. */
  private async upstreamDownloadUrl(repo: Repository, entry: IndexEntry): Promise<string> {
    const base = (repo.url ?? '').replace(/\/+$/, '')
    const doc = await upstreamDocument(this.fctx, repo, {
      path: 'index/config.json',
      url: `${base}/config.json`,
      accept: 'application/json',
      convert: (text) => {
        try {
          const dl = (JSON.parse(text) as { dl?: unknown }).dl
          if (typeof dl === 'string') return JSON.stringify({ dl })
        } catch {}
        throw new HttpError(502, `The upstream of ${repo.key} answered a config.json without dl`)
      },
    })
    if (!doc) throw new HttpError(502, `The upstream of ${repo.key} has no index/config.json`)
    const dl = (JSON.parse(doc) as { dl: string }).dl
    const lower = entry.name.toLowerCase()
    const prefix = indexPath(lower).split('/').slice(0, -1).join('/')
    const markers: Record<string, string> = {
      '{crate}': entry.name,
      '{version}': entry.vers,
      '{prefix}': prefix,
      '{lowerprefix}': prefix.toLowerCase(),
      '{sha256-checksum}': entry.cksum,
    }
    if (!Object.keys(markers).some((m) => dl.includes(m))) return `${dl}/${entry.name}/${entry.vers}/download`
    return dl.replace(/\{(crate|version|prefix|lowerprefix|sha256-checksum)\}/g, (m) => markers[m] as string)
  }

  /** Yanks or unyanks a version of a local repository: its index line says so; nothing is deleted. */
  async setYanked(repo: Repository, name: string, version: string, yanked: boolean): Promise<void> {
    checkCrate(name, version)
    const row = await this.fctx.artifacts.findVersion(repo.key, TYPE, name, version)
    if (!row) throw new HttpError(404, `crate \`${name}@${version}\` does not exist in ${repo.key}`)
    const metadata = JSON.parse(row.metadata) as CargoVersionMetadata
    metadata.entry.yanked = yanked
    await this.fctx.db.kysely
      .updateTable('package_versions')
      .set({ metadata: JSON.stringify(metadata), modified_at: Date.now() })
      .where('id', '=', row.id)
      .execute()
    packagesChanged()
  }

  /** Who published a crate in a repository (its first version's publisher): Cargo's owners. */
  async owners(repo: Repository, name: string): Promise<string[] | undefined> {
    const rows = await this.fctx.db.kysely
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['v.created_by'])
      .where('v.repo_key', '=', repo.key)
      .where('p.package_type', '=', TYPE)
      .where('p.name', '=', name)
      .orderBy('v.created_at')
      .execute()
    if (rows.length === 0) return undefined
    return [...new Set(rows.map((r) => r.created_by).filter((u): u is string => !!u))]
  }
}

/** A line's `vers`; undefined for a line that is not an index entry. */
function versionOf(line: string): string | undefined {
  try {
    const vers = (JSON.parse(line) as { vers?: unknown }).vers
    return typeof vers === 'string' ? vers : undefined
  } catch {
    return undefined
  }
}

/** What the publish metadata says over what the archive's Cargo.toml does. */
function fromPublish(m: PublishMetadata, facts: CrateFacts): CrateFacts {
  return {
    description: m.description ?? facts.description,
    license: m.license ?? facts.license,
    keywords: Array.isArray(m.keywords) && m.keywords.length > 0 ? m.keywords : facts.keywords,
    readme: m.readme ?? facts.readme,
  }
}
