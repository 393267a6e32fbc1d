import type { PackageNode, VersionFile, VersionNode } from '@trove/contracts/packages'
import { splitPackageId } from '@trove/contracts/packages'
import { INSTALL_COMMANDS, README_EXTENSIONS } from '@trove/contracts/searchConstants'

/** The three levels of /packages/:packageId?/:versionId? (packages §2). */
export type PackagesLevel = 'list' | 'package' | 'version'
export function levelOf(packageId?: string, versionId?: string): PackagesLevel {
  if (!packageId) return 'list'
  return versionId ? 'version' : 'package'
}

export type VersionTab = 'readme' | 'builds' | 'location' | 'xrayData' | 'releases' | 'dockerLayers'

/** The tabs of the version view (§2); the legacy view has readme, builds and docker layers (docker only). */
export function versionTabs(packageType: string, legacy: boolean): VersionTab[] {
  const docker = packageType === 'docker'
  if (legacy) return docker ? ['readme', 'builds', 'dockerLayers'] : ['readme', 'builds']
  const tabs: VersionTab[] = ['readme', 'builds', 'location', 'xrayData', 'releases']
  return docker ? [...tabs, 'dockerLayers'] : tabs
}

/** The tab labels (§2): xrayData reads Security when only the artifact manager runs. */
export function tabLabel(tab: VersionTab, scannerPresent: boolean): string {
  switch (tab) {
    case 'readme':
      return 'Readme'
    case 'builds':
      return 'Builds'
    case 'location':
      return 'Location'
    case 'xrayData':
      return scannerPresent ? 'Xray Data' : 'Security'
    case 'releases':
      return 'Releases'
    case 'dockerLayers':
      return 'Docker Layers'
  }
}

/** The extension of a file path, without the dot, lowercased ('' when none). */
export function extensionOf(path: string | null | undefined): string {
  const base = (path ?? '').split('/').pop() ?? ''
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
}

/**
 * The formats whose versions list their dependencies under the readme (from package.json, a
 * wheel's or sdist's Requires-Dist, the POM, go.mod, Chart.yaml, the gemspec, Cargo.toml, the
 * nuspec, the control file's relations, composer.json).
 */
const WITH_DEPENDENCIES: ReadonlySet<string> = new Set([
  'npm',
  'pypi',
  'maven',
  'go',
  'helm',
  'gems',
  'cargo',
  'nuget',
  'debian',
  'composer',
])
export const listsDependencies = (packageType: string) => WITH_DEPENDENCIES.has(packageType)

/** §2: readme when the lead file's extension is a readme extension; else docker layers for docker; else builds. */
export function defaultTab(leadFilePath: string | null | undefined, packageType: string): VersionTab {
  if ((README_EXTENSIONS as readonly string[]).includes(extensionOf(leadFilePath))) return 'readme'
  return packageType === 'docker' ? 'dockerLayers' : 'builds'
}

/** §3: the digest is the sha256 of the lead file, or of the file whose name ends with manifest.json. */
export function digestOf(files: Partial<VersionFile>[] | undefined): string | null {
  const file = files?.find((f) => f.lead) ?? files?.find((f) => f.name?.endsWith('manifest.json'))
  return file?.sha256 ?? null
}

/** §3: the part of the package id before '://' gives the set-me-up type. */
export function setMeUpType(packageId: string): string | null {
  return splitPackageId(packageId)?.type ?? null
}

/** §5: a go module's .mod file is shown as .zip. */
export function displayFileName(name: string, packageType: string): string {
  return packageType === 'go' && name.endsWith('.mod') ? `${name.slice(0, -'.mod'.length)}.zip` : name
}

/** The lead file's repository path of a version: the first repository that names one. */
export function leadFileOf(version: VersionNode): { repoKey: string; path: string } | null {
  for (const repo of version.repos ?? [])
    if (repo.name && repo.leadFilePath) return { repoKey: repo.name, path: repo.leadFilePath }
  return null
}

/**
 * §9: the install command of a type, with the version form when a version is given. An image is
 * pulled through this server, from the repository that holds it: host/repository/name.
 */
export function installCommand(pkg: PackageNode, version?: string, repoKey?: string, host = window.location.host): string | null {
  const type = pkg.packageType ?? setMeUpType(pkg.id ?? '') ?? ''
  const command = INSTALL_COMMANDS[type]
  if (!command || !pkg.name) return null
  // A bare image name is pulled from Docker Hub: without its repository there is no right command.
  if (type === 'docker' && !repoKey) return null
  const inRepo = (type === 'docker' || type === 'helmoci') && repoKey ? `${repoKey}/${pkg.name}` : pkg.name
  const name = type === 'docker' ? `${host}/${inRepo}` : inRepo
  // An image without a tag means `latest`, which it need not have: the package level names its latest version.
  const pinned = version ?? (type === 'docker' ? (pkg.latestVersion ?? undefined) : undefined)
  const text = pinned ? command.versioned : command.plain
  return text
    .replaceAll('{name}', name)
    .replaceAll('{version}', pinned ?? '')
    .replaceAll('{host}', host)
}

export { formatSize } from '../../lib/format'

/** A semver release version (x.y.z, no pre-release). */
export const isReleaseVersion = (name: string) => /^v?\d+\.\d+\.\d+(\+[0-9A-Za-z.-]+)?$/.test(name)
