import { describe, expect, it } from 'vitest'
import { pageTitle } from './pageTitle'

describe('pageTitle', () => {
  it('is the screen title, a dash, then the server name', () => {
    expect(pageTitle('Packages', 'Acme Artifacts')).toBe('Packages - Acme Artifacts')
  })
  it('falls back to the brand name', () => {
    expect(pageTitle('Packages', null)).toBe('Packages - Trove')
    expect(pageTitle('Packages', '  ')).toBe('Packages - Trove')
    expect(pageTitle(undefined, undefined)).toBe('Trove')
  })
})
