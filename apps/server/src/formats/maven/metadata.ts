import semver from 'semver'
import type { Dependency } from '../../modules/repositories/artifacts.js'

/** Coordinates read from a repository path `g/r/o/u/p/artifactId/version/file`. */
export interface MavenPath {
  groupId: string
  artifactId: string
  /** The version folder (`1.0`, `1.0-SNAPSHOT`). */
  version: string
  file: string
  /** The folder of all versions: `g/r/o/u/p/artifactId`. */
  artifactDir: string
  versionDir: string
}

export const CHECKSUM_EXTENSIONS = ['sha1', 'md5', 'sha256', 'sha512'] as const
export type ChecksumExtension = (typeof CHECKSUM_EXTENSIONS)[number]

export function checksumOf(path: string): { target: string; algorithm: ChecksumExtension } | undefined {
  const m = /^(.*)\.(sha1|md5|sha256|sha512)$/.exec(path)
  return m?.[1] && m[2] ? { target: m[1], algorithm: m[2] as ChecksumExtension } : undefined
}

export const isMetadataPath = (path: string) => path.split('/').pop() === 'maven-metadata.xml'
export const isSnapshot = (version: string) => version.endsWith('-SNAPSHOT')

/** An artifact file's coordinates, when the path has the layout of one. */
export function parseArtifactPath(path: string): MavenPath | undefined {
  const parts = path.split('/')
  if (parts.length < 4) return undefined
  const file = parts[parts.length - 1] as string
  const version = parts[parts.length - 2] as string
  const artifactId = parts[parts.length - 3] as string
  const group = parts.slice(0, -3)
  if (!file.startsWith(`${artifactId}-`)) return undefined
  return {
    groupId: group.join('.'),
    artifactId,
    version,
    file,
    artifactDir: [...group, artifactId].join('/'),
    versionDir: [...group, artifactId, version].join('/'),
  }
}

const SNAPSHOT_FILE = /^(\d{8}\.\d{6})-(\d+)(?:-([^.]+))?\.(.+)$/

/** For a timestamped snapshot file: its timestamp, build number, classifier and extension. */
export function snapshotParts(artifactId: string, version: string, file: string) {
  const base = version.replace(/-SNAPSHOT$/, '')
  const prefix = `${artifactId}-${base}-`
  if (!file.startsWith(prefix)) return undefined
  const m = SNAPSHOT_FILE.exec(file.slice(prefix.length))
  if (!m?.[1] || !m[2] || !m[4]) return undefined
  return { timestamp: m[1], buildNumber: Number(m[2]), classifier: m[3] ?? '', extension: m[4] }
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
const lastUpdated = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)

function compareVersions(a: string, b: string): number {
  const sa = semver.coerce(a)
  const sb = semver.coerce(b)
  if (sa && sb && !semver.eq(sa, sb)) return semver.compare(sa, sb)
  return a < b ? -1 : a > b ? 1 : 0
}

/** The artifact-level maven-metadata.xml: every version, latest, release (the highest non-snapshot). */
export function artifactMetadata(groupId: string, artifactId: string, versions: string[], now = Date.now()): string {
  const sorted = [...new Set(versions)].sort(compareVersions)
  const releases = sorted.filter((v) => !isSnapshot(v))
  const latest = sorted[sorted.length - 1]
  const release = releases[releases.length - 1]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<metadata>',
    `  <groupId>${xmlEscape(groupId)}</groupId>`,
    `  <artifactId>${xmlEscape(artifactId)}</artifactId>`,
    '  <versioning>',
    ...(latest ? [`    <latest>${xmlEscape(latest)}</latest>`] : []),
    ...(release ? [`    <release>${xmlEscape(release)}</release>`] : []),
    '    <versions>',
    ...sorted.map((v) => `      <version>${xmlEscape(v)}</version>`),
    '    </versions>',
    `    <lastUpdated>${lastUpdated(now)}</lastUpdated>`,
    '  </versioning>',
    '</metadata>',
    '',
  ].join('\n')
}

