import { describe, expect, it } from 'vitest'
import { DatabaseUnavailable, HttpError } from './errors.js'
import { STALE_WHILE_DOWN_MS, servesStale } from './staleWhileDown.js'

describe('stale answers while the database is down', () => {
  const now = 1_000_000_000
  const away = new DatabaseUnavailable(new Error('connect ECONNREFUSED'))

  it('stand in only for a database that cannot be reached', () => {
    expect(servesStale(away, now - 1000, now)).toBe(true)
    expect(servesStale(Object.assign(new Error('terminating connection'), { code: '57P01' }), now - 1000, now)).toBe(true)
    expect(servesStale(new HttpError(404, 'not found'), now - 1000, now)).toBe(false)
    expect(servesStale(new Error('syntax error'), now - 1000, now)).toBe(false)
  })

  it('are bounded in age, and need something kept', () => {
    expect(servesStale(away, now - STALE_WHILE_DOWN_MS, now)).toBe(true)
    expect(servesStale(away, now - STALE_WHILE_DOWN_MS - 1, now)).toBe(false)
    expect(servesStale(away, undefined, now)).toBe(false)
  })
})
