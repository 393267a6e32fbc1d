import type { Dependency } from '../../modules/repositories/artifacts.js'

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
    for (const [name, range] of Object.entries(deps)) out.push({ name, range: String(range), scope })
  }
  return out
}

export function keywordsOf(m: Manifest): string[] {
  if (Array.isArray(m.keywords)) return m.keywords.filter((k: unknown): k is string => typeof k === 'string')
  if (typeof m.keywords === 'string') return m.keywords.split(/[\s,]+/)
  return []
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
