import { describe, expect, it } from 'vitest'
import { AnswerCache, packagesChanged, packagesChangedBy } from './answerCache.js'

/** The short-lived answer cache: what each kind of change makes stale. */
describe('answers kept for a moment', () => {
  const counted = () => {
    let calls = 0
    return {
      compute: async () => ++calls,
      get calls() {
        return calls
      },
    }
  }

  it('keeps an answer until any change, or its lifetime, ends it', async () => {
    const cache = new AnswerCache(2000)
    const answer = counted()
    expect(await cache.get('k', answer.compute, 1000)).toBe(1)
    expect(await cache.get('k', answer.compute, 2999)).toBe(1)
    expect(await cache.get('k', answer.compute, 3000)).toBe(2)
    packagesChanged(['some-repo'])
    expect(await cache.get('k', answer.compute, 3001)).toBe(3)
  })

  it('keeps an answer of some repositories through changes to others', async () => {
    const cache = new AnswerCache(2000)
    const answer = counted()
    const get = () => cache.get('k', answer.compute, 1000, ['virtual', 'member'])
    expect(await get()).toBe(1)
    packagesChanged(['elsewhere'])
    packagesChangedBy(new Set(['files', 'files@elsewhere', 'blobs']), ['files', 'package_versions'])
    packagesChangedBy(new Set(['blobs']), ['files', 'package_versions'])
    expect(await get()).toBe(1)
    packagesChanged(['member'])
    expect(await get()).toBe(2)
    packagesChangedBy(new Set(['package_versions', 'package_versions@virtual']), ['files', 'package_versions'])
    expect(await get()).toBe(3)
    // Told without repositories (another node's report, or a table of no repository): all.
    packagesChangedBy(new Set(['files']), ['files'])
    expect(await get()).toBe(4)
    packagesChanged()
    expect(await get()).toBe(5)
    expect(await get()).toBe(5)
  })
})
