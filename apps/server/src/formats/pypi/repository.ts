import crypto from 'node:crypto'
import { Readable } from 'node:stream'
import type { Expected } from '../../core/blobStore.js'
import { HttpError } from '../../core/errors.js'
import type { FileRow, NewFile } from '../../storage/artifacts.js'
import type { Repository } from '../../storage/service.js'
import { readTarGz, readZip } from '../kit/archive.js'
import type { FormatContext } from '../kit/types.js'
import { upstreamDocument, upstreamHeaders } from '../kit/upstream.js'
import { fetchOnce, upstreamFetch } from '../kit/upstreamFetch.js'
import {
  filetypeOf,
  normalizeName,
  type PypiVersionMetadata,
  parseCoreMetadata,
  parseFilename,
  versionFacts,
} from './metadata.js'
import { type IndexFile, JSON_V1, parseProjectPage } from './simple.js'

/** A file of a project as a repository holds it: its path under `packages/` and what the index shows. */
export interface ProjectFile extends Omit<IndexFile, 'url'> {
  path: string
}

/** What a remote repository keeps of an upstream project page (a blob in remote_cache). */
interface UpstreamPage {
  files: { filename: string; url: string; sha256: string | null; requiresPython: string | null; yanked: boolean | string }[]
}

/** Where a file of a version lives in its repository: `<normalized name>/<version>/<file name>`. */
export const filePath = (name: string, version: string, filename: string) => `${normalizeName(name)}/${version}/${filename}`

/** Core metadata read from inside a distribution (wheel METADATA, sdist or egg PKG-INFO). */
export interface ArchiveMetadata {
  fields: Record<string, string[]>
  body: string
  /** The file as stored in the archive (served as PEP 658's `<file>.metadata` for wheels). */
  raw: Buffer
}

const readable = (filename: string) => /\.(whl|egg|zip|tar\.gz|tgz|tar)$/.test(filename)

/** PyPI repositories over Trove's repositories: project pages, uploads, files, remote caching. */
export class PypiRepository {
  constructor(private readonly fctx: FormatContext) {}

  private get db() {
    return this.fctx.db.kysely
  }

  /**
   * Reads a stored distribution's core metadata with the archive checks (`..`, absolute paths,
   * links out of the tree, decompression bombs). Undefined when the archive holds none.
   */
  async archiveMetadata(sha256: string, filename: string): Promise<ArchiveMetadata | undefined> {
    if (!readable(filename)) return undefined
    const options = {
      maxExpandedBytes: this.fctx.config.repositories.archiveMaxExpandedBytes,
      maxEntryBytes: 4 * 1024 * 1024,
    }
    const file = await this.fctx.blobs.localFile(sha256)
    let entries: Map<string, Buffer>
    if (/\.(whl|egg|zip)$/.test(filename)) {
      entries = await readZip(file, {
        ...options,
        want: (n) => /^[^/]+\.dist-info\/METADATA$/.test(n) || /^EGG-INFO\/PKG-INFO$/.test(n) || /^[^/]+\/PKG-INFO$/.test(n),
      })
    } else {
      entries = await readTarGz(file, { ...options, want: (n) => /^[^/]+\/PKG-INFO$/.test(n) })
    }
    const found = [...entries.values()][0]
    return found ? { ...parseCoreMetadata(found.toString('utf8')), raw: found } : undefined
  }

  /** Files of a project in a local repository (or the cached ones of a remote). */
  async storedFiles(repoKey: string, name: string): Promise<ProjectFile[]> {
    const rows = await this.db
      .selectFrom('files as f')
      .innerJoin('package_versions as v', 'v.id', 'f.version_id')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select(['f.name', 'f.path', 'f.sha256', 'f.size', 'f.created_at', 'v.version', 'v.metadata'])
      .where('p.package_type', '=', 'pypi')
      .where('p.name', '=', normalizeName(name))
      .where('f.repo_key', '=', repoKey)
      .orderBy('f.created_at')
      .orderBy('f.name')
      .execute()
    return rows.map((r) => {
      const meta = JSON.parse(r.metadata) as Partial<PypiVersionMetadata>
      return {
        filename: r.name,
        path: r.path,
        sha256: r.sha256,
        requiresPython: meta.requiresPython ?? null,
        size: r.size,
        uploadTime: r.created_at,
        version: r.version,
        yanked: false,
        coreMetadata: meta.files?.[r.name]?.coreMetadata ?? null,
      }
    })
  }

