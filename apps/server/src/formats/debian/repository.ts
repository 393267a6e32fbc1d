import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import { Readable as NodeReadable } from 'node:stream'
import zlib from 'node:zlib'
import type { Expected } from '../../core/blobStore.js'
import { HttpError } from '../../core/errors.js'
import { xzDecompressed } from '../../core/xz.js'
import type { FileRow } from '../../storage/artifacts.js'
import type { Tx } from '../../storage/repo.js'
import type { Repository } from '../../storage/service.js'
import { resolveFile } from '../kit/files.js'
import type { FormatContext } from '../kit/types.js'
import { field, formatParagraph, type Paragraph, parseParagraphs, SUITE_NAME } from './control.js'
import { type DebPackage, readDeb } from './deb.js'
import type { OpenPgpKeys } from './signing.js'

const TYPE = 'debian'
export const DEB_MIME = 'application/vnd.debian.binary-package'
/** Architectures a distribution lists when it holds only `Architecture: all` packages. */
const DEFAULT_ARCHITECTURES = ['amd64', 'arm64']
/** How long a by-hash file no Release names any more stays (a client that read the Release before may still ask). */
const BY_HASH_GRACE_MS = 60 * 60 * 1000

const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')
const md5 = (data: Buffer | string) => crypto.createHash('md5').update(data).digest('hex')
const list = (value: string) => value.split(' ').filter(Boolean)

/** Paths a client may not upload: the index files Trove makes. */
export const isIndexPath = (path: string) => path.startsWith('dists/')
/** Index files a remote fetches again after its metadata cache lifetime (by-hash files never change). */
export const isMetadataPath = (path: string) => isIndexPath(path) && !path.includes('/by-hash/')

/** Where an upload is listed: its distributions and components (matrix parameters `deb.distribution`, `deb.component`). */
export interface Placement {
  distributions: string[]
  components: string[]
  architecture?: string
}

/** The placement an upload's properties give, checked. */
export function placementOf(properties: Record<string, string[]>): Placement {
  const values = (name: string) =>
    (properties[name] ?? [])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean)
  const distributions = values('deb.distribution')
  const components = values('deb.component')
  const architecture = values('deb.architecture')[0]
  if (distributions.length === 0) {
    throw new HttpError(
      400,
      'deb.distribution: name the distribution the package belongs to (…/file.deb;deb.distribution=bookworm;deb.component=main)',
    )
  }
  for (const name of [...distributions, ...components]) {
    if (!SUITE_NAME.test(name))
      throw new HttpError(400, `deb.distribution, deb.component: ${JSON.stringify(name)} is not a distribution or component name`)
  }
  return { distributions, components: components.length > 0 ? components : ['main'], architecture }
}

/** One .deb listed in a repository's indexes: its control paragraph, file and placement. */
interface Listed {
  control: Paragraph
  architecture: string
  distributions: string[]
  components: string[]
  path: string
  size: number
  md5: string | null
  sha1: string | null
  sha256: string
}

/** The index files of one distribution: path (under `dists/<dist>/`) → content. */
type DistFiles = Map<string, Buffer>

/** A Packages entry: the control paragraph with the file's place and checksums before its Description. */
function packagesEntry(l: Pick<Listed, 'control' | 'path' | 'size' | 'md5' | 'sha1' | 'sha256'>): string {
  const fileFields: Paragraph = [
    ['Filename', l.path],
    ['Size', String(l.size)],
    ...(l.md5 ? [['MD5sum', l.md5] as [string, string]] : []),
    ...(l.sha1 ? [['SHA1', l.sha1] as [string, string]] : []),
    ['SHA256', l.sha256],
  ]
  const skip = new Set(['filename', 'size', 'md5sum', 'sha1', 'sha256'])
  const kept = l.control.filter(([n]) => !skip.has(n.toLowerCase()))
  const at = kept.findIndex(([n]) => n.toLowerCase() === 'description')
  const paragraph = at < 0 ? [...kept, ...fileFields] : [...kept.slice(0, at), ...fileFields, ...kept.slice(at)]
  return formatParagraph(paragraph)
}

