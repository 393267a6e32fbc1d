import type { TreeNode } from '@trove/contracts/artifacts'
import { describe, expect, it } from 'vitest'
import {
  browsePathOf,
  cmpKeys,
  fillGap,
  flatten,
  joinWindow,
  keyAction,
  type Level,
  nodeId,
  parseBrowsePath,
  ROOT,
} from './treeModel'

const repo = (key: string): TreeNode => ({ key, name: key, path: '', repoKey: key, type: 'repository' })
const folder = (repoKey: string, path: string): TreeNode => ({
  key: `${path.split('/').pop()}/`,
  name: path.split('/').pop() as string,
  path,
  repoKey,
  type: 'folder',
})
const file = (repoKey: string, path: string): TreeNode => ({
  ...folder(repoKey, path),
  key: path.split('/').pop() as string,
  type: 'file',
})
const level = (nodes: TreeNode[], next: string | null = null): Level => ({ nodes, next, loading: false })

describe('the tree model', () => {
  const levels = new Map<string, Level>([
    [ROOT, level([repo('a'), repo('b')])],
    ['a/', level([folder('a', 'docs'), file('a', 'docs')], 'docs')],
    ['a/docs/', level([file('a', 'docs/x.txt')])],
  ])

  it('flattens expanded levels depth first, with a row to load more and a file beside a folder of its name', () => {
    const rows = flatten(levels, new Set(['a/', 'a/docs/', 'b/']))
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.kind === 'node' ? r.id : r.kind}`)).toEqual([
      'a/',
      '  a/docs/',
      '    a/docs/x.txt',
      '  a/docs',
      '  more',
      'b/',
      '  loading',
    ])
    expect(flatten(levels, new Set()).map((r) => r.id)).toEqual(['a/', 'b/'])
  })

  it('reads and writes the browse path of a node', () => {
    expect(parseBrowsePath('tree/General/libs-local/org/acme/lib.jar')).toEqual({
      repoKey: 'libs-local',
      path: 'org/acme/lib.jar',
      ancestors: ['libs-local/', 'libs-local/org/', 'libs-local/org/acme/'],
    })
    expect(parseBrowsePath('tree/General')).toBeNull()
    expect(parseBrowsePath('tree/General/r')).toEqual({ repoKey: 'r', path: '', ancestors: ['r/'] })
    expect(browsePathOf({ repoKey: 'r', path: 'a/b' })).toBe('tree/General/r/a/b')
    expect(nodeId(repo('r'))).toBe('r/')
  })

  it('moves with the arrow keys as a tree does', () => {
    const expanded = new Set(['a/', 'a/docs/'])
    const rows = flatten(levels, expanded)
    expect(keyAction(rows, null, expanded, 'ArrowDown')).toEqual({ select: 'a/' })
    expect(keyAction(rows, 'a/', expanded, 'ArrowDown')).toEqual({ select: 'a/docs/' })
    expect(keyAction(rows, 'a/docs/x.txt', expanded, 'ArrowLeft')).toEqual({ select: 'a/docs/' })
    expect(keyAction(rows, 'a/docs/', expanded, 'ArrowLeft')).toEqual({ collapse: 'a/docs/' })
    expect(keyAction(rows, 'b/', expanded, 'ArrowRight')).toEqual({ expand: 'b/' })
    expect(keyAction(rows, 'a/', expanded, 'ArrowRight')).toEqual({ select: 'a/docs/' })
    expect(keyAction(rows, 'a/docs', expanded, 'ArrowDown')).toEqual({ loadMore: 'a/' })
    expect(keyAction(rows, 'a/\0more', expanded, 'Enter')).toEqual({ loadMore: 'a/' })
    expect(keyAction(rows, 'a/', expanded, 'End')).toEqual({ select: 'b/' })
    expect(keyAction(rows, 'b/', expanded, 'Enter')).toEqual({ toggle: 'b/' })
  })
})

describe('a level opened by a deep link', () => {
  const f = (name: string) => file('r', name)
  const names = (l: Level) => l.nodes.map((n) => n.key)

  it('joins the first page and a window around the node, with a gap between when they do not meet', () => {
    const joined = joinWindow({ nodes: [f('a'), f('b')], next: 'b' }, { nodes: [f('x'), f('y')], next: 'y' })
    expect(names(joined)).toEqual(['a', 'b', 'x', 'y'])
    expect(joined).toMatchObject({ next: 'y', gap: { index: 2, after: 'b' } })
    const rows = flatten(new Map([[ROOT, joined]]), new Set())
    expect(rows.map((r) => (r.kind === 'node' ? r.id : `${r.kind}${r.kind === 'more' && r.gap ? ' gap' : ''}`))).toEqual([
      'r/a',
      'r/b',
      'more gap',
      'r/x',
      'r/y',
      'more',
    ])
    expect(keyAction(rows, `${ROOT}\0gap`, new Set(), 'Enter')).toEqual({ loadMore: ROOT, gap: true })
    // They meet: one list.
    expect(joinWindow({ nodes: [f('a'), f('b'), f('c')], next: 'c' }, { nodes: [f('b'), f('c'), f('d')], next: null })).toEqual({
      nodes: [f('a'), f('b'), f('c'), f('d')],
      next: null,
      loading: false,
    })
    // A complete first page needs no window.
    expect(names(joinWindow({ nodes: [f('a')], next: null }, { nodes: [f('a')], next: null }))).toEqual(['a'])
  })

  it('fills the gap page by page until it reaches the window', () => {
    const level = joinWindow({ nodes: [f('a')], next: 'a' }, { nodes: [f('x')], next: null })
    const once = fillGap(level, { nodes: [f('b'), f('c')], next: 'c' })
    expect(names(once)).toEqual(['a', 'b', 'c', 'x'])
    expect(once.gap).toEqual({ index: 3, after: 'c' })
    const closed = fillGap(once, { nodes: [f('d'), f('x'), f('y')], next: 'y' })
    expect(names(closed)).toEqual(['a', 'b', 'c', 'd', 'x'])
    expect(closed.gap).toBeUndefined()
  })

  it('orders keys by their bytes, as the server', () => {
    expect(cmpKeys('a-b', 'a/')).toBeLessThan(0)
    expect(cmpKeys('z', 'é')).toBeLessThan(0)
    expect(cmpKeys('\uffff', '😀')).toBeLessThan(0)
  })
})
