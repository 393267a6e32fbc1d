import { describe, expect, it } from 'vitest'
import { debianRelease } from './debianReleases.js'

describe('Debian releases of distributions', () => {
  it('names the release of a code name, with or without a suite, or of a number', () => {
    expect(debianRelease('bookworm')).toBe('12')
    expect(debianRelease('trixie')).toBe('13')
    expect(debianRelease('bullseye')).toBe('11')
    expect(debianRelease('bookworm-security')).toBe('12')
    expect(debianRelease('bullseye-backports')).toBe('11')
    expect(debianRelease('buster/updates')).toBe('10')
    expect(debianRelease('Bookworm')).toBe('12')
    expect(debianRelease('12')).toBe('12')
    expect(debianRelease('debian12')).toBe('12')
  })

  it('names none for moving names and other distributions', () => {
    for (const name of ['stable', 'testing', 'unstable', 'sid', 'focal', 'jammy', 'internal', '', '123']) {
      expect(debianRelease(name), name).toBeNull()
    }
  })
})