const byNameVersion = (a: Paragraph, b: Paragraph) =>
  (field(a, 'Package') ?? '').localeCompare(field(b, 'Package') ?? '') ||
  (field(a, 'Version') ?? '').localeCompare(field(b, 'Version') ?? '')

/**
 * A distribution's index files from its Packages texts: `<component>/binary-<arch>/Packages` and
 * `.gz`, each also under `by-hash/SHA256/`, and the Release listing them (signed by the caller).
 */
function distributionFiles(
  dist: string,
  label: string,
  packages: Map<string, Map<string, string>>,
): { files: DistFiles; release: string } {
  const files: DistFiles = new Map()
  const components = [...packages.keys()].sort()
  const architectures = new Set<string>()
  for (const [component, byArch] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [arch, text] of [...byArch].sort(([a], [b]) => a.localeCompare(b))) {
      architectures.add(arch)
      const plain = Buffer.from(text)
      const gz = zlib.gzipSync(plain, { level: 9 })
      const dir = `${component}/binary-${arch}`
      files.set(`${dir}/Packages`, plain)
      files.set(`${dir}/Packages.gz`, gz)
    }
  }
  const indexed = [...files]
  const sums = (hash: (d: Buffer) => string) =>
    indexed.map(([p, d]) => ` ${hash(d)} ${String(d.length).padStart(8)} ${p}`).join('\n')
  const release = formatParagraph([
    ['Origin', 'Trove'],
    ['Label', label],
    ['Suite', dist],
    ['Codename', dist],
    ['Date', new Date().toUTCString().replace('GMT', 'UTC')],
    ['Architectures', [...architectures].sort().join(' ')],
    ['Components', components.join(' ')],
    ['Acquire-By-Hash', 'yes'],
    ['MD5Sum', `\n${sums(md5)}`],
    ['SHA256', `\n${sums(sha256)}`],
  ])
  for (const [p, d] of indexed) files.set(`${p.slice(0, p.lastIndexOf('/'))}/by-hash/SHA256/${sha256(d)}`, d)
  return { files, release }
}

/** The Packages texts of listed .debs, by component and architecture (`all` packages in every architecture). */
function packagesTexts(listed: Listed[]): Map<string, Map<string, string>> {
  const architectures = [...new Set(listed.map((l) => l.architecture).filter((a) => a !== 'all'))]
  const archs = architectures.length > 0 ? architectures : DEFAULT_ARCHITECTURES
  const grouped = new Map<string, Map<string, Listed[]>>()
  for (const l of listed) {
    for (const component of l.components) {
      const byArch = grouped.get(component) ?? new Map<string, Listed[]>()
      grouped.set(component, byArch)
      for (const arch of l.architecture === 'all' ? archs : [l.architecture]) {
        byArch.set(arch, [...(byArch.get(arch) ?? []), l])
      }
    }
  }
  // Every component lists every architecture, so apt finds each Packages file the Release promises.
  const texts = new Map<string, Map<string, string>>()
  for (const [component, byArch] of grouped) {
    const entries = new Map<string, string>()
    for (const arch of new Set([...byArch.keys(), ...archs])) {
      const rows = [...(byArch.get(arch) ?? [])].sort((a, b) => byNameVersion(a.control, b.control))
      entries.set(arch, rows.map(packagesEntry).join('\n'))
    }
    texts.set(component, entries)
  }
  return texts
}

/** A Release file's components, architectures and listed files (path → sha256 and size). */
function readRelease(text: string): { components: string[]; architectures: string[]; sha256: Map<string, string> } {
  const stripped = text.includes('-----BEGIN PGP SIGNED MESSAGE-----')
    ? text.replace(/^[\s\S]*?\n\n/, '').replace(/\n-----BEGIN PGP SIGNATURE-----[\s\S]*$/, '')
    : text
  const [paragraph = []] = parseParagraphs(stripped)
  const sha = new Map<string, string>()
  for (const line of (field(paragraph, 'SHA256') ?? '').split('\n')) {
    const [hash, , p] = line.trim().split(/\s+/)
    if (hash && p) sha.set(p, hash)
  }
  return {
    components: list(field(paragraph, 'Components') ?? ''),
    architectures: list(field(paragraph, 'Architectures') ?? ''),
    sha256: sha,
  }
}

