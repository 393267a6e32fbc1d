import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTestApp, signIn } from '../../../test/testApp.js'

describe('the first administrator', () => {
  it('gets a generated password, written to a file only its owner can read', async () => {
    const t = await createTestApp({ TROVE_ADMIN_PASSWORD: '' })
    try {
      const first = t.app.firstAdmin
      expect(first?.name).toBe('admin')
      expect(first?.generatedPassword).toMatch(/^[\w-]{20,}$/)
      const file = path.join(t.dataDir, 'initial-admin-password')
      expect(first?.passwordFile).toBe(file)
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(first?.generatedPassword)
      const session = await signIn(t.fastify, 'admin', first?.generatedPassword ?? '')
      expect(session.csrf).not.toBe('')
    } finally {
      await t.close()
    }
  })

  it('uses TROVE_ADMIN_PASSWORD when set, and writes no file', async () => {
    const t = await createTestApp({ TROVE_ADMIN_PASSWORD: 'configured-secret' })
    try {
      expect(t.app.firstAdmin).toEqual({ name: 'admin' })
      expect(fs.existsSync(path.join(t.dataDir, 'initial-admin-password'))).toBe(false)
      await signIn(t.fastify, 'admin', 'configured-secret')
    } finally {
      await t.close()
    }
  })
})
