import semver from 'semver'
import type { Dependency } from '../../storage/artifacts.js'

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

/** Where the next `<tag>` (or, with attributes allowed, `<tag …>`) opens at or after `from`, or -1. */
function openingOf(text: string, tag: string, from: number, withAttributes: boolean): number {
  for (let at = text.indexOf(`<${tag}`, from); at >= 0; at = text.indexOf(`<${tag}`, at + 1)) {
    const next = text[at + tag.length + 1]
    if (next === '>' || (withAttributes && next !== undefined && /\s/.test(next))) return at
  }
  return -1
}

/**
 * The `<tag>…</tag>` elements of a text, outermost first, each closed by the next `</tag>`. Found
 * with indexOf, never a lazy regular expression: a POM full of unclosed tags or comments is read
 * in linear time (a backtracking match took seconds on a few hundred kilobytes of `<!--`).
 */
function elements(text: string, tag: string, withAttributes = false): { start: number; end: number; inner: string }[] {
  const found: { start: number; end: number; inner: string }[] = []
  const close = `</${tag}>`
  for (let from = 0; ; ) {
    const start = openingOf(text, tag, from, withAttributes)
    if (start < 0) break
    const openEnd = text.indexOf('>', start)
    const closeAt = openEnd < 0 ? -1 : text.indexOf(close, openEnd + 1)
    if (closeAt < 0) break
    const innerStart = openEnd + 1
    found.push({ start, end: closeAt + close.length, inner: text.slice(innerStart, closeAt) })
    from = closeAt + close.length
  }
  return found
}

/** The text without the given elements (or comments, with tag `!--`). */
function without(text: string, spans: { start: number; end: number }[]): string {
  let out = ''
  let at = 0
  for (const span of spans) {
    out += text.slice(at, span.start)
    at = span.end
  }
  return out + text.slice(at)
}

function comments(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = []
  for (let from = 0; ; ) {
    const start = text.indexOf('<!--', from)
    if (start < 0) break
    const end = text.indexOf('-->', start + 4)
    if (end < 0) break
    spans.push({ start, end: end + 3 })
    from = end + 3
  }
  return spans
}

/** Reads what the console shows from a POM: its own elements only (not the parent's, the build's or profiles'). */
export function readPom(xml: string): PomInfo {
  const text = without(xml, comments(xml))
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
    own = without(own, elements(own, tag, true))
  }
  const first = (s: string, tag: string) => {
    const inner = elements(s, tag)[0]?.inner
    return inner !== undefined ? unescapeXml(inner.trim()) : undefined
  }
  const all = (s: string, tag: string) => elements(s, tag).map((e) => e.inner)
  const depsElement = elements(own, 'dependencies')[0]
  const dependencies: Dependency[] = all(depsElement?.inner ?? '', 'dependency').map((d) => ({
    name: `${first(d, 'groupId') ?? ''}:${first(d, 'artifactId') ?? ''}`,
    range: first(d, 'version') ?? '',
    scope: first(d, 'scope') ?? 'compile',
  }))
  const licensesElement = elements(own, 'licenses')[0]
  const withoutDeps = without(
    own,
    [depsElement, licensesElement].filter((e) => e !== undefined).sort((a, b) => a.start - b.start),
  )
  return {
    name: first(withoutDeps, 'name'),
    description: first(withoutDeps, 'description'),
    packaging: first(withoutDeps, 'packaging') ?? 'jar',
    licenses: all(licensesElement?.inner ?? '', 'license')
      .map((l) => first(l, 'name'))
      .filter((n): n is string => Boolean(n)),
    dependencies,
  }
}
