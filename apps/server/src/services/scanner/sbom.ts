/**
 * What an SBOM of a scanned version is made of, read once from the scan's stored rows and shared
 * by both formats (`sbomCyclonedx.ts`, `sbomSpdx.ts`): the version itself, the components the scan
 * stored with their package URLs and licences, and the findings grouped by advisory.
 */
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { PackageURL } from 'packageurl-js'
import { conflict } from '../../core/errors.js'
import { licenseNames, toSpdx } from '../../core/licenses.js'
import type { Database } from '../../core/schema.js'
import type { Severity } from './types.js'

export const SBOM_FORMATS = ['cyclonedx', 'spdx'] as const
export type SbomFormat = (typeof SBOM_FORMATS)[number]
export const CYCLONEDX_VERSIONS = ['1.5', '1.6'] as const
export type CycloneDxVersion = (typeof CYCLONEDX_VERSIONS)[number]

/** A declared licence: its SPDX id or expression when Trove can tell, else only the name as written. */
export interface SbomLicense {
  name: string
  spdx: string | null
}

/** The hashes of a stored file. */
export interface FileHashes {
  md5: string
  sha1: string
  sha256: string
}

export interface SbomComponent {
  /** Unique within the document: the package URL, or the URL and where it was found when one is found twice. */
  ref: string
  ecosystem: string
  name: string
  version: string
  purl: string
  licenses: SbomLicense[]
  /** The main file's hashes when Trove holds this version in a repository the caller may read. */
  hashes: FileHashes | null
  /** Where the scan found it (a lockfile, an OS database, the version's own metadata). */
  paths: string[]
}

export interface SbomRoot {
  ref: string
  packageType: string
  name: string
  version: string
  purl: string
  description: string
  licenses: SbomLicense[]
  /** The hashes of the version's main file (for an image, its manifest: the image digest). */
  hashes: FileHashes | null
}

export interface SbomVulnerability {
  id: string
  aliases: string[]
  summary: string
  details: string
  severity: Severity
  cvssScore: number | null
  cvssVector: string | null
  published: string | null
  modified: string
  references: { type: string; url: string }[]
  /** Each affected component (a root ref when it is the version itself) and the versions that fix it there. */
  affects: { ref: string; version: string; fixed: string[] }[]
}

export interface SbomSource {
  root: SbomRoot
  /** The image's operating system ("debian 12"), when the scan found one. */
  os: { name: string; version: string } | null
  components: SbomComponent[]
  vulnerabilities: SbomVulnerability[]
  /** When the scan that produced the components finished (ms since the epoch). */
  scannedAt: number
  /** Packages depend on their components; an image or a generic version contains them. */
  relation: 'dependsOn' | 'contains'
}

/** The package URL type and how a name splits into namespace and name, per scanner ecosystem or package type. */
function purlParts(kind: string, name: string): { type: string; namespace?: string; name: string } {
  const lastSlash = (text: string) => {
    const i = text.lastIndexOf('/')
    return i > 0 ? { namespace: text.slice(0, i), name: text.slice(i + 1) } : { name: text }
  }
  switch (kind) {
    case 'npm':
      return { type: 'npm', ...(name.startsWith('@') ? lastSlash(name) : { name }) }
    case 'PyPI':
    case 'pypi':
      return { type: 'pypi', name }
    case 'Maven':
    case 'maven': {
      const [group, artifact] = name.split(':')
      return artifact ? { type: 'maven', namespace: group, name: artifact } : { type: 'maven', name }
    }
    case 'Go':
    case 'go':
      return { type: 'golang', ...lastSlash(name) }
    case 'crates.io':
    case 'cargo':
      return { type: 'cargo', name }
    case 'NuGet':
    case 'nuget':
      return { type: 'nuget', name }
    case 'RubyGems':
    case 'gems':
      return { type: 'gem', name }
    case 'Packagist':
    case 'composer':
      return { type: 'composer', ...lastSlash(name) }
    case 'docker':
      return { type: 'docker', ...lastSlash(name) }
    default:
      return { type: 'generic', ...lastSlash(name) }
  }
}

/**
 * A stored component's package URL. Debian and Alpine components are named after their source
 * package (what advisories name); the URL names the installed binary package, with the source as
 * `upstream` and the release as `distro`, the way image SBOM tools write them.
 */
export function componentPurl(c: { ecosystem: string; release: string; name: string; version: string; binary: string | null }) {
  if (c.ecosystem === 'Debian' || c.ecosystem === 'Alpine') {
    const debian = c.ecosystem === 'Debian'
    const qualifiers: Record<string, string> = {}
    if (c.release) qualifiers.distro = `${debian ? 'debian' : 'alpine'}-${c.release.replace(/^v/, '')}`
    if (c.binary && c.binary !== c.name) qualifiers.upstream = c.name
    return new PackageURL(
      debian ? 'deb' : 'apk',
      debian ? 'debian' : 'alpine',
      c.binary ?? c.name,
      c.version,
      Object.keys(qualifiers).length > 0 ? qualifiers : undefined,
      undefined,
    ).toString()
  }
  const p = purlParts(c.ecosystem, c.name)
  return new PackageURL(p.type, p.namespace, p.name, c.version, undefined, undefined).toString()
}

