import { describe, expect, it } from 'vitest'
import { sanitizeProviderUrl } from './safeUrl.js'

describe('sanitizeProviderUrl (shell §5)', () => {
  it.each([
    ['https://idp.example.com/sso?x=1', 'https://idp.example.com/sso?x=1'],
    ['http://127.0.0.1:8080/auth', 'http://127.0.0.1:8080/auth'],
    ['  https://idp.example.com  ', 'https://idp.example.com/'],
    ['/ui/api/v1/ui/auth/oauth/corp/authorize', '/ui/api/v1/ui/auth/oauth/corp/authorize'],
  ])('keeps %s', (input, expected) => {
    expect(sanitizeProviderUrl(input)).toBe(expected)
  })

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/x',
    '//evil.example.com/login',
    '/\\evil.example.com',
    'https:\\\\evil.example.com',
    'https://idp.example.com/\u0000',
    'not a url',
    '',
    null,
    undefined,
    42,
  ])('refuses %s', (input) => {
    expect(sanitizeProviderUrl(input)).toBeNull()
  })
})