  /** The index root of a remote: its URL without a trailing `/simple`. */
  private indexRoot(repo: Repository): string {
    return (repo.url ?? '').replace(/\/+$/, '').replace(/\/simple$/, '')
  }

  /** A document of a remote's upstream index (`simple/` or a project's page), kept as JSON (formats/kit/upstream.ts). */
  private upstreamDocument(repo: Repository, path: string, accept: string): Promise<string | undefined> {
    return upstreamDocument(this.fctx, repo, {
      path,
      url: `${this.indexRoot(repo)}/${path}`,
      accept,
      convert: (text, response) => {
        const contentType = response.headers.get('content-type') ?? ''
        try {
          return path === 'simple/'
            ? JSON.stringify(parseProjectList(text, contentType))
            : JSON.stringify({
                files: parseProjectPage(text, contentType, response.url || `${this.indexRoot(repo)}/${path}`),
              } satisfies UpstreamPage)
        } catch {
          throw new HttpError(502, `The upstream of ${repo.key} sent a page Trove cannot read for ${path}`)
        }
      },
    })
  }

  private async upstreamPage(repo: Repository, name: string): Promise<UpstreamPage | undefined> {
    const text = await this.upstreamDocument(repo, `simple/${normalizeName(name)}/`, `${JSON_V1}, text/html;q=0.1`)
    return text === undefined ? undefined : (JSON.parse(text) as UpstreamPage)
  }

