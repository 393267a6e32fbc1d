import { Pagination } from '@mantine/core'
import { useState } from 'react'

export const PAGE_SIZE = 25

/** A list cut into pages of PAGE_SIZE; once the list shrinks, a page past its end shows the last. */
export function usePaged<T>(rows: T[]) {
  const [page, setPage] = useState(1)
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE))
  const current = Math.min(page, pages)
  return { page: current, pages, setPage, rows: rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE) }
}

export function Pager({ page, pages, onChange }: { page: number; pages: number; onChange: (page: number) => void }) {
  return pages > 1 ? <Pagination size="sm" total={pages} value={page} onChange={onChange} /> : null
}
