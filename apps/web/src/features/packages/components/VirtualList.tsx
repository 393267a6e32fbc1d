import { Box, Loader, Text } from '@mantine/core'
import { useVirtualizer } from '@tanstack/react-virtual'
import { type ReactNode, useEffect, useRef } from 'react'

export interface VirtualListProps<T> {
  items: T[]
  rowHeight: number
  /** The list's visible height. */
  height: number | string
  label: string
  hasMore: boolean
  loadingMore: boolean
  onLoadMore: () => void
  renderRow: (item: T, index: number) => ReactNode
  rowKey: (item: T) => string
}

/**
 * A long list that draws only the rows in view and asks for the next page as the end comes near,
 * so thousands of rows page without freezing the page.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  height,
  label,
  hasMore,
  loadingMore,
  onLoadMore,
  renderRow,
  rowKey,
}: VirtualListProps<T>) {
  const parent = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => parent.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    // Without layout (tests), draw the first screenful.
    initialRect: { width: 800, height: typeof height === 'number' ? height : 600 },
  })
  const rows = virtualizer.getVirtualItems()
  const last = rows[rows.length - 1]
  useEffect(() => {
    if (last && last.index >= items.length - 20 && hasMore && !loadingMore) onLoadMore()
  }, [last, items.length, hasMore, loadingMore, onLoadMore])
  return (
    <Box ref={parent} style={{ height, overflowY: 'auto' }}>
      <ul
        aria-label={label}
        style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0, listStyle: 'none' }}
      >
        {rows.map((row) => {
          const item = items[row.index] as T
          return (
            <li
              key={rowKey(item)}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: row.size,
                transform: `translateY(${row.start}px)`,
              }}
            >
              {renderRow(item, row.index)}
            </li>
          )
        })}
      </ul>
      {loadingMore && (
        <Text ta="center" size="sm" c="dimmed" py="xs">
          <Loader size="xs" />
        </Text>
      )}
    </Box>
  )
}
