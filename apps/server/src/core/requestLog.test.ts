import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../test/testApp.js'
import { redactUrl } from './requestLog.js'

describe('request summary log', () => {
  it('redacts secrets carried in URLs', () => {
    expect(redactUrl('/ui/api/v1/ui/auth/validateToken?key=abc123')).toBe('/ui/api/v1/ui/auth/validateToken?key=[redacted]')
    expect(redactUrl('/ui/api/v1/ui/auth/oauth/callback?code=c0de&state=st4te&iss=http%3A%2F%2Fidp')).toBe(
      '/ui/api/v1/ui/auth/oauth/callback?code=[redacted]&state=[redacted]&iss=http%3A%2F%2Fidp',
    )
    expect(redactUrl('/ui/api/v1/ui/auth/invitation?Token=t0k')).toBe('/ui/api/v1/ui/auth/invitation?Token=[redacted]')
    expect(redactUrl('/access/api/v2/authentication/jfrog_client_login/token/s3ss10n')).toBe(
      '/access/api/v2/authentication/jfrog_client_login/token/[redacted]',
    )
    expect(redactUrl('/api/system/ping')).toBe('/api/system/ping')
    expect(redactUrl('/ui/packages?q=react&page=2')).toBe('/ui/packages?q=react&page=2')
  })

  it('never writes a reset key, invitation token or OAuth code to the log file', async () => {
    const t = await createTestApp()
    try {
      for (const url of [
        '/ui/api/v1/ui/auth/invitation?token=INVITATION-SECRET-1',
        '/ui/api/v1/ui/auth/oauth/callback?code=OAUTH-CODE-SECRET-2&state=OAUTH-STATE-SECRET-3',
        '/access/api/v2/authentication/jfrog_client_login/token/CLI-SESSION-SECRET-4',
      ]) {
        await t.fastify.inject({ url })
      }
      await t.fastify.inject({ method: 'POST', url: '/ui/api/v1/ui/auth/validateToken?key=RESET-KEY-SECRET-5' })
      await t.stop()
      const raw = fs.readFileSync(path.join(t.dataDir, 'logs', 'trove.log'), 'utf8')
      expect(raw).toContain('[redacted]')
      for (const secret of [
        'INVITATION-SECRET-1',
        'OAUTH-CODE-SECRET-2',
        'OAUTH-STATE-SECRET-3',
        'CLI-SESSION-SECRET-4',
        'RESET-KEY-SECRET-5',
      ]) {
        expect(raw).not.toContain(secret)
      }
    } finally {
      await t.close()
    }
  })
})
