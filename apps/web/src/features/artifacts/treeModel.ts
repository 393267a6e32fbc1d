import type { TreeNode } from '@trove/contracts/artifacts'

/** One loaded level of the tree: a repository's or folder's children so far. */
export interface Level {
  nodes: TreeNode[]
  /** The key to ask the next page after; null when the level is complete. */
  next: string | null
  loading: boolean
  error?: string
  /**
   * Children not loaded yet between nodes[index - 1] and nodes[index] (a deep link loaded the
   * level's start and a window around its node): the head goes on after `after` (null: from the start).
   */
  gap?: { index: number; after: string | null }
}

/** The children's order: their keys' UTF-8 bytes, as the server's index. */
export function cmpKeys(a: string, b: string): number {
  const x = new TextEncoder().encode(a)
  const y = new TextEncoder().encode(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number)
  return x.length - y.length
}

interface Page {
  nodes: TreeNode[]
  next: string | null
}

/** A level from its first page and a window of children from some key on: one list, or two with a gap. */
export function joinWindow(head: Page, window: Page): Level {
  const first = window.nodes[0]
  if (!head.next || !first) return { nodes: head.nodes, next: head.next, loading: false }
  if (head.nodes.some((n) => cmpKeys(n.key, first.key) >= 0)) {
    // They meet: the head up to the window, then the window.
    return {
      nodes: [...head.nodes.filter((n) => cmpKeys(n.key, first.key) < 0), ...window.nodes],
      next: window.next,
      loading: false,
    }
  }
  return {
    nodes: [...head.nodes, ...window.nodes],
    next: window.next,
    loading: false,
    gap: { index: head.nodes.length, after: head.next },
  }
}

/** A page loaded into a level's gap: the gap shrinks, or closes when the page reaches the window. */
export function fillGap(level: Level, page: Page): Level {
  if (!level.gap) return level
  const { index } = level.gap
  const windowStart = level.nodes[index]?.key
  const before = level.nodes.slice(0, index)
  const after = level.nodes.slice(index)
  const fresh = windowStart === undefined ? page.nodes : page.nodes.filter((n) => cmpKeys(n.key, windowStart) < 0)
  const closed = !page.next || fresh.length < page.nodes.length
  const nodes = [...before, ...fresh, ...after]
  const { gap: _old, ...rest } = level
  return closed ? { ...rest, nodes } : { ...rest, nodes, gap: { index: index + fresh.length, after: page.next } }
}

/** The top level (the repositories) is the level of this id. */
export const ROOT = ''

/** A node's id in the tree: repository key, then path; a folder's ends with '/'. */
export function nodeId(n: Pick<TreeNode, 'repoKey' | 'path' | 'type'>): string {
  if (n.type === 'repository') return `${n.repoKey}/`
  return `${n.repoKey}/${n.path}${n.type === 'folder' ? '/' : ''}`
}

export const expandable = (n: Pick<TreeNode, 'type'>) => n.type !== 'file'

export type Row =
  | { kind: 'node'; id: string; node: TreeNode; depth: number; parent: string }
  | {
      kind: 'more' | 'loading' | 'error' | 'empty'
      id: string
      depth: number
      parent: string
      message?: string
      /** A 'more' row of a level's gap rather than of its end. */
      gap?: boolean
    }

/** The rows shown: every loaded node whose ancestors are all expanded, depth first. */
export function flatten(levels: ReadonlyMap<string, Level>, expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = []
  const walk = (parent: string, depth: number) => {
    const level = levels.get(parent)
    if (!level) return
    for (const [index, node] of level.nodes.entries()) {
      if (level.gap?.index === index) rows.push({ kind: 'more', id: `${parent}\0gap`, depth, parent, gap: true })
      const id = nodeId(node)
      rows.push({ kind: 'node', id, node, depth, parent })
      if (expandable(node) && expanded.has(id)) {
        if (!levels.has(id)) rows.push({ kind: 'loading', id: `${id}\0loading`, depth: depth + 1, parent: id })
        else walk(id, depth + 1)
      }
    }
    if (level.error) rows.push({ kind: 'error', id: `${parent}\0error`, depth, parent, message: level.error })
    else if (level.loading) rows.push({ kind: 'loading', id: `${parent}\0loading`, depth, parent })
    else if (level.next) rows.push({ kind: 'more', id: `${parent}\0more`, depth, parent })
    else if (level.nodes.length === 0 && parent !== ROOT) rows.push({ kind: 'empty', id: `${parent}\0empty`, depth, parent })
  }
  walk(ROOT, 0)
  return rows
}

