import type { TreeNode } from '@trove/contracts/artifacts'
import { describe, expect, it } from 'vitest'
import { browsePathOf, flatten, keyAction, type Level, nodeId, parseBrowsePath, ROOT } from './treeModel'

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
    expect(keyAction(rows, 'a/docs', expanded, 'ArrowDown')).toEqual({ select: 'a/\0more' })
    expect(keyAction(rows, 'a/\0more', expanded, 'Enter')).toEqual({ loadMore: 'a/' })
    expect(keyAction(rows, 'a/', expanded, 'End')).toEqual({ select: 'b/' })
    expect(keyAction(rows, 'b/', expanded, 'Enter')).toEqual({ toggle: 'b/' })
  })
})
