import { afterEach, describe, expect, it, vi } from 'vitest'
import { json } from '../../../test/fetchStub'
import { stubRoutes } from '../../../test/routeStub'
import { logout } from './logout'

describe('logout', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    // biome-ignore lint/suspicious/noDocumentCookie: the test sets and clears the session's CSRF cookie
    document.cookie = 'trove_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
  })

  it('sends nothing from a browser without a session (an anonymous visitor sent to sign in)', async () => {
    const calls = stubRoutes({})
    await logout()
    expect(calls).toEqual([])
  })

  it('ends a session with its CSRF token, and an already-ended one is not an error', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test sets and clears the session's CSRF cookie
    document.cookie = 'trove_csrf=token-1; path=/'
    const calls = stubRoutes({
      'POST /ui/api/v1/ui/auth/logout': () => json(401, { errors: [{ status: 401, message: 'gone' }] }),
    })
    await logout()
    expect(calls.map((c) => [c.method, c.path, c.headers['x-csrf-token']])).toEqual([
      ['POST', '/ui/api/v1/ui/auth/logout', 'token-1'],
    ])
  })
})
