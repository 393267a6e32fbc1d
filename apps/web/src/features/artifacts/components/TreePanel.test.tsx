import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { TreeNode } from '@trove/contracts/artifacts'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../test/render'
import { flatten, type Level, ROOT } from '../treeModel'
import type { useTree } from '../useTree'
import { TreePanel } from './TreePanel'

const node = (repoKey: string, path: string, type: TreeNode['type']): TreeNode => {
  const name = path.split('/').pop() || repoKey
  return { key: type === 'file' ? name : `${name}/`, name, path, repoKey, type }
}

describe('the tree panel', () => {
  it('moves from the row the last key asked for, before the selection has come back', async () => {
    const levels = new Map<string, Level>([
      [ROOT, { nodes: [node('r', '', 'repository')], next: null, loading: false }],
      ['r/', { nodes: [node('r', 'many', 'folder')], next: null, loading: false }],
      ['r/many/', { nodes: [node('r', 'many/a.txt', 'file'), node('r', 'many/b.txt', 'file')], next: null, loading: false }],
    ])
    const expanded = new Set([ROOT, 'r/', 'r/many/'])
    const collapse = vi.fn()
    const tree = {
      rows: flatten(levels, expanded),
      expanded,
      filter: '',
      setFilter: vi.fn(),
      expand: vi.fn(async () => {}),
      collapse,
      toggle: vi.fn(),
      loadPage: vi.fn(),
      loadGap: vi.fn(),
    } as unknown as ReturnType<typeof useTree>
    const onSelect = vi.fn()
    // The selection is the address's: it stays on b.txt, as a navigation not yet rendered.
    await renderWithProviders(<TreePanel tree={tree} selected="r/many/b.txt" onSelect={onSelect} height={300} />)
    const user = userEvent.setup()
    screen.getByRole('tree', { name: 'Repositories' }).focus()
    await user.keyboard('{ArrowUp}{ArrowLeft}')
    expect(onSelect.mock.calls.map((c) => c[0])).toEqual(['r/many/a.txt', 'r/many/'])
    await user.keyboard('{ArrowLeft}')
    expect(collapse).toHaveBeenCalledWith('r/many/')
  })
})
