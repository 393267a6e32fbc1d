import { Limits } from '@trove/contracts/limits'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearMicrofrontendCache, loadMicrofrontend, microfrontendUrl, mountMicrofrontend } from './microfrontend'

afterEach(() => {
  clearMicrofrontendCache()
  vi.restoreAllMocks()
})

const app = {
  mount: (el: HTMLElement) => {
    el.textContent = 'hello'
  },
}

describe('micro-frontends (§1, §8, §9)', () => {
  it('are fetched from /ui/{path} and kept for a week', async () => {
    expect(microfrontendUrl('demo/greeting.js')).toBe('/ui/demo/greeting.js')
    const importer = vi.fn(async () => app)
    let now = 1_000
    await loadMicrofrontend('a.js', { importer, now: () => now })
    now += Limits.microfrontendCacheTtlMs - 1
    await loadMicrofrontend('a.js', { importer, now: () => now })
    expect(importer).toHaveBeenCalledTimes(1)
    expect(importer).toHaveBeenCalledWith('/ui/a.js')
    now += 2
    await loadMicrofrontend('a.js', { importer, now: () => now })
    expect(importer).toHaveBeenCalledTimes(2)
  })

  it('fall back to the local import, logging the fetch failure', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const module = await loadMicrofrontend('b.js', {
      importer: () => Promise.reject(new Error('404')),
      localImport: async () => app,
    })
    const el = document.createElement('div')
    await mountMicrofrontend(module, el)
    expect(el.textContent).toBe('hello')
    expect(log).toHaveBeenCalledWith('Could not fetch microfrontend application', expect.any(Error))
  })

  it('without a fallback fail with the exact text, and time out at the limit', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(loadMicrofrontend('c.js', { importer: () => Promise.reject(new Error('404')) })).rejects.toThrow(
      'Error: failed resolving microfrontend c.js',
    )
    vi.useFakeTimers()
    const slow = loadMicrofrontend('d.js', { importer: () => new Promise(() => {}) })
    const check = expect(slow).rejects.toThrow('Error: failed resolving microfrontend d.js')
    await vi.advanceTimersByTimeAsync(Limits.microfrontendMountLimitMs)
    await check
    vi.useRealTimers()
  })

  it('log a mount failure', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const broken = { mount: () => Promise.reject(new Error('boom')) }
    await expect(mountMicrofrontend(broken, document.createElement('div'))).rejects.toThrow('boom')
    expect(log).toHaveBeenCalledWith('Could not setup microfrontend application', expect.any(Error))
  })
})
