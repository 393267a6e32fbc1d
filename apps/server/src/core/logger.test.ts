import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, createTestApp, signIn, tempDir } from '../../test/testApp.js'
import { RotatingFile } from './logger.js'

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('RotatingFile', () => {
  it('keeps the current name and shifts older files to .1, .2 … keeping at most maxFiles', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'svc.log')
    const out = new RotatingFile(file, 1000, 2)
    const line = `${'x'.repeat(99)}\n`
    for (let i = 0; i < 45; i++) out.write(line)
    await out.close()
    expect(fs.readdirSync(dir).sort()).toEqual(['svc.1.log', 'svc.2.log', 'svc.log'])
    expect(fs.statSync(path.join(dir, 'svc.1.log')).size).toBe(1000)
    expect(fs.statSync(file).size).toBe(500)
  })
})

describe('request logging', () => {
  it('writes one JSON summary line per request to <data dir>/logs/trove.log, and no secrets', async () => {
    const t = await createTestApp()
    try {
      await t.fastify.inject({ method: 'GET', url: '/api/system/version', headers: { 'x-request-id': 'req-42' } })
      await signIn(t.fastify)
      await t.stop()
      const entries = lines(path.join(t.dataDir, 'logs', 'trove.log'))
      const summary = entries.find((e) => e.reqId === 'req-42')
      expect(summary).toMatchObject({ service: 'trove', msg: 'request', method: 'GET', url: '/api/system/version', status: 200 })
      expect(typeof summary?.durationMs).toBe('number')
      expect(typeof summary?.time).toBe('string')
      expect(entries.filter((e) => e.reqId === 'req-42')).toHaveLength(1)
      const raw = fs.readFileSync(path.join(t.dataDir, 'logs', 'trove.log'), 'utf8')
      expect(raw).toContain('signed in')
      expect(raw).not.toContain(ADMIN_PASSWORD)
      expect(raw).not.toContain('trove_session=')
    } finally {
      await t.close()
    }
  })
})
