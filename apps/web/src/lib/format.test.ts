import { describe, expect, it } from 'vitest'
import { formatSize } from './format'

describe('formatSize', () => {
  it('writes bytes as people read them', () => {
    expect(formatSize(512)).toBe('512 B')
    expect(formatSize(1536)).toBe('1.5 KB')
    expect(formatSize(5 * 1024 ** 3)).toBe('5.0 GB')
    expect(formatSize(3 * 1024 ** 5)).toBe('3072.0 TB')
    expect(formatSize(undefined)).toBe('')
    expect(formatSize(undefined, '—')).toBe('—')
  })
})
