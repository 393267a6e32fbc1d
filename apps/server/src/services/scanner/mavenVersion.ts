/**
 * Maven's version order, as Maven's own ComparableVersion computes it (no maintained npm library
 * does): a version is split into items at `.`, at `-` and where digits meet letters; a `-` or a
 * digit/letter transition opens a nested list, so `1.0-beta-2` is [1, 0, [beta, [2]]]. Trailing
 * "null" items (0, the empty qualifier and its aliases) are trimmed from every list.
 *
 * Item order: numbers compare numerically; qualifiers follow
 * alpha < beta < milestone < rc = cr < snapshot < "" = ga = final = release < sp, then unknown
 * qualifiers in lexical order; a number beats a qualifier and a nested list (`1.1` > `1-1` > `1-sp`).
 * `a`, `b` and `m` directly followed by a digit mean alpha, beta and milestone. Case is ignored.
 *
 * This is the ComparableVersion of Maven 3.6 to 3.8 (with MNG-5568, MNG-6572 and MNG-6964: a
 * nested list compared with "nothing" looks at all its items, so `1-0.1` sorts after `1`), plus
 * the `release` alias later Maven releases treat like `ga`. osv.dev orders Maven versions by the
 * same published specification.
 */

type Item = { kind: 'number'; digits: string } | { kind: 'string'; value: string } | { kind: 'list'; items: Item[] }

export type MavenVersion = { kind: 'list'; items: Item[] }

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp']
const ALIASES: Record<string, string> = { ga: '', final: '', release: '', cr: 'rc' }
const RELEASE_INDEX = String(QUALIFIERS.indexOf(''))

/** The qualifier's sort key: its rank as a digit string, or "7-name" so unknown ones sort after, lexically. */
function comparableQualifier(value: string): string {
  const index = QUALIFIERS.indexOf(value)
  return index === -1 ? `${QUALIFIERS.length}-${value}` : String(index)
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function numberItem(digits: string): Item {
  // Leading zeros carry no meaning (Maven parses the digits as a number).
  return { kind: 'number', digits: digits.replace(/^0+/, '') || '0' }
}

function stringItem(raw: string, followedByDigit: boolean): Item {
  let value = raw
  if (followedByDigit && value.length === 1) {
    if (value === 'a') value = 'alpha'
    else if (value === 'b') value = 'beta'
    else if (value === 'm') value = 'milestone'
  }
  return { kind: 'string', value: ALIASES[value] ?? value }
}

function isNull(item: Item): boolean {
  if (item.kind === 'number') return item.digits === '0'
  if (item.kind === 'string') return comparableQualifier(item.value) === RELEASE_INDEX
  return item.items.length === 0
}

/** Numbers of any length compare by value: no leading zeros remain, so length first, then digits. */
function compareDigits(a: string, b: string): number {
  return a.length !== b.length ? Math.sign(a.length - b.length) : compareStrings(a, b)
}

/** Maven's Item.compareTo; `b` null stands for "no item here" (the other version is longer). */
function compareItem(a: Item, b: Item | null): number {
  switch (a.kind) {
    case 'number':
      if (b === null) return a.digits === '0' ? 0 : 1
      return b.kind === 'number' ? compareDigits(a.digits, b.digits) : 1
    case 'string':
      if (b === null) return compareStrings(comparableQualifier(a.value), RELEASE_INDEX)
      if (b.kind === 'string') return compareStrings(comparableQualifier(a.value), comparableQualifier(b.value))
      return -1
    case 'list': {
      if (b === null) {
        for (const item of a.items) {
          const result = compareItem(item, null)
          if (result !== 0) return result
        }
        return 0
      }
      if (b.kind === 'number') return -1
      if (b.kind === 'string') return 1
      const length = Math.max(a.items.length, b.items.length)
      for (let i = 0; i < length; i++) {
        const left = a.items[i]
        const right = b.items[i]
        const result =
          left === undefined ? (right === undefined ? 0 : -compareItem(right, null)) : compareItem(left, right ?? null)
        if (result !== 0) return result
      }
      return 0
    }
  }
}

/** Drops trailing null items; a non-empty nested list does not stop the trimming of nulls before it. */
function normalize(list: Item[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as Item
    if (isNull(item)) list.splice(i, 1)
    else if (item.kind !== 'list') break
  }
}

const isDigitChar = (c: string) => c >= '0' && c <= '9'

/** Parses any string (Maven orders every string it is given); the result is only for `compareMaven`. */
export function parseMaven(version: string): MavenVersion {
  const text = version.toLowerCase()
  const root: MavenVersion = { kind: 'list', items: [] }
  let list = root
  const lists: MavenVersion[] = [root]
  const openList = () => {
    const next: MavenVersion = { kind: 'list', items: [] }
    list.items.push(next)
    list = next
    lists.push(next)
  }
  let isDigit = false
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i)
    if (c === '.' || c === '-') {
      if (i === start) list.items.push(numberItem('0'))
      else {
        const part = text.slice(start, i)
        list.items.push(isDigit ? numberItem(part) : stringItem(part, false))
      }
      start = i + 1
      if (c === '-') openList()
    } else if (isDigitChar(c)) {
      if (!isDigit && i > start) {
        list.items.push(stringItem(text.slice(start, i), true))
        start = i
        openList()
      }
      isDigit = true
    } else {
      if (isDigit && i > start) {
        list.items.push(numberItem(text.slice(start, i)))
        start = i
        openList()
      }
      isDigit = false
    }
  }
  if (text.length > start) {
    const part = text.slice(start)
    list.items.push(isDigit ? numberItem(part) : stringItem(part, false))
  }
  // Innermost lists first, as Maven pops its stack, so an emptied inner list can be trimmed from its parent.
  for (let i = lists.length - 1; i >= 0; i--) normalize((lists[i] as MavenVersion).items)
  return root
}

export function compareMaven(a: MavenVersion, b: MavenVersion): number {
  return compareItem(a, b)
}

export function compareMavenVersions(a: string, b: string): number {
  return compareMaven(parseMaven(a), parseMaven(b))
}
