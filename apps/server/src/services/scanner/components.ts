import fs from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import semver from 'semver'
import type { BlobStore } from '../../core/blobStore.js'
import type { Database } from '../../core/schema.js'
import { formatOf, versionOrderOf } from '../../formats/index.js'
import { parseComposer } from './composerVersion.js'
import { remoteListing } from './debianListing.js'
import { debianRelease } from './debianReleases.js'
import { normalizeName } from './ecosystems.js'
import { analyzeImage, type ImageLayer } from './image/analyzeImage.js'
import { componentsOfJar, isManifestPath, parseManifest } from './lockfiles/index.js'
import type { Component, Ecosystem } from './types.js'

/** What a scan found in one version: its components, the image's OS, or why it could not look. */
export interface VersionContents {
  components: Component[]
  /** "debian 12", "alpine 3.19.1" for images */
  os: string | null
  /** Set when nothing could be read; the version shows as not scanned with this reason. */
  notScanned?: string
  /** Parts that could not be read (a corrupt layer) while the rest was. */
  partial?: string
}

export interface VersionToScan {
  id: number
  packageType: string
  name: string
  version: string
  licenses: string[]
}

/** A Composer requirement naming one version (`1.2.3`, `v1.2.3`, `=1.2.3`, `==1.2.3`), else null. */
function composerPin(range: string): string | null {
  const m = /^={0,2}\s*(v?\d[\w.+-]*)$/.exec(range.trim())
  if (!m?.[1] || /(?:^|[.-])(?:x|\*)(?:$|[.-])|dev$/i.test(m[1])) return null
  return parseComposer(m[1]) ? m[1] : null
}

/**
 * The version NuGet resolves a dependency range to when it exists: NuGet takes the lowest version
 * a range admits, so a bare minimum (`1.0.0`) or an inclusive lower bound (`[1.0.0, 2.0.0)`, `[1.0.0]`)
 * names it; an exclusive or missing lower bound names none.
 */
export function nugetLowest(range: string): string | null {
  const m = /^\s*(?:\[\s*([^,\]\s]+)\s*(?:,[^\])]*)?[\])]|([^[(,\s]+))\s*$/.exec(range)
  const version = m?.[1] ?? m?.[2]
  return version ? (versionOrderOf('nuget').normalize(version) ?? null) : null
}

/** Files a generic version may hold that say what is inside them. */
const JAR = /\.(jar|war|ear)$/i
const MAX_GENERIC_FILE = 50 * 1024 * 1024
const MAX_DOCUMENT = 4 * 1024 * 1024

/**
 * Reads what a stored version is made of: the package itself and the dependencies its metadata
 * pins, or, for an image, the OS packages and lockfiles in its layers.
 */
