import { HttpError } from '../../core/errors.js'

/** One deb822 paragraph (a control file, a Packages entry, a Release file): fields in their order. */
export type Paragraph = [name: string, value: string][]

/**
 * Parses deb822 text into paragraphs. A field's continuation lines (starting with a space or a tab)
 * are kept as written, joined with newlines, so a paragraph written back is the same text.
 */
export function parseParagraphs(text: string): Paragraph[] {
  const paragraphs: Paragraph[] = []
  let current: Paragraph = []
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (current.length > 0) paragraphs.push(current)
      current = []
      continue
    }
    if (line.startsWith('#')) continue
    if (line.startsWith(' ') || line.startsWith('\t')) {
      const last = current.at(-1)
      if (!last) throw new HttpError(400, `Refused control data: a continuation line comes before any field (${line.trim()})`)
      last[1] = `${last[1]}\n${line}`
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) throw new HttpError(400, `Refused control data: ${JSON.stringify(line.slice(0, 80))} is not a field`)
    current.push([line.slice(0, colon), line.slice(colon + 1).trim()])
  }
  if (current.length > 0) paragraphs.push(current)
  return paragraphs
}

/** A field's value by name (deb822 names are case-insensitive). */
export function field(paragraph: Paragraph, name: string): string | undefined {
  const lower = name.toLowerCase()
  return paragraph.find(([n]) => n.toLowerCase() === lower)?.[1]
}

/** A paragraph as deb822 text, ending with a newline. */
export function formatParagraph(paragraph: Paragraph): string {
  return `${paragraph.map(([n, v]) => `${n}: ${v}`.replace(/: \n/, ':\n')).join('\n')}\n`
}

/** Debian policy §5.6.1: lower-case letters, digits, `+`, `-` and `.`, at least two, starting alphanumeric. */
export const PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+$/
/** An architecture name (`amd64`, `arm64`, `all`, `musl-linux-arm64`). */
export const ARCHITECTURE = /^[a-z0-9][a-z0-9-]*$/
/** A distribution or component name as it appears in a path (`bookworm`, `stable-updates`, `main`, `non-free`). */
export const SUITE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * Whether a version follows Debian policy §5.6.12: `[epoch:]upstream[-revision]`, the upstream part
 * starting with a digit; a colon only with an epoch, a hyphen only with a revision.
 */
export function isDebianVersion(version: string): boolean {
  const m = /^(?:(\d+):)?(.+)$/.exec(version)
  if (!m) return false
  const rest = m[2] as string
  const hyphen = rest.lastIndexOf('-')
  const upstream = hyphen < 0 ? rest : rest.slice(0, hyphen)
  const revision = hyphen < 0 ? undefined : rest.slice(hyphen + 1)
  if (!/^[0-9][A-Za-z0-9.+~-]*$/.test(upstream)) return false
  if (hyphen < 0 && upstream.includes('-')) return false
  if (!m[1] && upstream.includes(':')) return false
  return revision === undefined || /^[A-Za-z0-9.+~]+$/.test(revision)
}

/** One relation of a Depends-like field: `libc6 (>= 2.34)` → name and constraint, `foo:any` without its qualifier. */
export interface Relation {
  name: string
  constraint: string
}

/** The relations of a Depends-like field; each alternative of `a | b` is one relation. */
export function parseRelations(value: string | undefined): Relation[] {
  if (!value) return []
  const relations: Relation[] = []
  for (const group of value.split(',')) {
    for (const alternative of group.split('|')) {
      const m = /^\s*([a-z0-9][a-z0-9+.-]*)(?::[a-z0-9-]+)?\s*(?:\(\s*([<>=]+)\s*([^)\s]+)\s*\))?/.exec(alternative)
      if (m) relations.push({ name: m[1] as string, constraint: m[2] ? `${m[2]} ${m[3]}` : '' })
    }
  }
  return relations
}

/** A Description field split into its synopsis (first line) and its extended text as plain paragraphs. */
export function splitDescription(value: string | undefined): { synopsis: string; extended: string } {
  const [first = '', ...rest] = (value ?? '').split('\n')
  const extended = rest
    .map((line) => line.replace(/^[ \t]/, ''))
    .map((line) => (line.trim() === '.' ? '' : line))
    .join('\n')
    .trim()
  return { synopsis: first.trim(), extended }
}