/** What a version records of a .deb: the packages browser's fields, from its control paragraph and docs. */
function versionOf(repoKey: string, deb: DebPackage) {
  return {
    repoKey,
    packageType: TYPE,
    name: deb.name,
    version: deb.version,
    description: deb.synopsis,
    readme: deb.readme,
    licenses: deb.licenses,
    dependencies: deb.relations.map(({ scope, relation }) => ({ name: relation.name, range: relation.constraint, scope })),
    metadata: { section: field(deb.control, 'Section') ?? null, maintainer: field(deb.control, 'Maintainer') ?? null },
  }
}

/** Debian (APT) repositories over Trove's repositories: uploads, signed indexes, remotes and virtuals. */
export class DebianRepository {
  /** Per repository: the reindex running, and whether another must follow it. */
  private static readonly reindexing = new Map<string, { running: Promise<void>; again?: Promise<void> }>()
  /** Per repository: the state the last index this node wrote or checked was made from. */
  private static readonly indexedState = new Map<string, string>()
  /** A virtual's distribution made lately: its files by path, kept briefly so by-hash requests find them. */
  private static readonly virtualCache = new Map<
    string,
    { at: number; files: DistFiles; older: DistFiles; release: string; inRelease: string; gpg: string }
  >()

  /** Cached .debs (by sha256) that could not be read as packages: served, not recorded. */
  private static readonly unreadable = new Set<string>()

  constructor(
    private readonly fctx: FormatContext,
    private readonly keys: OpenPgpKeys,
  ) {}

  /**
   * Stores an uploaded .deb at `path` and lists it in its distributions. The same file again
   * succeeds (and is listed where the new properties say too); another file under a stored
   * version and architecture is refused with 409.
   */
  async upload(
    repo: Repository,
    path: string,
    body: Readable | Buffer,
    properties: Record<string, string[]>,
    user: string | null,
    expected: Expected = {},
  ): Promise<{ deb: DebPackage; file: FileRow }> {
    if (!path.endsWith('.deb')) throw new HttpError(400, `Upload Debian packages as <path>.deb, not ${path}`)
    if (isIndexPath(path)) throw new HttpError(400, `${path}: Trove makes the files under dists/ itself`)
    const placement = placementOf(properties)
    const blob = await this.fctx.blobs.put(body, expected, { allSums: true })
    const deb = await readDeb(await this.fctx.blobs.localFile(blob.sha256), this.fctx.config.repositories.archiveMaxExpandedBytes)
    if (placement.architecture && deb.architecture !== 'all' && placement.architecture !== deb.architecture) {
      throw new HttpError(400, `deb.architecture: the package is built for ${deb.architecture}, not ${placement.architecture}`)
    }
    const fileProperties = {
      'deb.distribution': placement.distributions,
      'deb.component': placement.components,
      'deb.architecture': [deb.architecture],
      'deb.name': [deb.name],
      'deb.version': [deb.version],
    }
    const row = (fileId: number) => ({
      file_id: fileId,
      repo_key: repo.key,
      architecture: deb.architecture,
      distributions: placement.distributions.join(' '),
      components: placement.components.join(' '),
      control: formatParagraph(deb.control),
    })
    const db = this.fctx.db.kysely
    const stored = await this.fctx.artifacts.findFile(repo.key, path)
    if (stored && stored.sha256 !== blob.sha256) {
      throw new HttpError(409, `${path} already exists in ${repo.key} with other content: delete it first`)
    }
    const sameArchitecture = async (tx: Tx, versionId: number) =>
      tx
        .selectFrom('debian_files')
        .innerJoin('files', 'files.id', 'debian_files.file_id')
        .select(['files.path', 'files.sha256'])
        .where('files.version_id', '=', versionId)
        .where('debian_files.architecture', '=', deb.architecture)
        .executeTakeFirst()
    const addToVersion = async (versionId: number) =>
      db.transaction().execute(async (tx) => {
        const other = await sameArchitecture(tx, versionId)
        if (other && other.sha256 !== blob.sha256) {
          throw new HttpError(
            409,
            `${deb.name} ${deb.version} (${deb.architecture}) already exists in ${repo.key} as ${other.path}`,
          )
        }
        const fileId = await this.fctx.artifacts.putFile(
          tx,
          repo.key,
          { path, blob, mimeType: DEB_MIME, lead: true },
          { versionId, createdBy: user },
        )
        await this.fctx.artifacts.setProperties(tx, fileId, fileProperties)
        await this.place(tx, row(fileId))
      })
    const existing = await this.fctx.artifacts.findVersion(repo.key, TYPE, deb.name, deb.version)
    if (existing) await addToVersion(existing.id)
    else {
      try {
        await this.fctx.artifacts.recordVersion({
          ...versionOf(repo.key, deb),
          createdBy: user,
          files: [{ path, blob, mimeType: DEB_MIME, lead: true }],
          alongside: async (tx, { versionId }) => {
            const file = await this.fctx.artifacts.findFile(repo.key, path, tx)
            if (!file) return
            if (file.version_id !== versionId) return
            await this.fctx.artifacts.setProperties(tx, file.id, fileProperties)
            await this.place(tx, row(file.id))
          },
        })
      } catch (error) {
        // Another architecture of the version arrived at the same moment: this one joins it.
        if (!(error instanceof HttpError && error.status === 409)) throw error
        const now = await this.fctx.artifacts.findVersion(repo.key, TYPE, deb.name, deb.version)
        if (!now) throw error
        await addToVersion(now.id)
      }
    }
    await this.reindex(repo)
    return { deb, file: (await this.fctx.artifacts.findFile(repo.key, path)) as FileRow }
  }

