/**
 * Declared licences ("Apache 2.0", "MIT License", "GPLv3", "MIT/Apache-2.0", an SPDX expression)
 * as SPDX ids or expressions, so licence policies compare like with like. spdx-correct guesses an
 * id from a free-text name, spdx-expression-parse reads expressions; the rest is the glue that
 * keeps either from losing information:
 *
 * - "A or B", "A and B" and Cargo's old "A/B" are split and each side corrected, since
 *   spdx-correct alone keeps one side ("MIT or Apache 2.0" → Apache-2.0).
 * - A trailing abbreviation in parentheses is tried without it first ("GNU General Public License
 *   v3 (GPLv3)"), and a name without the word "License" ("ISC License" → ISC).
 * - Deprecated GNU ids are upgraded as SPDX defines them: GPL-3.0 is GPL-3.0-only, GPL-3.0+ is
 *   GPL-3.0-or-later (spdx-correct's own upgrade makes GPL-3.0 "-or-later").
 * - npm's UNLICENSED (proprietary) and "SEE LICENSE IN …" have no SPDX id (spdx-correct would
 *   turn UNLICENSED into Unlicense, its opposite).
 */
import { createRequire } from 'node:module'
import spdxCorrect from 'spdx-correct'
import parseSpdx from 'spdx-expression-parse'

type Node = parseSpdx.Info

const require = createRequire(import.meta.url)
// spdx-license-ids is spdx-expression-parse's own list; resolved from there, wherever it is installed.
const requireFromParser = createRequire(require.resolve('spdx-expression-parse'))
const KNOWN_IDS = new Set<string>([
  ...requireFromParser('spdx-license-ids'),
  ...requireFromParser('spdx-license-ids/deprecated.json'),
])

/** Whether `id` is an SPDX licence id (current or deprecated), spelt exactly as SPDX lists it. */
export function isSpdxId(id: string): boolean {
  return KNOWN_IDS.has(id)
}

/** GNU ids SPDX deprecated in favour of explicit "-only" and "-or-later" forms. */
const GNU_DEPRECATED = new Set([
  'GPL-1.0',
  'GPL-2.0',
  'GPL-3.0',
  'LGPL-2.0',
  'LGPL-2.1',
  'LGPL-3.0',
  'AGPL-1.0',
  'AGPL-3.0',
  'GFDL-1.1',
  'GFDL-1.2',
  'GFDL-1.3',
])

function printLeaf(node: parseSpdx.LicenseInfo): string {
  let id = node.license
  if (GNU_DEPRECATED.has(id)) id = `${id}${node.plus ? '-or-later' : '-only'}`
  else if (node.plus) id = `${id}+`
  return node.exception ? `${id} WITH ${node.exception}` : id
}

/** Prints a parsed expression; a nested expression of the other operator is parenthesised. */
function print(node: Node, parent?: 'and' | 'or'): string {
  if (!('conjunction' in node)) return printLeaf(node)
  const text = `${print(node.left, node.conjunction)} ${node.conjunction.toUpperCase()} ${print(node.right, node.conjunction)}`
  return parent && parent !== node.conjunction ? `(${text})` : text
}

function parsed(expression: string): Node | null {
  try {
    return parseSpdx(expression)
  } catch {
    return null
  }
}

function corrected(text: string): string | null {
  try {
    return spdxCorrect(text, { upgrade: false })
  } catch {
    return null
  }
}

const NO_SPDX = /^(unlicensed|see licen[cs]e in\b.*)$/i
const OR_LATER = /\s+or\s+(any\s+)?later(\s+version)?\b/gi
const SEPARATORS = /(\s+(?:or|and)\s+|\s*\/\s*)/i

/** Drops parentheses left over from splitting "(A or B)", and ones wrapping the whole name; keeps "Name (Abbr)". */
function unwrap(name: string): string {
  let text = name.trim()
  if (text.startsWith('(') && !text.includes(')')) text = text.slice(1)
  if (text.endsWith(')') && !text.includes('(')) text = text.slice(0, -1)
  if (/^\([^()]*\)$/.test(text)) text = text.slice(1, -1)
  return text.trim()
}

/** One licence named in free text, as an SPDX id (or a small expression spdx-correct returned), else null. */
function correctName(name: string): string | null {
  const text = unwrap(name).replace(OR_LATER, '+').trim()
  if (!text) return null
  const withoutNote = text.replace(/\s*\([^()]*\)$/, '')
  const withoutWord = withoutNote
    .replace(/\blicen[cs]e\b/gi, '')
    .replace(/\s{2,}/g, ' ')
    .trim()
  for (const candidate of new Set([withoutNote, text, withoutWord])) {
    if (!candidate) continue
    const result = corrected(candidate)
    if (result && parsed(result)) return result
  }
  return null
}

/** "A or B and C", "A/B": each side corrected, joined as an SPDX expression; null unless every side is a licence. */
function correctCompound(text: string): string | null {
  const pieces = text.replace(OR_LATER, '+').split(SEPARATORS)
  if (pieces.length < 3) return null
  let expression = ''
  for (let i = 0; i < pieces.length; i += 2) {
    const id = correctName(pieces[i] as string)
    if (!id) return null
    const separator = i > 0 ? (pieces[i - 1] as string).trim().toLowerCase() : ''
    expression += i === 0 ? id : ` ${separator === 'and' ? 'AND' : 'OR'} ${id.includes(' ') ? `(${id})` : id}`
  }
  return expression
}

const cache = new Map<string, string | null>()

/** A declared licence as an SPDX id or expression, or null when it names none Trove can tell. */
export function toSpdx(declared: string): string | null {
  const text = declared.trim()
  if (!text || NO_SPDX.test(text)) return null
  const known = cache.get(text)
  if (known !== undefined) return known
  const expression = parsed(text) ? text : (correctCompound(text) ?? correctName(text))
  const tree = expression ? parsed(expression) : null
  const result = tree ? print(tree) : null
  if (cache.size > 10_000) cache.clear()
  cache.set(text, result)
  return result
}

/** Each distinct declared licence with its SPDX form (null when none), in the order first declared. */
export function licenseNames(declared: string[]): { name: string; spdx: string | null }[] {
  const names = [...new Set(declared.map((name) => name.trim()).filter(Boolean))]
  return names.map((name) => ({ name, spdx: toSpdx(name) }))
}

/** Declared licences as the packages browser shows and filters them: each as its SPDX form where one fits, once. */
export function spdxLicenses(declared: string[]): string[] {
  return [...new Set(licenseNames(declared).map((l) => l.spdx ?? l.name))]
}
