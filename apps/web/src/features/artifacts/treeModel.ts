import type { TreeNode } from '@trove/contracts/artifacts'

/** One loaded level of the tree: a repository's or folder's children so far. */
export interface Level {
  nodes: TreeNode[]
  /** The key to ask the next page after; null when the level is complete. */
  next: string | null
  loading: boolean
  error?: string
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
  | { kind: 'more' | 'loading' | 'error' | 'empty'; id: string; depth: number; parent: string; message?: string }

/** The rows shown: every loaded node whose ancestors are all expanded, depth first. */
export function flatten(levels: ReadonlyMap<string, Level>, expanded: ReadonlySet<string>): Row[] {
  const rows: Row[] = []
  const walk = (parent: string, depth: number) => {
    const level = levels.get(parent)
    if (!level) return
    for (const node of level.nodes) {
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
  | { loadMore: string }
  | null

/** What a key does in the tree (the WAI-ARIA tree pattern): arrows move, expand and collapse; Enter opens. */
export function keyAction(rows: Row[], selected: string | null, expanded: ReadonlySet<string>, key: string): KeyAction {
  const index = rows.findIndex((r) => r.id === selected)
  const row = index >= 0 ? rows[index] : undefined
  const focusable = (i: number) => rows[i]?.kind === 'node' || rows[i]?.kind === 'more'
  const step = (from: number, by: number) => {
    for (let i = from + by; i >= 0 && i < rows.length; i += by) if (focusable(i)) return rows[i]?.id
    return undefined
  }
  switch (key) {
    case 'ArrowDown': {
      const id = row ? step(index, 1) : rows.find((r) => r.kind === 'node')?.id
      return id ? { select: id } : null
    }
    case 'ArrowUp': {
      const id = row ? step(index, -1) : undefined
      return id ? { select: id } : null
    }
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
      if (row?.kind === 'more') return { loadMore: row.parent }
      if (row?.kind === 'node' && expandable(row.node)) return { toggle: row.id }
      return null
    }
    default:
      return null
  }
}
