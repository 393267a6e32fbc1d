import type { Dependency } from '../../storage/artifacts.js'

/** PEP 503 normalization: lower case, runs of `-`, `_` and `.` become one `-`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-')
}

/** A project name as PEP 508 allows it (letters and digits at both ends, `-_.` inside). */
export function validProjectName(name: string): boolean {
  return /^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/.test(name) && name.length <= 200
}

/** A version as clients write it: PEP 440's characters, no path separators. */
export function validVersion(version: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9.+!_-]*$/.test(version) && version.length <= 128
}

export type DistKind = 'wheel' | 'sdist' | 'egg'

/**
 * The project and version a distribution's file name carries: wheels (PEP 427,
 * `name-version-…whl`), eggs, and sdists (`name-version.tar.gz` / `.zip`, where the version is what
 * follows the name given). Undefined for names that are neither.
 */
export function parseFilename(filename: string, project?: string): { name: string; version: string; kind: DistKind } | undefined {
  // No file system keeps a longer name, and the project search below is quadratic in the length.
  if (filename.length > 255 || filename.includes('/') || filename.includes('\\')) return undefined
  const wheel = /^([^-]+)-([^-]+)-(?:[0-9][^-]*-)?[^-]+-[^-]+-[^-]+\.whl$/.exec(filename)
  if (wheel?.[1] && wheel[2]) return { name: wheel[1], version: wheel[2], kind: 'wheel' }
  const egg = /^([^-]+)-([^-]+)(?:-.*)?\.egg$/.exec(filename)
  if (egg?.[1] && egg[2]) return { name: egg[1], version: egg[2], kind: 'egg' }
  const sdist = /^(.+)\.(tar\.gz|tar\.bz2|tar\.xz|tgz|zip|tar)$/.exec(filename)
  if (!sdist?.[1]) return undefined
  const stem = sdist[1]
  if (project) {
    // The name part may itself hold dashes: cut where the normalized project name ends.
    for (let i = stem.indexOf('-'); i > 0; i = stem.indexOf('-', i + 1)) {
      if (normalizeName(stem.slice(0, i)) === normalizeName(project)) {
        const version = stem.slice(i + 1)
        return version ? { name: stem.slice(0, i), version, kind: 'sdist' } : undefined
      }
    }
    return undefined
  }
  const cut = stem.lastIndexOf('-')
  if (cut <= 0 || cut === stem.length - 1) return undefined
  return { name: stem.slice(0, cut), version: stem.slice(cut + 1), kind: 'sdist' }
}

/** The `filetype` field twine sends for a file, from its name. */
export function filetypeOf(filename: string): string {
  if (filename.endsWith('.whl')) return 'bdist_wheel'
  if (filename.endsWith('.egg')) return 'bdist_egg'
  return 'sdist'
}

/** Core metadata (PKG-INFO / METADATA): RFC 822 headers, the body is the long description. */
export function parseCoreMetadata(text: string): { fields: Record<string, string[]>; body: string } {
  // Keys are the file's own (`__proto__: x` is a field like any other), so no prototype to collide with.
  const fields: Record<string, string[]> = Object.create(null)
  const normalized = text.replace(/\r\n/g, '\n')
  const end = normalized.indexOf('\n\n')
  const head = end < 0 ? normalized : normalized.slice(0, end)
  const body = end < 0 ? '' : normalized.slice(end + 2)
  let last: { key: string; index: number } | undefined
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && last) {
      const list = fields[last.key] as string[]
      // Continuation lines (old-style Description folded with 8 spaces or "|").
      list[last.index] = `${list[last.index]}\n${line.replace(/^( {8}|\t| *\| ?)/, '')}`
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const key = line.slice(0, colon).trim().toLowerCase().replace(/-/g, '_')
    const value = line.slice(colon + 1).trim()
    const list = fields[key] ?? []
    list.push(value)
    fields[key] = list
    last = { key, index: list.length - 1 }
  }
  return { fields, body }
}