export class ComponentReader {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
  ) {}

  async read(v: VersionToScan): Promise<VersionContents> {
    if (v.packageType === 'docker') return this.image(v)
    if (v.packageType === 'generic') return { components: await this.genericFiles(v), os: null }
    if (v.packageType === 'debian') return this.debianPackage(v)
    const format = formatOf(v.packageType)
    if (format?.notScanned) return { components: [], os: null, notScanned: format.notScanned }
    // The ecosystem a package type's own packages belong to, as its format declares it.
    const ecosystem = format?.ecosystem as Ecosystem | undefined
    if (!ecosystem) return { components: [], os: null, notScanned: `${v.packageType} packages are not scanned` }
    const own: Component = {
      ecosystem,
      name: normalizeName(ecosystem, v.name),
      version: v.version,
      path: '',
      licenses: v.licenses,
    }
    return { components: [own, ...(await this.dependencies(v, ecosystem))], os: null }
  }

  /**
   * The dependencies the version's metadata names, at the version a client would get: an exact
   * pin as written; for an npm range, the highest version Trove holds that satisfies it, else the
   * lowest the range admits (the one a fresh install could not avoid if nothing newer existed).
   * Maven, PyPI, Composer, Cargo and RubyGems dependencies count only when pinned to one version
   * (Composer `1.2.3`/`=1.2.3`, Cargo `=1.2.3`, RubyGems `= 1.2.3`). A Go module's go.mod requires
   * one version of each module it builds with (indirect ones included, as Go 1.17+ lists them),
   * the one minimal version selection takes when nothing else asks for more. Composer's platform
   * requirements (`php`, `ext-…`), which name no package, are left out.
   */
  private async dependencies(v: VersionToScan, ecosystem: Ecosystem): Promise<Component[]> {
    const deps = await this.db
      .selectFrom('package_dependencies')
      .select(['name', 'range', 'scope'])
      .where('version_id', '=', v.id)
      .execute()
    const out: Component[] = []
    const path = `${v.name}@${v.version}`
    for (const d of deps) {
      if (d.scope === 'dev' || d.scope === 'development' || d.scope === 'test' || d.scope === 'provided') continue
      let version: string | null = null
      if (ecosystem === 'npm') version = await this.npmResolve(d.name, d.range)
      else if (ecosystem === 'PyPI') version = /^==\s*([\w.!+-]+)\s*$/.exec(d.range.split(';')[0]?.trim() ?? '')?.[1] ?? null
      else if (ecosystem === 'Maven') version = /^[\w.+-]+$/.test(d.range) ? d.range : null
      else if (ecosystem === 'Packagist') version = d.name.includes('/') ? composerPin(d.range) : null
      else if (ecosystem === 'crates.io') version = /^=\s*(\d+\.\d+\.\d+(?:[-+][\w.+-]*)?)$/.exec(d.range.trim())?.[1] ?? null
      else if (ecosystem === 'RubyGems') version = /^=\s*(\d[\w.-]*)$/.exec(d.range.trim())?.[1] ?? null
      else if (ecosystem === 'NuGet') version = nugetLowest(d.range)
      else if (ecosystem === 'Go') version = /^v\d+\.\d+\.\d+(?:[-+][\w.+-]*)?$/.test(d.range) ? d.range : null
      if (version) out.push({ ecosystem, name: normalizeName(ecosystem, d.name), version, path })
    }
    return out
  }

  /**
   * A .deb of a Debian repository, as Debian's advisories name it: its source package (the control
   * paragraph's `Source:`, at the source version when it gives one, else the package itself) in
   * each Debian release its distributions name (`bookworm` → 12); for a .deb a remote cached, the
   * distributions whose Packages files (as the remote cached them) list it. A distribution that names no
   * Debian release (`stable`, `sid`, an Ubuntu or private name) is matched against no advisory,
   * and the scan says so.
   */
  private async debianPackage(v: VersionToScan): Promise<VersionContents> {
    const rows = await this.db
      .selectFrom('debian_files as d')
      .innerJoin('files as f', 'f.id', 'd.file_id')
      .select(['d.control', 'd.distributions'])
      .where('f.version_id', '=', v.id)
      .execute()
    if (rows.length === 0) {
      // A .deb a remote cached: its upstream's Packages files, as the remote keeps them, say where it is listed.
      const lead = await this.db
        .selectFrom('files')
        .select(['repo_key', 'path'])
        .where('version_id', '=', v.id)
        .where('lead', '=', 1)
        .executeTakeFirst()
      const listing = lead ? await remoteListing(this.db, this.blobs, lead.repo_key, lead.path) : undefined
      if (listing && listing.distributions.length > 0) {
        rows.push({
          control: listing.source ? `Source: ${listing.source}\n` : '',
          distributions: listing.distributions.join(' '),
        })
      }
    }
    const components: Component[] = []
    const unknown = new Set<string>()
    for (const row of rows) {
      const source = /^Source:[ \t]*(\S+)(?:[ \t]+\(([^)]+)\))?[ \t]*$/im.exec(row.control)
      const name = source?.[1] ?? v.name
      const version = source?.[2] ?? v.version
      for (const distribution of row.distributions.split(' ').filter(Boolean)) {
        const release = debianRelease(distribution)
        if (release === null) unknown.add(distribution)
        else components.push({ ecosystem: 'Debian', release, name, version, path: '', binary: v.name, licenses: v.licenses })
      }
    }
    if (components.length === 0) {
      const listed = [...unknown].join(', ')
      return {
        components: [],
        os: null,
        notScanned: listed
          ? `${listed} ${unknown.size === 1 ? 'is' : 'are'} no Debian release: Debian's advisories name releases`
          : "The package is listed in no distribution, and Debian's advisories name releases",
      }
    }
    const partial =
      unknown.size > 0
        ? `Not matched in ${[...unknown].join(', ')}: no Debian release, and Debian's advisories name releases`
        : undefined
    return { components, os: null, partial }
  }

  private async npmResolve(name: string, range: string): Promise<string | null> {
    if (semver.valid(range)) return semver.clean(range)
    if (!semver.validRange(range)) return null
    const stored = await this.db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .select('v.version')
      .where('p.package_type', '=', 'npm')
      .where('p.name', '=', name)
      .execute()
    const best = semver.maxSatisfying(
      stored.map((r) => r.version),
      range,
    )
    return best ?? semver.minVersion(range)?.version ?? null
  }

  /** Jars and lockfiles among a generic version's files. */
  private async genericFiles(v: VersionToScan): Promise<Component[]> {
    const files = await this.db.selectFrom('files').select(['path', 'sha256', 'size']).where('version_id', '=', v.id).execute()
    const out: Component[] = []
    for (const f of files) {
      if (JAR.test(f.path) && f.size <= MAX_GENERIC_FILE) {
        const data = await this.blobs.content(f.sha256, f.size)
        if (data) out.push(...(await componentsOfJar(f.path, data)))
      } else if (isManifestPath(f.path) && f.size <= MAX_DOCUMENT) {
        const data = await this.blobs.content(f.sha256, f.size)
        if (data) out.push(...parseManifest(f.path, data))
      }
    }
    return out
  }

  /** An image tag: its manifest's layers (for an index, the linux/amd64 image or else the first). */
  private async image(v: VersionToScan): Promise<VersionContents> {
    const lead = await this.db
      .selectFrom('files')
      .select(['sha256', 'size', 'repo_key', 'path'])
      .where('version_id', '=', v.id)
      .where('lead', '=', 1)
      .executeTakeFirst()
    if (!lead) return { components: [], os: null, notScanned: 'The tag has no manifest' }
    let manifest = await this.json(lead.sha256, lead.size)
    if (Array.isArray(manifest?.manifests)) {
      const children = manifest.manifests as { digest?: string; platform?: { os?: string; architecture?: string } }[]
      const child =
        children.find((m) => m.platform?.os === 'linux' && m.platform?.architecture === 'amd64') ?? children[0] ?? undefined
      const hex = child?.digest?.replace(/^sha256:/, '')
      const info = hex ? await this.blobs.info(hex) : undefined
      manifest = info ? await this.json(info.sha256, info.size) : undefined
      if (!manifest) return { components: [], os: null, notScanned: 'None of the index’s images is stored here' }
    }
    const layers = Array.isArray(manifest?.layers)
      ? (manifest.layers as { digest?: string; mediaType?: string; size?: number }[])
      : []
    if (layers.length === 0) return { components: [], os: null, notScanned: 'The manifest lists no layers' }
    const readable: ImageLayer[] = []
    for (const l of layers) {
      const hex = l.digest?.replace(/^sha256:/, '') ?? ''
      const info = /^[a-f0-9]{64}$/.test(hex) ? await this.blobs.info(hex) : undefined
      if (!info) return { components: [], os: null, notScanned: `Layer ${l.digest} is not stored here` }
      readable.push({
        digest: l.digest ?? '',
        mediaType: l.mediaType ?? '',
        size: info.size,
        open: async () => this.blobs.open(info.sha256),
      })
    }
    const analysis = await analyzeImage(readable)
    const os = analysis.os ? `${analysis.os.id} ${analysis.os.versionId}` : null
    const partial =
      analysis.notScanned.length > 0
        ? analysis.notScanned.map((n: { layer: string; reason: string }) => `${n.layer}: ${n.reason}`).join('; ')
        : undefined
    if (analysis.notScanned.length === layers.length) return { components: [], os, notScanned: partial }
    return { components: analysis.components, os, partial }
  }

  // biome-ignore lint/suspicious/noExplicitAny: a manifest is read loosely; every field is checked where used
  private async json(sha256: string, size: number): Promise<any> {
    if (size > MAX_DOCUMENT) return undefined
    const data = await this.blobs.content(sha256, size)
    try {
      return data ? JSON.parse(data.toString('utf8')) : undefined
    } catch {
      return undefined
    }
  }
}

const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'vendor', 'target', '.venv', 'venv', '__pycache__'])
const MAX_MANIFESTS = 10_000

/** The dependency manifests of a working tree (a git clone), with paths relative to it. */
export async function manifestsIn(root: string): Promise<Component[]> {
  const out: Component[] = []
  let seen = 0
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true })
    for (const e of entries) {
      if (seen >= MAX_MANIFESTS) return
      const full = path.join(dir, e.name)
      const rel = path.relative(root, full).split(path.sep).join('/')
      if (e.isDirectory() && !SKIPPED_DIRS.has(e.name)) await walk(full)
      else if (e.isFile() && isManifestPath(rel)) {
        const stat = await fs.promises.stat(full)
        if (stat.size > MAX_DOCUMENT) continue
        seen++
        out.push(...parseManifest(rel, await fs.promises.readFile(full)))
      }
    }
  }
  await walk(root)
  return out
}
