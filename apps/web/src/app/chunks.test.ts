import { Messages } from '@trove/contracts/messages'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ChunkLoadError, chunkState, loadChunk } from './chunks'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('loadChunk', () => {
  it('goes pending → loaded', async () => {
    let resolve: (m: { A: number }) => void = () => {}
    const loading = loadChunk('a', () => new Promise<{ A: number }>((r) => (resolve = r)))
    expect(chunkState('a')).toBe('pending')
    resolve({ A: 1 })
    await expect(loading).resolves.toEqual({ A: 1 })
    expect(chunkState('a')).toBe('loaded')
  })

  it("fails with 'Loading chunk {id} failed' of type timeout after 120000 ms", async () => {
    vi.useFakeTimers()
    const loading = loadChunk('slow', () => new Promise(() => {}))
    const assertion = expect(loading).rejects.toMatchObject({
      name: 'ChunkLoadError',
      type: 'timeout',
      message: 'Loading chunk slow failed',
    })
    vi.advanceTimersByTime(119_999)
    expect(chunkState('slow')).toBe('pending')
    vi.advanceTimersByTime(1)
    await assertion
    expect(chunkState('slow')).toBe('failed')
  })

  it('tells a missing chunk (404) from one that failed otherwise', async () => {
    const fetchMock = vi.fn(async (url: string) => new Response(null, { status: url.includes('gone') ? 404 : 200 }))
    vi.stubGlobal('fetch', fetchMock)
    const missing = loadChunk('m', () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/ui/assets/gone-1.js')),
    )
    await expect(missing).rejects.toMatchObject({ type: 'missing' })
    const broken = loadChunk('b', () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/ui/assets/ok-1.js')),
    )
    await expect(broken).rejects.toMatchObject({ type: 'error' })
    const thrown = loadChunk('t', () => Promise.reject(new Error('x is not a function')))
    await expect(thrown).rejects.toMatchObject({ type: 'error', chunkId: 't' })
    expect(chunkState('m')).toBe('failed')
  })

  it('reports a stylesheet that failed to load with the CSS_CHUNK_LOAD_FAILED code', async () => {
    const css = loadChunk('c', () => Promise.reject(new Error('Unable to preload CSS for /ui/assets/c.css')))
    await expect(css).rejects.toBeInstanceOf(ChunkLoadError)
    await expect(
      loadChunk('c', () => Promise.reject(new Error('Unable to preload CSS for /ui/assets/c.css'))),
    ).rejects.toMatchObject({
      code: Messages.cssChunkLoadFailedCode,
    })
  })
})