/**
 * The selection a browse path names (`tree/General/{repoKey}/{path…}`), and the ids of its
 * ancestors to expand, outermost first.
 */
export function parseBrowsePath(splat: string): { repoKey: string; path: string; ancestors: string[] } | null {
  const rest = splat.replace(/^tree\/General\/?/, '')
  const segments = rest.split('/').filter(Boolean)
  const [repoKey, ...parts] = segments
  if (!repoKey) return null
  const ancestors = [`${repoKey}/`]
  for (let i = 1; i < parts.length; i++) ancestors.push(`${repoKey}/${parts.slice(0, i).join('/')}/`)
  return { repoKey, path: parts.join('/'), ancestors }
}

/** The browse path of a node, as the URL carries it. */
export function browsePathOf(n: Pick<TreeNode, 'repoKey' | 'path'>): string {
  return `tree/General/${n.repoKey}${n.path ? `/${n.path}` : ''}`
}

export type KeyAction =
  | { select: string }
  | { expand: string }
  | { collapse: string }
  | { toggle: string }
  | { loadMore: string; gap?: true }
  | null

/** What a key does in the tree (the WAI-ARIA tree pattern): arrows move, expand and collapse; Enter opens. */
export function keyAction(rows: Row[], selected: string | null, expanded: ReadonlySet<string>, key: string): KeyAction {
  const index = rows.findIndex((r) => r.id === selected)
  const row = index >= 0 ? rows[index] : undefined
  const focusable = (i: number) => rows[i]?.kind === 'node' || rows[i]?.kind === 'more'
  // Stepping onto a row that stands for children not loaded yet loads them.
  const step = (from: number, by: number): KeyAction => {
    for (let i = from + by; i >= 0 && i < rows.length; i += by) {
      if (!focusable(i)) continue
      const r = rows[i] as Row
      if (r.kind === 'more') return r.gap ? { loadMore: r.parent, gap: true } : { loadMore: r.parent }
      return { select: r.id }
    }
    return null
  }
  switch (key) {
    case 'ArrowDown': {
      if (row) return step(index, 1)
      const id = rows.find((r) => r.kind === 'node')?.id
      return id ? { select: id } : null
    }
    case 'ArrowUp':
      return row ? step(index, -1) : null
    case 'Home': {
      const id = rows.find((r) => r.kind === 'node')?.id
      return id ? { select: id } : null
    }
    case 'End': {
      const id = [...rows].reverse().find((r) => r.kind === 'node')?.id
      return id ? { select: id } : null
    }
    case 'ArrowRight': {
      if (row?.kind !== 'node' || !expandable(row.node)) return null
      if (!expanded.has(row.id)) return { expand: row.id }
      const child = rows[index + 1]
      return child && child.parent === row.id && child.kind === 'node' ? { select: child.id } : null
    }
    case 'ArrowLeft': {
      if (!row) return null
      if (row.kind === 'node' && expandable(row.node) && expanded.has(row.id)) return { collapse: row.id }
      return row.parent !== ROOT ? { select: row.parent } : null
    }
    case 'Enter':
    case ' ': {
      if (row?.kind === 'more') return row.gap ? { loadMore: row.parent, gap: true } : { loadMore: row.parent }
      if (row?.kind === 'node' && expandable(row.node)) return { toggle: row.id }
      return null
    }
    default:
      return null
  }
}
