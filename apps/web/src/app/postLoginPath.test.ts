import { beforeEach, describe, expect, it } from 'vitest'
import { resolvePostLoginPath, savePostLoginPath, takePostLoginPath } from './postLoginPath'

const user = { admin: false }
const admin = { admin: true }
const now = Date.UTC(2026, 10, 22, 12)
const saved = (path: string, ageMs = 0) => ({ path, savedAt: now - ageMs })

describe('resolvePostLoginPath', () => {
  it('opens the saved path', () => {
    expect(resolvePostLoginPath(saved('/packages?pkg=npm'), user, now)).toBe('/packages?pkg=npm')
  })
  it('uses / when nothing was saved or the path is older than 8 hours', () => {
    expect(resolvePostLoginPath(null, user, now)).toBe('/')
    expect(resolvePostLoginPath(saved('/packages', 8 * 3600_000 + 1), user, now)).toBe('/')
    expect(resolvePostLoginPath(saved('/packages', 8 * 3600_000), user, now)).toBe('/packages')
  })
  it('ignores admin paths for non-admins only', () => {
    expect(resolvePostLoginPath(saved('/admin/management/users'), user, now)).toBe('/')
    expect(resolvePostLoginPath(saved('/admin/management/users'), admin, now)).toBe('/admin/management/users')
  })
  it('ignores sign-in routes, except the CLI login path', () => {
    expect(resolvePostLoginPath(saved('/login/otp-login'), user, now)).toBe('/')
    expect(resolvePostLoginPath(saved('/logout'), user, now)).toBe('/')
    expect(resolvePostLoginPath(saved('/plugs/extension/cli/verify'), user, now)).toBe('/plugs/extension/cli/verify')
  })
})

describe('the stored path', () => {
  beforeEach(() => sessionStorage.clear())
  it('is taken once', () => {
    savePostLoginPath('/integrations', sessionStorage, now)
    expect(takePostLoginPath()).toEqual({ path: '/integrations', savedAt: now })
    expect(takePostLoginPath()).toBeNull()
  })
  it('is not saved for / or sign-in routes', () => {
    savePostLoginPath('/')
    savePostLoginPath('/login')
    expect(takePostLoginPath()).toBeNull()
  })
})