/** The version's own package URL, from its package type (an image tag: `pkg:docker/<name>@<tag>`). */
export function versionPurl(packageType: string, name: string, version: string): string {
  const p = purlParts(packageType, name)
  return new PackageURL(p.type, p.namespace, p.name, version, undefined, undefined).toString()
}

/** Declared licence names as stored on the version (normalised the way the scan stores components'). */
function versionLicenses(json: string): SbomLicense[] {
  try {
    const list = JSON.parse(json) as unknown
    return Array.isArray(list) ? licenseNames(list.filter((x): x is string => typeof x === 'string')) : []
  } catch {
    return []
  }
}

function storedLicenses(json: string): SbomLicense[] {
  try {
    const list = JSON.parse(json) as { name: string; spdx: string | null }[]
    return Array.isArray(list) ? list.map((l) => ({ name: l.name, spdx: l.spdx ?? toSpdx(l.name) })) : []
  } catch {
    return []
  }
}

/**
 * Reads what an SBOM of the version says. A version whose scan is not stored (waiting, being
 * scanned, or unreadable to the scanner) has nothing to say yet: that is a 409 naming its state.
 */
export async function loadSbomSource(
  db: Kysely<Database>,
  versionId: number,
  /** The repositories, of those named, the caller may read: stored dependencies are described from those only. */
  readable: (repoKeys: string[]) => Promise<string[]>,
): Promise<SbomSource> {
  const version = await db
    .selectFrom('package_versions as v')
    .innerJoin('packages as p', 'p.id', 'v.package_id')
    .select(['v.id', 'v.version', 'v.licenses', 'v.description', 'p.package_type', 'p.name'])
    .where('v.id', '=', versionId)
    .executeTakeFirstOrThrow()
  const status = await db.selectFrom('scan_status').selectAll().where('version_id', '=', versionId).executeTakeFirst()
  const label = `${version.name}@${version.version}`
  if (!status || status.state === 'scanning')
    throw conflict(`${label} has not been scanned yet: its SBOM can be exported once the scan is stored`)
  if (status.state !== 'scanned' || status.scanned_at === null)
    throw conflict(`${label} could not be scanned${status.reason ? ` (${status.reason})` : ''}: it has no SBOM`)

  const [files, rows, findings] = await Promise.all([
    db
      .selectFrom('files')
      .select(['md5', 'sha1', 'sha256', 'lead', 'path'])
      .where('version_id', '=', versionId)
      .orderBy('lead', 'desc')
      .orderBy('path')
      .execute(),
    db
      .selectFrom('scan_components')
      .select(['id', 'ecosystem', 'release', 'name', 'version', 'path', 'binary_name', 'licenses'])
      .where('version_id', '=', versionId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('scan_findings as f')
      .innerJoin('advisories as a', 'a.id', 'f.advisory_id')
      .select([
        'f.component_id',
        'f.fixed',
        'f.severity',
        'a.id',
        'a.aliases',
        'a.summary',
        'a.details',
        'a.cvss_score',
        'a.cvss_vector',
        'a.published',
        'a.modified',
        'a.refs',
      ])
      .where('f.version_id', '=', versionId)
      .orderBy('a.id')
      .orderBy('f.component_id')
      .execute(),
  ])

  const purl = versionPurl(version.package_type, version.name, version.version)
  const lead = files[0]
  const root: SbomRoot = {
    ref: purl,
    packageType: version.package_type,
    name: version.name,
    version: version.version,
    purl,
    description: version.description,
    licenses: versionLicenses(version.licenses),
    hashes: lead ? { md5: lead.md5, sha1: lead.sha1, sha256: lead.sha256 } : null,
  }

  // The version's own component (path "") is the root; the same package found in several places is one component.
  const refOfRow = new Map<number, string>()
  const byPurl = new Map<string, SbomComponent>()
  const ownPackage = version.package_type !== 'docker' && version.package_type !== 'generic'
  for (const r of rows) {
    if (ownPackage && r.path === '') {
      refOfRow.set(r.id, root.ref)
      if (root.licenses.length === 0) root.licenses = storedLicenses(r.licenses)
      continue
    }
    const p = componentPurl({ ...r, binary: r.binary_name })
    const known = byPurl.get(p)
    if (known) {
      if (r.path && !known.paths.includes(r.path)) known.paths.push(r.path)
      refOfRow.set(r.id, known.ref)
      continue
    }
    const component: SbomComponent = {
      ref: p === root.ref ? `${p}#${r.path}` : p,
      ecosystem: r.ecosystem,
      name: r.binary_name ?? r.name,
      version: r.version,
      purl: p,
      licenses: storedLicenses(r.licenses),
      hashes: null,
      paths: r.path ? [r.path] : [],
    }
    byPurl.set(p, component)
    refOfRow.set(r.id, component.ref)
  }

  await describeStored(db, [...byPurl.values()], readable)

  const vulnerabilities = new Map<string, SbomVulnerability>()
  const versionOfRow = new Map(rows.map((r) => [r.id, r.version]))
  for (const f of findings) {
    const ref = refOfRow.get(f.component_id)
    if (!ref) continue
    let v = vulnerabilities.get(f.id)
    if (!v) {
      v = {
        id: f.id,
        aliases: JSON.parse(f.aliases) as string[],
        summary: f.summary,
        details: f.details,
        severity: f.severity as Severity,
        cvssScore: f.cvss_score,
        cvssVector: f.cvss_vector,
        published: f.published,
        modified: f.modified,
        references: JSON.parse(f.refs) as { type: string; url: string }[],
        affects: [],
      }
      vulnerabilities.set(f.id, v)
    }
    if (v.affects.some((a) => a.ref === ref)) continue
    v.affects.push({ ref, version: versionOfRow.get(f.component_id) ?? '', fixed: JSON.parse(f.fixed) as string[] })
  }

  const os = status.os ? /^(\S+)\s+(.+)$/.exec(status.os) : null
  return {
    root,
    os: os ? { name: os[1] as string, version: os[2] as string } : null,
    components: [...byPurl.values()],
    vulnerabilities: [...vulnerabilities.values()],
    scannedAt: status.scanned_at,
    relation: ownPackage ? 'dependsOn' : 'contains',
  }
}

/** The package types whose versions Trove stores, by the scanner ecosystem of their components. */
const STORED_TYPE: Partial<Record<string, string>> = { npm: 'npm', PyPI: 'pypi', Maven: 'maven' }

/**
 * Fills in what the scan does not store about a dependency (its declared licences, its file's
 * hashes) from the version itself when Trove holds it in a repository the caller may read.
 */
async function describeStored(
  db: Kysely<Database>,
  components: SbomComponent[],
  readable: (repoKeys: string[]) => Promise<string[]>,
): Promise<void> {
  const wanted = components.filter((c) => STORED_TYPE[c.ecosystem])
  for (let i = 0; i < wanted.length; i += 400) {
    const chunk = wanted.slice(i, i + 400)
    const rows = await db
      .selectFrom('package_versions as v')
      .innerJoin('packages as p', 'p.id', 'v.package_id')
      .leftJoin('files as f', (join) => join.onRef('f.version_id', '=', 'v.id').on('f.lead', '=', 1))
      .select(['p.package_type', 'p.lowercase_name', 'v.version', 'v.repo_key', 'v.licenses', 'f.md5', 'f.sha1', 'f.sha256'])
      .where('p.package_type', 'in', [...new Set(chunk.map((c) => STORED_TYPE[c.ecosystem] as string))])
      .where('p.lowercase_name', 'in', [...new Set(chunk.map((c) => c.name.toLowerCase()))])
      .where('v.version', 'in', [...new Set(chunk.map((c) => c.version))])
      .orderBy('v.repo_key')
      .execute()
    const allowed = new Set(await readable([...new Set(rows.map((r) => r.repo_key))]))
    const found = new Map<string, (typeof rows)[number]>()
    for (const r of rows) {
      const key = `${r.package_type}\u0000${r.lowercase_name}\u0000${r.version}`
      if (allowed.has(r.repo_key) && !found.has(key)) found.set(key, r)
    }
    for (const c of chunk) {
      const r = found.get(`${STORED_TYPE[c.ecosystem]}\u0000${c.name.toLowerCase()}\u0000${c.version}`)
      if (!r) continue
      if (c.licenses.length === 0) c.licenses = versionLicenses(r.licenses)
      if (r.md5 && r.sha1 && r.sha256) c.hashes = { md5: r.md5, sha1: r.sha1, sha256: r.sha256 }
    }
  }
}

/** Digits of a hash laid out as a UUID (version and variant bits set): stable for the same input. */
export function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex')
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** A file name for the document: the package's name without path separators, its version and the format's suffix. */
export function sbomFileName(root: SbomRoot, format: SbomFormat): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._+-]+/g, '_').replace(/^[._]+/, '')
  return `${safe(root.name) || 'package'}-${safe(root.version) || 'version'}.${format === 'cyclonedx' ? 'cdx' : 'spdx'}.json`
}

/** The licence expression of several declared licences: all of them apply (AND), each side kept whole. */
export function licenseExpression(licenses: SbomLicense[], refOf: (name: string) => string): string | null {
  const parts = licenses.map((l) => l.spdx ?? refOf(l.name))
  if (parts.length === 0) return null
  if (parts.length === 1) return parts[0] as string
  return parts.map((p) => (/\s(AND|OR)\s/.test(p) ? `(${p})` : p)).join(' AND ')
}

/** A `LicenseRef-` id for a licence name SPDX has no id for (letters, digits, "." and "-" only). */
export function licenseRefOf(name: string): string {
  const slug = name
    .replace(/[^A-Za-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `LicenseRef-${slug || 'unnamed'}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`
}
