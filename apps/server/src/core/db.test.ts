import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import { migrateToLatest } from './migrate.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('the metadata database', () => {
  it('is the one the suite was asked to run on', () => {
    expect(t.app.db.dialect).toBe(process.env.TROVE_TEST_DATABASE_URL ? 'postgres' : 'sqlite')
  })

  it('is migrated on start, and migrating again changes nothing', async () => {
    expect(await migrateToLatest(t.app.db)).toEqual([])
    const users = await t.app.db.kysely.selectFrom('users').select('name').execute()
    expect(users).toEqual([{ name: 'admin' }])
  })

  it.runIf(!process.env.TROVE_TEST_DATABASE_URL)('runs SQLite in WAL mode with foreign keys on', async () => {
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.app.db.kysely)
    expect(journal.rows[0]?.journal_mode).toBe('wal')
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(t.app.db.kysely)
    expect(fk.rows[0]?.foreign_keys).toBe(1)
  })
})
