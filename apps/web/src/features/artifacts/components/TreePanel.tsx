import { Box, Group, Loader, Text, TextInput, UnstyledButton } from '@mantine/core'
import { useVirtualizer } from '@tanstack/react-virtual'
import { PACKAGE_TYPE_NAMES } from '@trove/contracts/repositoryConstants'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { expandable, keyAction, type Row } from '../treeModel'
import type { useTree } from '../useTree'

const ROW_HEIGHT = 30

export interface TreePanelProps {
  tree: ReturnType<typeof useTree>
  selected: string | null
  onSelect: (id: string) => void
  height: number | string
}

/** Small drawn icons: a repository, a folder (open or shut) and a file. */
function NodeIcon({ type, open }: { type: Extract<Row, { kind: 'node' }>['node']['type']; open: boolean }) {
  const common = { width: 16, height: 16, viewBox: '0 0 16 16', style: { flex: 'none' } } as const
  if (type === 'repository') {
    return (
      <svg {...common} aria-hidden="true">
        <ellipse cx="8" cy="3.5" rx="6" ry="2.2" fill="var(--mantine-color-blue-5)" />
        <path d="M2 3.5v9c0 1.2 2.7 2.2 6 2.2s6-1 6-2.2v-9c0 1.2-2.7 2.2-6 2.2S2 4.7 2 3.5z" fill="var(--mantine-color-blue-7)" />
      </svg>
    )
  }
  if (type === 'folder') {
    return (
      <svg {...common} aria-hidden="true">
        <path
          d="M1 3.5C1 2.7 1.7 2 2.5 2h3.8l1.5 1.5h5.7c.8 0 1.5.7 1.5 1.5v7.5c0 .8-.7 1.5-1.5 1.5h-11C1.7 14 1 13.3 1 12.5z"
          fill={open ? 'var(--mantine-color-yellow-5)' : 'var(--mantine-color-yellow-6)'}
        />
      </svg>
    )
  }
  return (
    <svg {...common} aria-hidden="true">
      <path d="M3 1.5h6.5L13 5v9.5H3z" fill="var(--mantine-color-gray-1)" stroke="var(--mantine-color-gray-6)" />
      <path d="M9.5 1.5V5H13" fill="none" stroke="var(--mantine-color-gray-6)" />
    </svg>
  )
}

/**
 * The tree: repositories, then folders and files a level at a time, drawn only where in view, a
 * page at a time. Keyboard: arrows move, expand and collapse, Home/End jump, Enter opens.
 */