  /** Lists a file where `row` says, adding to the distributions and components it was listed in before. */
  private async place(
    tx: Tx,
    row: { file_id: number; repo_key: string; architecture: string; distributions: string; components: string; control: string },
  ) {
    const before = await tx.selectFrom('debian_files').selectAll().where('file_id', '=', row.file_id).executeTakeFirst()
    if (!before) {
      await tx.insertInto('debian_files').values(row).execute()
      return
    }
    const union = (a: string, b: string) => [...new Set([...list(a), ...list(b)])].join(' ')
    await tx
      .updateTable('debian_files')
      .set({
        distributions: union(before.distributions, row.distributions),
        components: union(before.components, row.components),
      })
      .where('file_id', '=', row.file_id)
      .execute()
  }

  /** Deletes a .deb (and its version when it was the version's last file), then indexes again. */
  async delete(repo: Repository, path: string): Promise<boolean> {
    const file = await this.fctx.artifacts.findFile(repo.key, path)
    if (!file) return false
    await this.fctx.db.kysely.transaction().execute(async (tx) => {
      await this.fctx.artifacts.deleteFile(repo.key, path, tx)
      if (file.version_id) await this.fctx.artifacts.dropEmptyVersions(tx, [file.version_id])
    })
    await this.reindex(repo)
    return true
  }

  /**
   * After the tree's copy, move or delete: a .deb that arrived with `deb.distribution` properties
   * is read and listed (and its version recorded); the indexes are made again either way.
   */
  async filesChanged(repo: Repository, paths: string[]): Promise<void> {
    for (const path of paths.filter((p) => p.endsWith('.deb'))) {
      const file = await this.fctx.artifacts.findFile(repo.key, path)
      if (!file) continue
      const listed = await this.fctx.db.kysely
        .selectFrom('debian_files')
        .select('file_id')
        .where('file_id', '=', file.id)
        .executeTakeFirst()
      if (listed) continue
      const properties = await this.fctx.artifacts.properties(file.id)
      if (!properties['deb.distribution']?.length) continue
      try {
        await this.upload(repo, path, await this.fctx.blobs.readBuffer(file.sha256), properties, file.created_by)
      } catch (error) {
        // A file that is not a readable package stays a plain file of the tree.
        if (!(error instanceof HttpError)) throw error
      }
    }
    await this.reindex(repo)
  }

