import { describe, expect, it } from 'vitest'
import { isAcceptablePortalUrl, portalTarget } from './accountPortalRules'

describe('the account portal target', () => {
  it('is an absolute http(s) URL, trimmed', () => {
    expect(portalTarget(' https://accounts.example.org/me ')).toBe('https://accounts.example.org/me')
    expect(portalTarget('http://10.0.0.5:8080/portal')).toBe('http://10.0.0.5:8080/portal')
  })

  it('is nowhere when none is set or the value is not a safe absolute URL', () => {
    for (const value of [undefined, '', '   ', 'javascript:alert(1)', '//evil.example.org', '/ui/overview', 'ftp://x.org']) {
      expect(portalTarget(value), String(value)).toBeNull()
    }
  })

  it('lets the form save an empty value (no portal) or a URL the redirect would follow', () => {
    expect(isAcceptablePortalUrl('')).toBe(true)
    expect(isAcceptablePortalUrl('https://accounts.example.org')).toBe(true)
    expect(isAcceptablePortalUrl('accounts.example.org')).toBe(false)
  })
})