export function TreePanel({ tree, selected, onSelect, height }: TreePanelProps) {
  const parent = useRef<HTMLDivElement>(null)
  const [filter, setFilter] = useState(tree.filter)
  const rows = tree.rows
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
    initialRect: { width: 360, height: typeof height === 'number' ? height : 600 },
  })
  // A debounce keeps typing from asking the server at every key.
  useEffect(() => {
    if (filter === tree.filter) return
    const timer = setTimeout(() => tree.setFilter(filter), 250)
    return () => clearTimeout(timer)
  }, [filter, tree])
  // The selection stays in view (a deep link, a key press).
  const selectedIndex = rows.findIndex((r) => r.id === selected)
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedIndex, virtualizer])
  // The next page loads as its row comes into view.
  const items = virtualizer.getVirtualItems()
  useEffect(() => {
    for (const item of items) {
      const row = rows[item.index]
      if (row?.kind === 'more') void (row.gap ? tree.loadGap(row.parent) : tree.loadPage(row.parent))
    }
  }, [items, rows, tree])

  // A key press moves from the row the last key selected, even before the selection it asked for
  // has come back through the address (a navigation renders a moment later): two quick presses
  // move twice, not once.
  const keyed = useRef<{ asked: string; from: string | null } | null>(null)
  if (keyed.current && keyed.current.from !== selected) keyed.current = null
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const current = keyed.current?.asked ?? selected
    const action = keyAction(rows, current, tree.expanded, e.key)
    if (!action) return
    e.preventDefault()
    if ('select' in action) {
      keyed.current = { asked: action.select, from: selected }
      onSelect(action.select)
    } else if ('expand' in action) void tree.expand(action.expand)
    else if ('collapse' in action) tree.collapse(action.collapse)
    else if ('toggle' in action) tree.toggle(action.toggle)
    else if ('loadMore' in action) void (action.gap ? tree.loadGap(action.loadMore) : tree.loadPage(action.loadMore))
  }

  return (
    <Box>
      <TextInput
        aria-label="Filter repositories"
        placeholder="Filter repositories"
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
        mb="xs"
      />
      <Box
        ref={parent}
        role="tree"
        aria-label="Repositories"
        tabIndex={0}
        onKeyDown={onKeyDown}
        style={{ height, overflow: 'auto', border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
        aria-activedescendant={selected ? `tree-${cssId(selected)}` : undefined}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index] as Row
            const style = {
              position: 'absolute' as const,
              top: 0,
              left: 0,
              width: '100%',
              height: ROW_HEIGHT,
              transform: `translateY(${item.start}px)`,
              paddingLeft: 8 + row.depth * 18,
            }
            if (row.kind !== 'node') {
              return (
                <div key={row.id} style={style} role="none">
                  {row.kind === 'loading' ? (
                    <Group gap={6} h={ROW_HEIGHT}>
                      <Loader size={12} />
                      <Text size="sm" c="dimmed">
                        Loading…
                      </Text>
                    </Group>
                  ) : row.kind === 'more' ? (
                    <UnstyledButton
                      id={`tree-${cssId(row.id)}`}
                      h={ROW_HEIGHT}
                      onClick={() => void (row.gap ? tree.loadGap(row.parent) : tree.loadPage(row.parent))}
                      bg={row.id === selected ? 'var(--mantine-primary-color-light)' : undefined}
                    >
                      <Text size="sm" c="blue">
                        Load more…
                      </Text>
                    </UnstyledButton>
                  ) : (
                    <Text size="sm" c={row.kind === 'error' ? 'red' : 'dimmed'} lh={`${ROW_HEIGHT}px`}>
                      {row.kind === 'error' ? row.message : 'Empty'}
                    </Text>
                  )}
                </div>
              )
            }
            const open = tree.expanded.has(row.id)
            const isSelected = row.id === selected
            return (
              <div
                key={row.id}
                id={`tree-${cssId(row.id)}`}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-selected={isSelected}
                aria-expanded={expandable(row.node) ? open : undefined}
                tabIndex={-1}
                onKeyDown={(e) => {
                  // The tree takes the keys (the active-descendant pattern); a row focused by itself answers Enter.
                  if (e.key === 'Enter') onSelect(row.id)
                }}
                style={{
                  ...style,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 6,
                  cursor: 'pointer',
                  whiteSpace: 'nowrap',
                  background: isSelected ? 'var(--mantine-primary-color-light)' : undefined,
                }}
                onClick={() => {
                  onSelect(row.id)
                  if (expandable(row.node) && !open) void tree.expand(row.id)
                }}
              >
                <span
                  aria-hidden
                  style={{ width: 14, display: 'inline-block', textAlign: 'center', color: 'var(--mantine-color-dimmed)' }}
                  onClick={(e) => {
                    if (!expandable(row.node)) return
                    e.stopPropagation()
                    tree.toggle(row.id)
                  }}
                >
                  {expandable(row.node) ? (open ? '▾' : '▸') : ''}
                </span>
                <NodeIcon type={row.node.type} open={open} />
                <Text size="sm" span truncate>
                  {row.node.name}
                </Text>
                {row.node.type === 'repository' && row.node.packageType && (
                  <Text size="xs" c="dimmed" span>
                    {PACKAGE_TYPE_NAMES[row.node.packageType]} · {row.node.rclass}
                  </Text>
                )}
              </div>
            )
          })}
        </div>
      </Box>
    </Box>
  )
}

/** An id usable in an HTML id attribute. */
function cssId(id: string): string {
  return Array.from(new TextEncoder().encode(id), (b) => b.toString(16).padStart(2, '0')).join('')
}