  /** What the indexes of a local repository are made from: changes whenever a listed file comes or goes. */
  private async state(repoKey: string): Promise<string> {
    const row = await this.fctx.db.kysely
      .selectFrom('debian_files')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('file_id').as('ids')])
      .where('repo_key', '=', repoKey)
      .executeTakeFirst()
    const placements = await this.fctx.db.kysely
      .selectFrom('debian_files')
      .select(['file_id', 'distributions', 'components'])
      .where('repo_key', '=', repoKey)
      .orderBy('file_id')
      .execute()
    return sha256(`${row?.n}:${row?.ids}:${placements.map((p) => `${p.file_id} ${p.distributions} ${p.components}`).join(';')}`)
  }

  /** Makes a local repository's indexes again unless this node already made them from the current state. */
  async ensureIndexed(repo: Repository): Promise<void> {
    if (DebianRepository.indexedState.get(repo.key) === (await this.state(repo.key))) return
    await this.reindex(repo)
  }

  /**
   * Makes every distribution's index files of a local repository again and stores them as files
   * of the repository (signed Release, InRelease and Release.gpg; Packages by hash). Runs one at a
   * time per repository; a call during a run gets one more run after it, shared by all such calls.
   */
  reindex(repo: Repository): Promise<void> {
    const runs = DebianRepository.reindexing
    const current = runs.get(repo.key)
    if (!current) {
      const running = this.writeIndexes(repo).finally(() => {
        const after = runs.get(repo.key)
        if (after?.again) runs.set(repo.key, { running: after.again })
        else runs.delete(repo.key)
      })
      runs.set(repo.key, { running })
      return running
    }
    current.again ??= current.running
      .catch(() => undefined)
      .then(() =>
        this.writeIndexes(repo).finally(() => {
          const after = runs.get(repo.key)
          if (after?.running === current.again) runs.delete(repo.key)
        }),
      )
    return current.again
  }

  private async listed(repoKey: string): Promise<Listed[]> {
    const rows = await this.fctx.db.kysely
      .selectFrom('debian_files')
      .innerJoin('files', 'files.id', 'debian_files.file_id')
      .select([
        'debian_files.control',
        'debian_files.architecture',
        'debian_files.distributions',
        'debian_files.components',
        'files.path',
        'files.size',
        'files.md5',
        'files.sha1',
        'files.sha256',
      ])
      .where('debian_files.repo_key', '=', repoKey)
      .execute()
    return rows.map((r) => ({
      control: parseParagraphs(r.control)[0] ?? [],
      architecture: r.architecture,
      distributions: list(r.distributions),
      components: list(r.components),
      path: r.path,
      size: Number(r.size),
      md5: r.md5,
      sha1: r.sha1,
      sha256: r.sha256,
    }))
  }

  private async writeIndexes(repo: Repository): Promise<void> {
    const state = await this.state(repo.key)
    const listed = await this.listed(repo.key)
    const dists = [...new Set(listed.flatMap((l) => l.distributions))].sort()
    const now = Date.now()
    const wanted = new Map<string, Buffer>()
    const previous = await this.fctx.artifacts.listFiles(repo.key, 'dists/')
    const previousByPath = new Map(previous.map((f) => [f.path, f]))
    for (const dist of dists) {
      const texts = packagesTexts(listed.filter((l) => l.distributions.includes(dist)))
      const { files, release } = distributionFiles(dist, repo.key, texts)
      const releasePath = `dists/${dist}/Release`
      // Nothing changed in this distribution: its signed files stay as they are.
      const stored = previousByPath.get(releasePath)
      if (stored) {
        const was = readRelease(await this.fctx.blobs.readText(stored.sha256))
        const same = [...files].filter(([p]) => !p.includes('/by-hash/')).every(([p, d]) => was.sha256.get(p) === sha256(d))
        if (same && was.sha256.size === [...files].filter(([p]) => !p.includes('/by-hash/')).length) {
          for (const p of previous.filter((f) => f.path.startsWith(`dists/${dist}/`))) wanted.set(p.path, Buffer.alloc(0))
          continue
        }
      }
      for (const [p, d] of files) wanted.set(`dists/${dist}/${p}`, d)
      const releaseBytes = Buffer.from(release)
      wanted.set(releasePath, releaseBytes)
      wanted.set(`dists/${dist}/InRelease`, Buffer.from(await this.keys.clearSign(release)))
      wanted.set(`dists/${dist}/Release.gpg`, Buffer.from(await this.keys.detachedSign(releaseBytes)))
    }
    const writes: { path: string; data: Buffer }[] = []
    for (const [path, data] of wanted) {
      const before = previousByPath.get(path)
      if (data.length === 0 && before) continue // kept as it is
      if (before && before.sha256 === sha256(data)) continue
      writes.push({ path, data })
    }
    const blobs = await Promise.all(
      writes.map(async (w) => ({ path: w.path, blob: await this.fctx.blobs.put(w.data, {}, { allSums: true }) })),
    )
    const stale = previous.filter(
      (f) => !wanted.has(f.path) && (!f.path.includes('/by-hash/') || now - f.modified_at > BY_HASH_GRACE_MS),
    )
    if (blobs.length > 0 || stale.length > 0) {
      await this.fctx.db.kysely.transaction().execute(async (tx) => {
        for (const { path, blob } of blobs) {
          const mimeType = path.endsWith('.gz') ? 'application/gzip' : 'text/plain'
          await this.fctx.artifacts.putFile(tx, repo.key, { path, blob, mimeType }, { createdBy: null })
        }
        for (const f of stale) await this.fctx.artifacts.deleteFile(repo.key, f.path, tx)
      })
    }
    DebianRepository.indexedState.set(repo.key, state)
  }

  /**
   * A file of a Debian repository by path. A local's index files are made again first if they
   * lag behind its packages; a remote fetches from its upstream (index files again after the
   * metadata cache lifetime) and records each .deb it caches; a virtual's index files merge its
   * members' and are signed here.
   */
  async file(repo: Repository, path: string): Promise<FileRow | { content: Buffer; type: string } | undefined> {
    if (repo.rclass === 'local') {
      if (isIndexPath(path)) await this.ensureIndexed(repo)
      return this.fctx.artifacts.findFile(repo.key, path)
    }
    if (repo.rclass === 'virtual' && isIndexPath(path)) {
      const m = /^dists\/([^/]+)\/(.+)$/.exec(path)
      if (!m) return undefined
      const merged = await this.virtualDistribution(repo, m[1] as string)
      if (!merged) return undefined
      const name = m[2] as string
      const text =
        name === 'Release'
          ? merged.release
          : name === 'InRelease'
            ? merged.inRelease
            : name === 'Release.gpg'
              ? merged.gpg
              : undefined
      if (text !== undefined) return { content: Buffer.from(text), type: 'text/plain; charset=utf-8' }
      const content = merged.files.get(name) ?? (name.includes('/by-hash/') ? merged.older.get(name) : undefined)
      return content ? { content, type: name.endsWith('.gz') ? 'application/gzip' : 'text/plain; charset=utf-8' } : undefined
    }
    if (repo.rclass === 'virtual') {
      for (const key of repo.members) {
        const member = await this.fctx.repos.get(key)
        const found = member?.packageType === TYPE ? await this.file(member, path) : undefined
        if (found) return found
      }
      return undefined
    }
    const file = await resolveFile(this.fctx, repo, path, { isMetadata: isMetadataPath })
    if (file && repo.rclass === 'remote' && path.endsWith('.deb') && !file.version_id) return this.recordCached(repo, file)
    return file
  }

  /**
   * Records a .deb a remote cached as a version of its package, so the packages browser shows it.
   * Gives the file's row again, now with its version, so this first download counts for it too.
   */
  private async recordCached(repo: Repository, file: FileRow): Promise<FileRow> {
    if (DebianRepository.unreadable.has(file.sha256)) return file
    let deb: DebPackage
    try {
      deb = await readDeb(await this.fctx.blobs.localFile(file.sha256), this.fctx.config.repositories.archiveMaxExpandedBytes)
    } catch {
      // Served as it is, and not read again at every download (this node remembers a bounded number).
      if (DebianRepository.unreadable.size >= 10_000) DebianRepository.unreadable.clear()
      DebianRepository.unreadable.add(file.sha256)
      return file
    }
    const blob = { sha256: file.sha256, sha1: file.sha1 ?? undefined, md5: file.md5 ?? undefined, size: Number(file.size) }
    const existing = await this.fctx.artifacts.findVersion(repo.key, TYPE, deb.name, deb.version)
    if (existing) {
      await this.fctx.db.kysely.updateTable('files').set({ version_id: existing.id }).where('id', '=', file.id).execute()
    } else {
      try {
        await this.fctx.artifacts.recordVersion({
          ...versionOf(repo.key, deb),
          files: [{ path: file.path, blob: blob as never, mimeType: DEB_MIME, lead: true }],
        })
      } catch (error) {
        if (!(error instanceof HttpError && error.status === 409)) throw error
      }
    }
    return (await this.fctx.artifacts.findFile(repo.key, file.path)) ?? file
  }

  /** A member's Packages text for one component and architecture (plain, else gzip, else xz). */
  private async memberPackages(member: Repository, dist: string, component: string, arch: string): Promise<string | undefined> {
    const base = `dists/${dist}/${component}/binary-${arch}/Packages`
    for (const suffix of ['', '.gz', '.xz']) {
      const found = await this.file(member, `${base}${suffix}`)
      if (!found) continue
      const data = 'content' in found ? found.content : await this.fctx.blobs.readBuffer(found.sha256)
      if (suffix === '') return data.toString('utf8')
      if (suffix === '.gz') return zlib.gunzipSync(data).toString('utf8')
      const chunks: Buffer[] = []
      for await (const chunk of xzDecompressed(NodeReadable.from([data]))) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    }
    return undefined
  }

  /**
   * A virtual repository's distribution: each member's Packages entries (the first member listing
   * a package, version and architecture wins), in index files signed with this instance's key.
   * Kept for the metadata cache lifetime, so the by-hash files a Release names stay reachable.
   */
  private async virtualDistribution(repo: Repository, dist: string) {
    const key = `${repo.key}\n${dist}`
    const cached = DebianRepository.virtualCache.get(key)
    if (cached && Date.now() - cached.at < Math.max(repo.metadataCacheSecs, 5) * 1000) return cached
    const entries = new Map<string, Map<string, Map<string, string>>>()
    let found = false
    for (const memberKey of repo.members) {
      const member = await this.fctx.repos.get(memberKey)
      if (!member || member.packageType !== TYPE) continue
      const releaseFile = await this.file(member, `dists/${dist}/Release`)
      if (!releaseFile) continue
      found = true
      const release = readRelease(
        'content' in releaseFile ? releaseFile.content.toString('utf8') : await this.fctx.blobs.readText(releaseFile.sha256),
      )
      for (const component of release.components) {
        for (const arch of release.architectures) {
          const text = await this.memberPackages(member, dist, component, arch)
          if (text === undefined) continue
          const byArch = entries.get(component) ?? new Map<string, Map<string, string>>()
          entries.set(component, byArch)
          const seen = byArch.get(arch) ?? new Map<string, string>()
          byArch.set(arch, seen)
          for (const paragraph of parseParagraphs(text)) {
            const id = `${field(paragraph, 'Package')} ${field(paragraph, 'Version')} ${field(paragraph, 'Architecture')}`
            if (!seen.has(id)) seen.set(id, formatParagraph(paragraph))
          }
        }
      }
    }
    if (!found) return undefined
    const texts = new Map(
      [...entries].map(([component, byArch]) => [
        component,
        new Map(
          [...byArch].map(([arch, seen]) => [
            arch,
            [...seen.entries()]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([, t]) => t)
              .join('\n'),
          ]),
        ),
      ]),
    )
    const { files, release } = distributionFiles(dist, repo.key, texts)
    const made = {
      at: Date.now(),
      files,
      // The by-hash files of the Release made before stay reachable next to the new ones.
      older: cached?.files ?? new Map<string, Buffer>(),
      release,
      inRelease: await this.keys.clearSign(release),
      gpg: await this.keys.detachedSign(Buffer.from(release)),
    }
    DebianRepository.virtualCache.set(key, made)
    return made
  }
}
