/**
 * Go module paths and versions by Go's own rules (golang.org/x/mod/module and semver): the checks
 * of `module.CheckPath` and `module.Check`, the case escaping of proxy URLs (`!x` for `X`), and
 * what Trove reads from a module: go.mod's requirements, the README, the licence.
 */
import { toSpdx } from '../../core/licenses.js'

/** Windows' reserved file names: Go refuses them as path elements (before any dot). */
const WINDOWS_RESERVED = new Set([
  'CON',
  'PRN',
  'AUX',
  'NUL',
  ...Array.from({ length: 9 }, (_, i) => `COM${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `LPT${i + 1}`),
])

/** Why an element of a module path is refused, or null (module.checkElem with fileName false). */
function elementProblem(elem: string): string | null {
  if (elem === '') return 'empty path element'
  if (elem === '.' || elem === '..' || /^\.+$/.test(elem)) return `invalid path element ${JSON.stringify(elem)}`
  if (elem.startsWith('.')) return 'leading dot in path element'
  if (elem.endsWith('.')) return 'trailing dot in path element'
  if (!/^[A-Za-z0-9._~-]+$/.test(elem)) return `invalid char in path element ${JSON.stringify(elem)}`
  const short = elem.split('.')[0] ?? ''
  if (WINDOWS_RESERVED.has(short.toUpperCase())) return `${JSON.stringify(short)} disallowed as path element component on Windows`
  // Windows short names (PROGRA~1): a tilde followed only by digits.
  const tilde = short.lastIndexOf('~')
  if (tilde >= 0 && tilde < short.length - 1 && /^\d+$/.test(short.slice(tilde + 1)))
    return `trailing tilde and digits in path element`
  return null
}

/** The path and its major-version suffix (`/v2`, gopkg.in's `.v2`), as module.SplitPathVersion splits it. */
export function splitPathVersion(path: string): { prefix: string; major: string } | null {
  if (path.startsWith('gopkg.in/')) {
    const m = /^(.*)\.(v(?:0|[1-9]\d*)(?:-unstable)?)$/.exec(path)
    return m ? { prefix: m[1] ?? '', major: `.${m[2]}` } : null
  }
  const m = /^(.*?)(\/v(\d+))?$/.exec(path)
  if (!m?.[2]) return { prefix: path, major: '' }
  // /v0, /v1 and /v02 are not version suffixes: they are invalid (CheckPath refuses them below).
  if (!/^[1-9]\d*$/.test(m[3] ?? '') || m[3] === '1') return null
  return { prefix: m[1] ?? '', major: m[2] }
}

/** Why a module path is refused, or null: module.CheckPath. */
export function modulePathProblem(path: string): string | null {
  if (path === '') return 'empty module path'
  if (path.length > 1024) return 'module path is too long'
  if (!/^[\x21-\x7e]+$/.test(path)) return 'module path must be printable ASCII without spaces'
  if (path.startsWith('/') || path.endsWith('/')) return 'leading or trailing slash'
  const elems = path.split('/')
  for (const elem of elems) {
    const problem = elementProblem(elem)
    if (problem) return problem
  }
  const first = elems[0] ?? ''
  if (!first.includes('.')) return `missing dot in first path element`
  if (first.startsWith('-')) return 'leading dash in first path element'
  if (!/^[a-z0-9.-]+$/.test(first)) return `invalid char in first path element ${JSON.stringify(first)}`
  if (!splitPathVersion(path)) return 'invalid version suffix in module path'
  return null
}

const NUM = '0|[1-9]\\d*'
const PRE_ID = `(?:${NUM}|\\d*[A-Za-z-][0-9A-Za-z-]*)`
const SEMVER = new RegExp(
  `^v(${NUM})\\.(${NUM})\\.(${NUM})(?:-(${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`,
)

export interface GoVersion {
  major: number
  minor: number
  patch: number
  pre: string
  build: string
}

/** A canonical semantic version with Go's `v`, or null (`v1.2` and `1.2.3` are not canonical). */
export function parseGoVersion(version: string): GoVersion | null {
  const m = SEMVER.exec(version)
  if (!m) return null
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? '', build: m[5] ?? '' }
}

/** A pseudo-version (`v0.0.0-20210101000000-abcdef123456` and its two other forms). */
export function isPseudoVersion(version: string): boolean {
  const v = parseGoVersion(version)
  return v !== null && /(?:^|[.-])(?:0\.)?\d{14}-[0-9a-f]{12}$/.test(v.pre)
}

/** Why a version is refused for a module path, or null: module.Check (the major-version rules included). */
export function versionProblem(path: string, version: string): string | null {
  const v = parseGoVersion(version)
  if (!v) return `${JSON.stringify(version)} is not a canonical semantic version (vMAJOR.MINOR.PATCH)`
  if (v.build && v.build !== 'incompatible') return 'build metadata other than +incompatible is not allowed'
  const split = splitPathVersion(path)
  if (!split) return 'invalid version suffix in module path'
  if (split.major.startsWith('.')) {
    // gopkg.in/x.v2: the version's major must match (v0 paths take v0 and v1 versions).
    const want = split.major.slice(2).replace('-unstable', '')
    const ok = want === '0' ? v.major <= 1 : String(v.major) === want
    return ok && !v.build ? null : `should be v${want}, not v${v.major}`
  }
  if (split.major) {
    const want = Number(split.major.slice(2))
    if (v.build) return `+incompatible is only for modules without a /vN suffix`
    return v.major === want ? null : `should be v${want}, not v${v.major} (the module path ends in ${split.major})`
  }
  if (v.build === 'incompatible') return v.major >= 2 ? null : '+incompatible is only for major versions 2 and above'
  return v.major <= 1 ? null : `should be v0 or v1, not v${v.major} (add /v${v.major} to the module path, or +incompatible)`
}

/** Proxy URLs write upper-case letters as `!` and the lower-case one (module.EscapePath). */
export function escapeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`)
}

/** The path or version an escaped URL segment stands for; null when the escaping is invalid. */
export function unescapeCase(s: string): string | null {
  if (/[A-Z]/.test(s)) return null
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string
    if (c !== '!') {
      out += c
      continue
    }
    const next = s[i + 1]
    if (!next || !/[a-z]/.test(next)) return null
    out += next.toUpperCase()
    i++
  }
  return out
}

/** Orders Go versions as Go does: semver precedence (build metadata ignored). */
export function compareGoVersions(a: string, b: string): number {
  const x = parseGoVersion(a)
  const y = parseGoVersion(b)
  if (!x || !y) return x ? 1 : y ? -1 : a < b ? -1 : a > b ? 1 : 0
  for (const k of ['major', 'minor', 'patch'] as const) if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1
  if (x.pre === y.pre) return 0
  if (!x.pre) return 1
  if (!y.pre) return -1
  const p = x.pre.split('.')
  const q = y.pre.split('.')
  for (let i = 0; i < Math.max(p.length, q.length); i++) {
    const s = p[i]
    const t = q[i]
    if (s === undefined) return -1
    if (t === undefined) return 1
    if (s === t) continue
    const sn = /^\d+$/.test(s)
    const tn = /^\d+$/.test(t)
    if (sn && tn) return s.length !== t.length ? s.length - t.length : s < t ? -1 : 1
    if (sn) return -1
    if (tn) return 1
    return s < t ? -1 : 1
  }
  return 0
}

/**
 * The version `@latest` names among `versions`: the highest release, else the highest pre-release
 * (pseudo-versions included), as the go command picks from a proxy's list.
 */
export function latestOf(versions: string[]): string | undefined {
  const valid = versions.filter((v) => parseGoVersion(v))
  const releases = valid.filter((v) => !parseGoVersion(v)?.pre)
  const pool = releases.length > 0 ? releases : valid
  return pool.sort(compareGoVersions).at(-1)
}

export interface GoModFile {
  module: string | null
  go: string | null
  requires: { path: string; version: string; indirect: boolean }[]
}

const unquote = (s: string) => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s.startsWith('`') ? s.slice(1, -1) : s)

/** The module directive, the go version and the `require` lines (single and blocks) of a go.mod. */
export function parseGoMod(text: string): GoModFile {
  const out: GoModFile = { module: null, go: null, requires: [] }
  let block: string | null = null
  for (const raw of text.split('\n')) {
    const comment = raw.indexOf('//')
    const indirect = comment >= 0 && /^\/\/\s*indirect\b/.test(raw.slice(comment).trim())
    const line = (comment >= 0 ? raw.slice(0, comment) : raw).trim()
    if (!line) continue
    if (block) {
      if (line === ')') {
        block = null
        continue
      }
      if (block === 'require') {
        const [path, version] = line.split(/\s+/)
        if (path && version) out.requires.push({ path: unquote(path), version, indirect })
      }
      continue
    }
    const [verb, ...args] = line.split(/\s+/)
    if (args[0] === '(') {
      block = verb ?? ''
      continue
    }
    if (verb === 'module' && args[0]) out.module = unquote(args[0])
    else if (verb === 'go' && args[0]) out.go = args[0]
    else if (verb === 'require' && args[0] && args[1]) out.requires.push({ path: unquote(args[0]), version: args[1], indirect })
  }
  return out
}

/**
 * The licence of a LICENSE file, as an SPDX id, from the texts' well-known openings; null when
 * none fits (pkg.go.dev runs a full text classifier; these cover most modules).
 */
export function detectLicense(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim()
  const head = t.slice(0, 400)
  if (/Apache License,? Version 2\.0/i.test(head)) return 'Apache-2.0'
  if (/Mozilla Public License,? (?:Version|v\.?) ?2\.0/i.test(head)) return 'MPL-2.0'
  if (/GNU LESSER GENERAL PUBLIC LICENSE Version 3/i.test(head)) return 'LGPL-3.0-only'
  if (/GNU AFFERO GENERAL PUBLIC LICENSE Version 3/i.test(head)) return 'AGPL-3.0-only'
  if (/GNU GENERAL PUBLIC LICENSE Version 3/i.test(head)) return 'GPL-3.0-only'
  if (/GNU GENERAL PUBLIC LICENSE Version 2/i.test(head)) return 'GPL-2.0-only'
  if (/Permission is hereby granted, free of charge, to any person obtaining a copy/i.test(t)) return 'MIT'
  if (/Permission to use, copy, modify, and\/or distribute this software for any purpose/i.test(t)) return 'ISC'
  if (/Redistribution and use in source and binary forms/i.test(t)) {
    return /Neither the name|names of its contributors/i.test(t) ? 'BSD-3-Clause' : 'BSD-2-Clause'
  }
  if (/This is free and unencumbered software released into the public domain/i.test(t)) return 'Unlicense'
  // A first line that names its licence ("MIT License", "BSD 3-Clause License").
  const first = text.split('\n').find((l) => l.trim() !== '')
  return first && first.length < 80 && /licen[cs]e/i.test(first) ? toSpdx(first.trim()) : null
}

/** A one-line description from a README: its first paragraph of prose (headings, badges and code skipped). */
export function describeReadme(readme: string): string {
  let fenced = false
  const paragraph: string[] = []
  for (const raw of readme.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('```')) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    if (!line) {
      if (paragraph.length > 0) break
      continue
    }
    if (/^(#|=+$|-+$|!\[|\[!\[|<)/.test(line)) {
      if (paragraph.length > 0) break
      continue
    }
    paragraph.push(line)
  }
  // As plain text: links keep their words, code and emphasis marks go.
  const text = paragraph
    .join(' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
  return text.length > 300 ? `${text.slice(0, 297)}...` : text
}
