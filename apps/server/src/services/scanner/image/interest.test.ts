import { describe, expect, it } from 'vitest'
import { interestOf, normalizeEntryPath } from './interest.js'

describe('normalizeEntryPath', () => {
  it.each([
    ['./etc/os-release', 'etc/os-release'],
    ['etc/os-release', 'etc/os-release'],
    ['/etc/os-release', 'etc/os-release'],
    ['./usr/lib/', 'usr/lib'],
    ['usr//lib/./python3/../os-release', 'usr/lib/os-release'],
  ])('reads %s as %s', (name, expected) => {
    expect(normalizeEntryPath(name)).toBe(expected)
  })

  it.each(['.', './', '/', '', '..', '../etc/os-release', 'usr/../../etc/passwd', '/../etc/os-release'])(
    'gives no path for %j',
    (name) => {
      expect(normalizeEntryPath(name)).toBeNull()
    },
  )
})

describe('interestOf', () => {
  it('knows the OS databases, manifests, jars and executables', () => {
    expect(interestOf('etc/os-release', 0o644, 100)).toBe('os-release')
    expect(interestOf('usr/lib/os-release', 0o644, 100)).toBe('os-release')
    expect(interestOf('var/lib/dpkg/status', 0o644, 100)).toBe('dpkg')
    expect(interestOf('var/lib/dpkg/status.d/libc6', 0o644, 100)).toBe('dpkg')
    expect(interestOf('var/lib/dpkg/status.d/libc6.md5sums', 0o644, 100)).toBeNull()
    expect(interestOf('var/lib/dpkg/status-old', 0o644, 100)).toBeNull()
    expect(interestOf('lib/apk/db/installed', 0o644, 100)).toBe('apk')
    expect(interestOf('app/package-lock.json', 0o644, 100)).toBe('manifest')
    expect(interestOf('opt/app/app.war', 0o644, 100)).toBe('jar')
    expect(interestOf('usr/local/bin/tool', 0o755, 100)).toBe('executable')
    expect(interestOf('usr/local/bin/tool', 0o755, 300 * 1024 * 1024)).toBeNull()
    expect(interestOf('usr/share/doc/README', 0o644, 100)).toBeNull()
    expect(interestOf('usr/bin/empty', 0o755, 0)).toBeNull()
  })
})