/** The version-level maven-metadata.xml of a snapshot: the newest build and each file's timestamped version. */
export function snapshotMetadata(
  groupId: string,
  artifactId: string,
  version: string,
  files: string[],
  now = Date.now(),
): string {
  const base = version.replace(/-SNAPSHOT$/, '')
  let newest: { timestamp: string; buildNumber: number } | undefined
  const byKind = new Map<string, { classifier: string; extension: string; value: string }>()
  for (const file of files) {
    const p = snapshotParts(artifactId, version, file)
    if (!p || CHECKSUM_EXTENSIONS.some((e) => p.extension.endsWith(`.${e}`))) continue
    if (!newest || p.buildNumber > newest.buildNumber) newest = { timestamp: p.timestamp, buildNumber: p.buildNumber }
    const key = `${p.classifier}|${p.extension}`
    const value = `${base}-${p.timestamp}-${p.buildNumber}`
    const current = byKind.get(key)
    if (!current || current.value < value) byKind.set(key, { classifier: p.classifier, extension: p.extension, value })
  }
  const updated = lastUpdated(now)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<metadata modelVersion="1.1.0">',
    `  <groupId>${xmlEscape(groupId)}</groupId>`,
    `  <artifactId>${xmlEscape(artifactId)}</artifactId>`,
    `  <version>${xmlEscape(version)}</version>`,
    '  <versioning>',
    ...(newest
      ? [
          '    <snapshot>',
          `      <timestamp>${newest.timestamp}</timestamp>`,
          `      <buildNumber>${newest.buildNumber}</buildNumber>`,
          '    </snapshot>',
        ]
      : []),
    `    <lastUpdated>${updated}</lastUpdated>`,
    '    <snapshotVersions>',
    ...[...byKind.values()].flatMap((s) => [
      '      <snapshotVersion>',
      ...(s.classifier ? [`        <classifier>${xmlEscape(s.classifier)}</classifier>`] : []),
      `        <extension>${xmlEscape(s.extension)}</extension>`,
      `        <value>${xmlEscape(s.value)}</value>`,
      `        <updated>${updated}</updated>`,
      '      </snapshotVersion>',
    ]),
    '    </snapshotVersions>',
    '  </versioning>',
    '</metadata>',
    '',
  ].join('\n')
}

export interface PomInfo {
  name?: string
  description?: string
  packaging: string
  licenses: string[]
  dependencies: Dependency[]
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, d) => String.fromCharCode(Number(d)))
    .replace(/&amp;/g, '&')

/** Reads what the console shows from a POM: its own elements only (not the parent's, the build's or profiles'). */
export function readPom(xml: string): PomInfo {
  const text = xml.replace(/<!--[\s\S]*?-->/g, '')
  const strip = (s: string, tag: string) => s.replace(new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`, 'g'), '')
  let own = text
  for (const tag of [
    'parent',
    'build',
    'profiles',
    'dependencyManagement',
    'reporting',
    'distributionManagement',
    'pluginRepositories',
    'repositories',
    'developers',
    'organization',
    'scm',
  ]) {
    own = strip(own, tag)
  }
  const first = (s: string, tag: string) => {
    const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(s)
    return m?.[1] !== undefined ? unescapeXml(m[1].trim()) : undefined
  }
  const all = (s: string, tag: string) => [...s.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] ?? '')
  const depsBlock =
    first(own, 'dependencies') !== undefined ? (/<dependencies>([\s\S]*?)<\/dependencies>/.exec(own)?.[1] ?? '') : ''
  const dependencies: Dependency[] = all(depsBlock, 'dependency').map((d) => ({
    name: `${first(d, 'groupId') ?? ''}:${first(d, 'artifactId') ?? ''}`,
    range: first(d, 'version') ?? '',
    scope: first(d, 'scope') ?? 'compile',
  }))
  const licensesBlock = /<licenses>([\s\S]*?)<\/licenses>/.exec(own)?.[1] ?? ''
  const withoutDeps = own.replace(/<dependencies>[\s\S]*?<\/dependencies>/, '').replace(/<licenses>[\s\S]*?<\/licenses>/, '')
  return {
    name: first(withoutDeps, 'name'),
    description: first(withoutDeps, 'description'),
    packaging: first(withoutDeps, 'packaging') ?? 'jar',
    licenses: all(licensesBlock, 'license')
      .map((l) => first(l, 'name'))
      .filter((n): n is string => Boolean(n)),
    dependencies,
  }
}