  /** The files of a project a repository answers with; undefined when it has none. Virtual: members merged, the first to hold a file name wins. */
  async projectFiles(repo: Repository, name: string, seen = new Set<string>()): Promise<ProjectFile[] | undefined> {
    if (seen.has(repo.key)) return undefined
    seen.add(repo.key)
    if (repo.rclass === 'local') {
      const files = await this.storedFiles(repo.key, name)
      return files.length > 0 ? files : undefined
    }
    if (repo.rclass === 'remote') {
      const page = await this.upstreamPage(repo, name).catch(() => undefined)
      if (!page) return undefined
      const files: ProjectFile[] = []
      for (const f of page.files) {
        const parsed = parseFilename(f.filename, name)
        if (!parsed || normalizeName(parsed.name) !== normalizeName(name)) continue
        files.push({
          filename: f.filename,
          path: filePath(name, parsed.version, f.filename),
          sha256: f.sha256,
          requiresPython: f.requiresPython,
          size: null,
          uploadTime: null,
          version: parsed.version,
          yanked: f.yanked,
          coreMetadata: null,
        })
      }
      return files
    }
    const merged = new Map<string, ProjectFile>()
    let any = false
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== 'pypi') continue
      const files = await this.projectFiles(member, name, seen)
      if (!files) continue
      any = true
      for (const f of files) if (!merged.has(f.filename)) merged.set(f.filename, f)
    }
    return any ? [...merged.values()] : undefined
  }

  /** The normalized names of the projects a repository answers with. */
  async projects(repo: Repository, seen = new Set<string>()): Promise<string[]> {
    if (seen.has(repo.key)) return []
    seen.add(repo.key)
    if (repo.rclass === 'local') {
      const rows = await this.db
        .selectFrom('packages as p')
        .select('p.name')
        .where('p.package_type', '=', 'pypi')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('package_versions as v')
              .select('v.id')
              .whereRef('v.package_id', '=', 'p.id')
              .where('v.repo_key', '=', repo.key),
          ),
        )
        .orderBy('p.name')
        .execute()
      return rows.map((r) => r.name)
    }
    if (repo.rclass === 'remote') {
      const text = await this.upstreamDocument(repo, 'simple/', `${JSON_V1}, text/html;q=0.1`).catch(() => undefined)
      return text === undefined ? [] : (JSON.parse(text) as string[])
    }
    const names = new Set<string>()
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member && member.packageType === 'pypi') for (const n of await this.projects(member, seen)) names.add(n)
    }
    return [...names].sort()
  }

  /** The stored file at `path` (`<name>/<version>/<file>`), fetched from a remote's upstream on a miss. */
  async file(repo: Repository, path: string, seen = new Set<string>()): Promise<FileRow | undefined> {
    if (seen.has(repo.key)) return undefined
    seen.add(repo.key)
    if (repo.rclass === 'local') return this.fctx.artifacts.findFile(repo.key, path)
    if (repo.rclass === 'remote') {
      const cached = await this.fctx.artifacts.findFile(repo.key, path)
      if (cached || repo.offline) return cached
      return fetchOnce(`pypi\0${repo.key}\0${path}`, () => this.fetchUpstreamFile(repo, path))
    }
    for (const key of repo.members) {
      const member = await this.fctx.repos.get(key)
      if (member?.packageType !== 'pypi') continue
      const found = await this.file(member, path, seen)
      if (found) return found
    }
    return undefined
  }

  private async fetchUpstreamFile(repo: Repository, path: string): Promise<FileRow | undefined> {
    const [name, version, filename, ...more] = path.split('/')
    if (!name || !version || !filename || more.length > 0) return undefined
    const page = await this.upstreamPage(repo, name)
    const entry = page?.files.find((f) => f.filename === filename)
    const parsed = parseFilename(filename, name)
    if (!entry || !parsed || parsed.version !== version) return undefined
    // Credentials go only to the upstream's own host (files may be served from another one).
    const sameOrigin = new URL(entry.url).origin === new URL(this.indexRoot(repo)).origin
    const headers = sameOrigin ? upstreamHeaders(this.fctx, repo) : { accept: '*/*' }
    const response = await upstreamFetch(repo.key, entry.url, { headers, signal: AbortSignal.timeout(300_000) })
    if (!response.ok || !response.body) {
      await response.body?.cancel()
      if (response.status === 404 || response.status === 410) return undefined
      throw new HttpError(502, `The upstream of ${repo.key} answered ${response.status} for ${filename}`)
    }
    const expected: Expected = entry.sha256 ? { sha256: entry.sha256 } : {}
    const blob = await this.fctx.blobs.put(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), expected)
    const inner = await this.archiveMetadata(blob.sha256, filename).catch(() => undefined)
    const fields: Record<string, string[]> = { ...(inner?.fields ?? {}), name: [parsed.name], version: [version] }
    if (entry.requiresPython) fields.requires_python = [entry.requiresPython]
    await this.record(repo.key, fields, inner?.body, {
      filename,
      blob,
      pyversion: '',
      createdBy: null,
      coreMetadata: coreMetadataHash(filename, inner),
    })
    return this.fctx.artifacts.findFile(repo.key, path)
  }

  /**
   * Records an uploaded (or cached) file with its version: the version's files are the ones
   * stored before plus this one; the sdist leads, else the first file stored.
   */
  async record(
    repoKey: string,
    fields: Record<string, string[]>,
    longDescription: string | undefined,
    file: {
      filename: string
      blob: NewFile['blob']
      pyversion: string
      createdBy: string | null
      /** sha256 of the wheel's METADATA, when it was read. */
      coreMetadata: string | null
    },
  ): Promise<void> {
    const displayName = fields.name?.[0] ?? ''
    const version = fields.version?.[0] ?? ''
    const name = normalizeName(displayName)
    const facts = versionFacts(fields, longDescription)
    const existing = await this.fctx.artifacts.findVersion(repoKey, 'pypi', name, version)
    const before = existing ? await this.db.selectFrom('files').selectAll().where('version_id', '=', existing.id).execute() : []
    const previous = existing ? (JSON.parse(existing.metadata) as Partial<PypiVersionMetadata>) : {}
    // Files of one version may carry different metadata (an sdist's PKG-INFO often lists no
    // requirements): what a later file lacks, the version keeps from the earlier ones.
    const previousDeps = existing
      ? await this.db
          .selectFrom('package_dependencies')
          .select(['name', 'range', 'scope'])
          .where('version_id', '=', existing.id)
          .execute()
      : []
    const previousTags = existing
      ? await this.db.selectFrom('package_tags').select('tag').where('package_id', '=', existing.package_id).execute()
      : []
    const metadata: PypiVersionMetadata = {
      name: displayName,
      version,
      summary: facts.summary || previous.summary || '',
      requiresPython: facts.requiresPython ?? previous.requiresPython ?? null,
      author: facts.author ?? previous.author ?? null,
      authorEmail: facts.authorEmail ?? previous.authorEmail ?? null,
      homePage: facts.homePage ?? previous.homePage ?? null,
      projectUrls: facts.projectUrls.length > 0 ? facts.projectUrls : (previous.projectUrls ?? []),
      classifiers: facts.classifiers.length > 0 ? facts.classifiers : (previous.classifiers ?? []),
      descriptionContentType: facts.descriptionContentType ?? previous.descriptionContentType ?? null,
      files: {
        ...(previous.files ?? {}),
        [file.filename]: {
          filetype: filetypeOf(file.filename),
          pyversion: file.pyversion,
          ...(file.coreMetadata ? { coreMetadata: file.coreMetadata } : {}),
        },
      },
    }
    const all = [
      ...before.map((f) => ({ path: f.path, name: f.name, blob: f, mimeType: f.mime_type })),
      { path: filePath(name, version, file.filename), name: file.filename, blob: file.blob, mimeType: mimeOfDist(file.filename) },
    ]
    const lead = all.find((f) => filetypeOf(f.name) === 'sdist') ?? all[0]
    await this.fctx.artifacts.recordVersion({
      repoKey,
      packageType: 'pypi',
      name,
      version,
      description: metadata.summary,
      readme: facts.readme ?? existing?.readme ?? null,
      licenses: facts.licenses.length > 0 ? facts.licenses : existing ? (JSON.parse(existing.licenses) as string[]) : [],
      tags: facts.keywords.length > 0 ? facts.keywords : previousTags.map((t) => t.tag),
      dependencies: facts.dependencies.length > 0 ? facts.dependencies : previousDeps,
      metadata,
      createdBy: file.createdBy,
      overwrite: true,
      files: all.map((f) => ({
        path: f.path,
        name: f.name,
        blob: { sha256: f.blob.sha256, sha1: f.blob.sha1, md5: f.blob.md5, size: f.blob.size },
        mimeType: f.mimeType,
        lead: f === lead,
      })),
    })
  }
}

/** PEP 658: a wheel's METADATA is served beside it; its sha256 is what the index advertises. */
export function coreMetadataHash(filename: string, inner: ArchiveMetadata | undefined): string | null {
  if (!filename.endsWith('.whl') || !inner) return null
  return crypto.createHash('sha256').update(inner.raw).digest('hex')
}

export function mimeOfDist(filename: string): string {
  if (filename.endsWith('.whl') || filename.endsWith('.zip') || filename.endsWith('.egg')) return 'application/zip'
  if (/\.(tar\.gz|tgz)$/.test(filename)) return 'application/gzip'
  return 'application/octet-stream'
}

/** Project names of an upstream project list, either form, normalized. */
function parseProjectList(body: string, contentType: string): string[] {
  if (contentType.includes('json')) {
    const data = JSON.parse(body) as { projects?: { name?: unknown }[] }
    return [...new Set((data.projects ?? []).flatMap((p) => (typeof p.name === 'string' ? [normalizeName(p.name)] : [])))]
  }
  return [
    ...new Set([...body.matchAll(/<a\s[^>]*>([^<]+)<\/a>/gi)].map((m) => normalizeName((m[1] ?? '').trim())).filter(Boolean)),
  ]
}
