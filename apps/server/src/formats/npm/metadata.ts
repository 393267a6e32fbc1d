import crypto from 'node:crypto'
import semver from 'semver'
import { HttpError } from '../../core/errors.js'
import type { Dependency } from '../../storage/artifacts.js'

// biome-ignore lint/suspicious/noExplicitAny: npm manifests are free-form JSON
export type Manifest = Record<string, any>

/** npm package names: optional @scope/, then URL-safe characters (npm's own rule, lower case for new names). */
const NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/i

export function validPackageName(name: string): boolean {
  return name.length > 0 && name.length <= 214 && NAME.test(name)
}

/** The tarball file name npm gives a version: `<name without scope>-<version>.tgz`. */
export function tarballName(name: string, version: string): string {
  return `${name.split('/').pop()}-${version}.tgz`
}

/** Repository path of a version's tarball. */
export function tarballPath(name: string, version: string): string {
  return `${name}/-/${tarballName(name, version)}`
}

/** Licence names as the package declares them (`license`, or the old `licenses` array). */
export function declaredLicenses(m: Manifest): string[] {
  const out: string[] = []
  const add = (l: unknown) => {
    if (typeof l === 'string' && l.trim()) out.push(l.trim())
    else if (l && typeof l === 'object' && typeof (l as { type?: unknown }).type === 'string')
      out.push((l as { type: string }).type)
  }
  add(m.license)
  if (Array.isArray(m.licenses)) for (const l of m.licenses) add(l)
  return [...new Set(out)]
}

export function dependenciesOf(m: Manifest): Dependency[] {
  const scopes: [string, string][] = [
    ['dependencies', 'runtime'],
    ['devDependencies', 'dev'],
    ['peerDependencies', 'peer'],
    ['optionalDependencies', 'optional'],
  ]
  const out: Dependency[] = []
  for (const [field, scope] of scopes) {
    const deps = m[field]
    if (!deps || typeof deps !== 'object') continue
    for (const [name, range] of Object.entries(deps))
      out.push({ name, range: typeof range === 'string' ? range : JSON.stringify(range), scope })
  }
  return out
}

export function keywordsOf(m: Manifest): string[] {
  if (Array.isArray(m.keywords)) return m.keywords.filter((k: unknown): k is string => typeof k === 'string')
  if (typeof m.keywords === 'string') return m.keywords.split(/[\s,]+/)
  return []
}

const isObject = (v: unknown): v is Manifest => typeof v === 'object' && v !== null && !Array.isArray(v)

/** What a publish carries once its body is checked: the one version, its manifest, the tarball and the dist-tags. */
export interface PublishBody {
  version: string
  manifest: Manifest
  data: Buffer
  distTags: Record<string, string>
}

/**
 * Checks the body of `npm publish` (a PUT of the package with one version and its tarball as a
 * base64 attachment) before anything is looked up or stored: every field a client sends is read
 * for its type, the attachment's length and `dist.integrity` are checked against its data.
 */
export function readPublishBody(name: string, body: unknown): PublishBody {
  if (!validPackageName(name)) throw new HttpError(400, `name: ${JSON.stringify(name)} is not a valid npm package name`)
  if (!isObject(body)) throw new HttpError(400, 'Invalid request: a JSON body is required')
  if (body.name !== undefined && body.name !== name) throw new HttpError(400, 'name: does not match the package in the URL')
  const attachments = isObject(body._attachments) ? Object.entries(body._attachments) : []
  const versions = isObject(body.versions) ? Object.entries(body.versions) : []
  if (attachments.length !== 1 || versions.length !== 1) {
    throw new HttpError(400, '_attachments: a publish carries exactly one version and its tarball')
  }
  const [[version, manifest]] = versions as [[string, unknown]]
  const [[fileName, attachment]] = attachments as [[string, unknown]]
  if (!isObject(manifest) || manifest.version !== version || manifest.name !== name)
    throw new HttpError(400, 'versions: the manifest names another package or version')
  if (!semver.valid(version)) throw new HttpError(400, `versions: ${JSON.stringify(version)} is not a semantic version`)
  if (manifest.dist !== undefined && !isObject(manifest.dist)) throw new HttpError(400, 'versions: dist must be an object')
  if (fileName !== tarballName(name, version) && fileName !== `${name}-${version}.tgz`) {
    throw new HttpError(400, `_attachments: expected ${tarballName(name, version)}`)
  }
  if (!isObject(attachment) || typeof attachment.data !== 'string') throw new HttpError(400, '_attachments: data missing')
  const data = Buffer.from(attachment.data, 'base64')
  if (typeof attachment.length === 'number' && attachment.length !== data.length) {
    throw new HttpError(
      400,
      `Checksum mismatch: _attachments.length says ${attachment.length} bytes, the data has ${data.length}`,
    )
  }
  const integrity = typeof manifest.dist?.integrity === 'string' ? manifest.dist.integrity : undefined
  if (integrity) {
    for (const part of integrity.split(/\s+/)) {
      const [alg, digest] = part.split('-', 2)
      if (!alg || !digest || !['sha512', 'sha384', 'sha256', 'sha1'].includes(alg)) continue
      const actual = crypto.createHash(alg).update(data).digest('base64')
      if (actual !== digest)
        throw new HttpError(400, `Checksum mismatch: dist.integrity says ${part}, the tarball's is ${alg}-${actual}`)
    }
  }
  const tags = body['dist-tags'] ?? { latest: version }
  if (!isObject(tags) || Object.values(tags).some((v) => typeof v !== 'string'))
    throw new HttpError(400, 'dist-tags: must map tags to versions')
  return { version, manifest, data, distTags: tags as Record<string, string> }
}

/** The fields of the abbreviated (install) packument's version objects. */
const ABBREVIATED_FIELDS = [
  'name',
  'version',
  'deprecated',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'bundledDependencies',
  'acceptDependencies',
  'bin',
  'directories',
  'dist',
  'engines',
  'os',
  'cpu',
  'funding',
  'license',
  '_hasShrinkwrap',
  'hasInstallScript',
]

export function abbreviate(packument: Manifest): Manifest {
  const versions: Manifest = {}
  for (const [v, m] of Object.entries(packument.versions ?? {}) as [string, Manifest][]) {
    const out: Manifest = {}
    for (const f of ABBREVIATED_FIELDS) if (m[f] !== undefined) out[f] = m[f]
    if (m.scripts && (m.scripts.install || m.scripts.preinstall || m.scripts.postinstall)) out.hasInstallScript = true
    versions[v] = out
  }
  return { name: packument.name, modified: packument.time?.modified, 'dist-tags': packument['dist-tags'] ?? {}, versions }
}
