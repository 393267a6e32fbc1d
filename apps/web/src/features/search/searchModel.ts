import {
  DATE_FILTERS,
  FLAG_FILTERS,
  LIST_FILTERS,
  SEARCH_QUERY_KEYS,
  type SearchFilterName,
  type SortType,
} from '@trove/contracts/searchConstants'

type ListFilter = (typeof LIST_FILTERS)[number]
type FlagFilter = (typeof FLAG_FILTERS)[number]
type TextFilter = Exclude<SearchFilterName, ListFilter | FlagFilter | 'name' | 'sortType'>

/** The search model (packages §3): a name plus filters. Dates are YYYY-MM-DD. */
export interface SearchModel {
  name: string
  filters: SearchFilters
}
export type SearchFilters = { [K in ListFilter]?: string[] } & { [K in FlagFilter]?: boolean } & {
  [K in TextFilter]?: string
} & { sortType?: SortType }

export const emptyModel = (name = ''): SearchModel => ({ name, filters: {} })

const KEY_TO_FILTER = new Map<string, SearchFilterName>(
  Object.entries(SEARCH_QUERY_KEYS).map(([filter, key]) => [key, filter as SearchFilterName]),
)
const isList = (f: SearchFilterName): f is ListFilter => (LIST_FILTERS as readonly string[]).includes(f)
const isFlag = (f: SearchFilterName): f is FlagFilter => (FLAG_FILTERS as readonly string[]).includes(f)
const isDate = (f: SearchFilterName) => (DATE_FILTERS as readonly string[]).includes(f)

/** §5: asc, ascend, ascending, desc, descend, descending in any case; anything else is ASC. */
export function parseSortType(value: string | undefined): SortType {
  return /^desc(end(ing)?)?$/i.test((value ?? '').trim()) ? 'DESC' : 'ASC'
}

/** §5: dates are written YYYY-MM-DD; anything that is not a real date is dropped. */
export function formatDate(value: string | Date | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  const date = value instanceof Date ? value : new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(date.getTime())) return undefined
  return date.toISOString().slice(0, 10)
}

/** A value that holds whitespace, a quote, a backslash or a colon, or nothing, is written quoted (§5). */
function quote(value: string): string {
  return /[\s"\\:]/.test(value) || value === '' ? `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"` : value
}

interface Token {
  text: string
  /** The key when the token was key:value (before the colon, unquoted). */
  key?: string
  quoted: boolean
}

/** Splits on whitespace; double quotes group (with \" and \\ escapes), also after a key: key:"a b". */
function tokenize(input: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i] as string)) i++
    if (i >= input.length) break
    let key: string | undefined
    const keyMatch = /^([A-Za-z_]+):/.exec(input.slice(i))
    if (keyMatch) {
      key = keyMatch[1]
      i += keyMatch[0].length
    }
    let text = ''
    let quoted = false
    if (input[i] === '"') {
      quoted = true
      i++
      while (i < input.length && input[i] !== '"') {
        if (input[i] === '\\' && i + 1 < input.length) i++
        text += input[i]
        i++
      }
      i++ // the closing quote (or the end)
    } else {
      while (i < input.length && !/\s/.test(input[i] as string)) text += input[i++]
    }
    tokens.push({ text, key, quoted })
  }
  return tokens
}

/**
 * The query string → the search model (§5): key:value applies only to known keys, otherwise the
 * text is part of the name; quoted values may hold spaces; empty values are ignored.
 */
export function parseSearchQuery(query: string): SearchModel {
  const model = emptyModel()
  const words: string[] = []
  for (const token of tokenize(query)) {
    const filter = token.key ? KEY_TO_FILTER.get(token.key) : undefined
    if (!filter) {
      // An unknown key is plain text: the whole token is part of the name.
      const word = token.key ? `${token.key}:${token.text}` : token.text
      if (word !== '') words.push(word)
      continue
    }
    setFilter(model, filter, token.text)
  }
  if (words.length > 0 && model.name === '') model.name = words.join(' ')
  else if (words.length > 0) model.name = `${model.name} ${words.join(' ')}`
  return model
}

function setFilter(model: SearchModel, filter: SearchFilterName, raw: string): void {
  const value = raw.trim() === '' ? '' : raw
  if (value === '') return
  const f = model.filters as Record<string, unknown>
  if (filter === 'name') model.name = value
  else if (filter === 'sortType') f.sortType = parseSortType(value)
  else if (isList(filter)) {
    const items = value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '')
    if (items.length > 0) f[filter] = [...((f[filter] as string[] | undefined) ?? []), ...items]
  } else if (isFlag(filter)) f[filter] = /^(true|1|yes)$/i.test(value)
  else if (isDate(filter)) {
    const date = formatDate(value)
    if (date) f[filter] = date
  } else f[filter] = value
}

/** The model without empty values, the way the query string keeps it. */
export function normalizeModel(model: SearchModel): SearchModel {
  const filters: Record<string, unknown> = {}
  for (const [filter, value] of Object.entries(model.filters) as [SearchFilterName, unknown][]) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) {
      const items = value.map((v) => String(v).trim()).filter((v) => v !== '' && !v.includes(','))
      if (items.length > 0) filters[filter] = items
    } else if (typeof value === 'boolean') filters[filter] = value
    else if (isDate(filter)) {
      const date = formatDate(value as string)
      if (date) filters[filter] = date
    } else if (filter === 'sortType') filters[filter] = parseSortType(String(value))
    else if (String(value).trim() !== '') filters[filter] = String(value)
  }
  return { name: model.name.trim(), filters: filters as SearchFilters }
}

/** The search model → its query string (§3, §5): the name, then key:value pairs in the table's order. */
export function buildSearchQuery(model: SearchModel): string {
  const { name, filters } = normalizeModel(model)
  const parts: string[] = []
  if (name !== '') parts.push(quote(name))
  for (const filter of Object.keys(SEARCH_QUERY_KEYS) as SearchFilterName[]) {
    const value = (filters as Record<string, unknown>)[filter]
    if (value === undefined) continue
    const key = SEARCH_QUERY_KEYS[filter]
    if (Array.isArray(value)) parts.push(`${key}:${quote(value.join(','))}`)
    else parts.push(`${key}:${quote(String(value))}`)
  }
  return parts.join(' ')
}

/** §5: a name filter gets a trailing * when it has none. */
export function withWildcard(name: string): string {
  return name === '' || name.endsWith('*') ? name : `${name}*`
}

/** True when the model asks for nothing at all. */
export function isEmptyModel(model: SearchModel): boolean {
  const n = normalizeModel(model)
  return n.name === '' && Object.keys(n.filters).length === 0
}