/** `requests (>=2.0) ; extra == "socks"` → name, range and scope (`runtime`, or `extra:<name>`). */
export function parseRequirement(spec: string): Dependency | undefined {
  const [requirement = '', ...markerParts] = spec.split(';')
  const marker = markerParts.join(';').trim()
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/.exec(requirement)
  if (!m?.[1]) return undefined
  const range = (m[3] ?? '')
    .trim()
    .replace(/^\((.*)\)$/, '$1')
    .trim()
  const extra = /extra\s*==\s*["']([^"']+)["']/.exec(marker)?.[1]
  return {
    name: normalizeName(m[1]),
    range: [range || '*', marker && !extra ? `; ${marker}` : ''].join(''),
    scope: extra ? `extra:${extra}` : 'runtime',
  }
}

/** Licences a project declares: License-Expression, a short License field, or its licence classifiers. */
export function licensesOf(fields: Record<string, string[] | undefined>): string[] {
  const expression = fields.license_expression?.[0]?.trim()
  if (expression) return [expression]
  const fromClassifiers = (fields.classifiers ?? fields.classifier ?? [])
    .filter((c) => c.startsWith('License ::'))
    .map((c) => c.split('::').pop()?.trim() ?? '')
    .filter((c) => c && c !== 'OSI Approved')
  const license = fields.license?.[0]?.trim()
  // Some projects paste the whole licence text in License: the classifiers say it better then.
  if (license && license.length <= 100 && !license.includes('\n') && license.toUpperCase() !== 'UNKNOWN') return [license]
  return [...new Set(fromClassifiers)]
}

/** Keywords: comma-separated in current metadata, space-separated in older. */
export function keywordsOf(value: string | undefined): string[] {
  if (!value) return []
  const parts = value.includes(',') ? value.split(',') : value.split(/\s+/)
  return [...new Set(parts.map((k) => k.trim()).filter(Boolean))]
}

/** What Trove keeps of a version to answer clients and fill the console. */
export interface PypiVersionMetadata {
  /** The name as the project spells it (the package row holds the normalized one). */
  name: string
  version: string
  summary: string
  requiresPython: string | null
  author: string | null
  authorEmail: string | null
  homePage: string | null
  projectUrls: string[]
  classifiers: string[]
  descriptionContentType: string | null
  /** Per file name: the form's filetype and pyversion. */
  files: Record<string, { filetype: string; pyversion: string; coreMetadata?: string }>
}

/** Version facts from form fields or core metadata (both normalized to snake_case keys). */
export function versionFacts(fields: Record<string, string[] | undefined>, longDescription: string | undefined) {
  const first = (k: string) => {
    const v = fields[k]?.[0]?.trim()
    return v && v.toUpperCase() !== 'UNKNOWN' ? v : null
  }
  const requires = (fields.requires_dist ?? []).flatMap((r) => r.split('\n')).filter((r) => r.trim())
  const dependencies = requires.map(parseRequirement).filter((d): d is Dependency => d !== undefined)
  const projectUrls = (fields.project_urls ?? fields.project_url ?? []).filter(Boolean)
  return {
    summary: first('summary') ?? '',
    readme: longDescription?.trim() && longDescription.trim().toUpperCase() !== 'UNKNOWN' ? longDescription : null,
    licenses: licensesOf(fields),
    keywords: keywordsOf(first('keywords') ?? undefined),
    dependencies,
    requiresPython: first('requires_python'),
    // Current metadata often names the author only in `Author-email: Name <address>`.
    author: first('author') ?? first('maintainer') ?? /^\s*"?([^"<,]+?)"?\s*</.exec(first('author_email') ?? '')?.[1] ?? null,
    authorEmail: first('author_email') ?? first('maintainer_email'),
    homePage:
      first('home_page') ??
      // Current metadata names it among the project URLs: `Homepage, https://…`.
      projectUrls.find((u) => /^home[-_ ]?page\s*,/i.test(u))?.replace(/^[^,]*,\s*/, '') ??
      first('download_url'),
    projectUrls,
    classifiers: (fields.classifiers ?? fields.classifier ?? []).filter(Boolean),
    descriptionContentType: first('description_content_type'),
  }
}
