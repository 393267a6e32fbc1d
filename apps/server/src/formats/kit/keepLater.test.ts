import { describe, expect, it } from 'vitest'
import { allKept, beingKept, keepLater, onKeepFailure, smallBody, sumsOf } from './keepLater.js'

describe('keepLater', () => {
  it('answers the value at once, holds it under its key until kept, then lets it go', async () => {
    let finish = () => {}
    const kept = new Promise<void>((resolve) => {
      finish = resolve
    })
    const value = keepLater(
      'k1',
      (done) => ({ answer: 42, done }),
      async () => {
        await kept
        return 'stored'
      },
    )
    expect(value.answer).toBe(42)
    expect(beingKept('k1')).toBe(value)
    finish()
    expect(await value.done).toBe('stored')
    await allKept()
    expect(beingKept('k1')).toBeUndefined()
  })

  it('reports a failed keep, resolves it to undefined and holds nothing after', async () => {
    const reported: string[] = []
    onKeepFailure((error, key) => reported.push(`${key}: ${(error as Error).message}`))
    try {
      const value = keepLater(
        'k2',
        (done) => done,
        async () => {
          throw new Error('disk full')
        },
      )
      expect(await value).toBeUndefined()
      await allKept()
      expect(reported).toEqual(['k2: disk full'])
      expect(beingKept('k2')).toBeUndefined()
    } finally {
      onKeepFailure(() => {})
    }
  })

  it('a newer keep under the same key is not let go by the older one', async () => {
    let finishFirst = () => {}
    const first = keepLater(
      'k3',
      () => 'first',
      () =>
        new Promise<void>((resolve) => {
          finishFirst = resolve
        }),
    )
    const second = keepLater(
      'k3',
      () => 'second',
      () => new Promise<void>((resolve) => setTimeout(resolve, 20)),
    )
    expect(first).toBe('first')
    finishFirst()
    await new Promise((resolve) => setTimeout(resolve, 1))
    expect(beingKept('k3')).toBe(second)
    await allKept()
    expect(beingKept('k3')).toBeUndefined()
  })

  it('reads a small declared body whole, and leaves a large, unsized or encoded one unread', async () => {
    const body = Buffer.from('hello')
    expect(await smallBody(new Response(body, { headers: { 'content-length': '5' } }))).toEqual(body)
    expect(await smallBody(new Response(body))).toBeUndefined()
    expect(await smallBody(new Response(body, { headers: { 'content-length': String(2 * 1024 * 1024) } }))).toBeUndefined()
    expect(
      await smallBody(new Response(body, { headers: { 'content-length': '5', 'content-encoding': 'gzip' } })),
    ).toBeUndefined()
    await expect(smallBody(new Response(body, { headers: { 'content-length': '9' } }))).rejects.toThrow(/5 of 9 bytes/)
    expect(sumsOf(body)).toEqual({
      size: 5,
      sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
      sha1: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d',
      md5: '5d41402abc4b2a76b9719d911017c592',
    })
  })
})
