import net from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import { openDb } from './db.js'
import { DatabaseUnavailable, isDatabaseUnavailable } from './errors.js'
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

  it.runIf(!!process.env.TROVE_TEST_DATABASE_URL)(
    'survives PostgreSQL ending a connection a transaction holds between two queries',
    async () => {
      const lost: Error[] = []
      const db = await openDb({ databaseUrl: t.config.databaseUrl, dataDir: t.dataDir }, (err) => lost.push(err))
      try {
        const failed = await db.kysely
          .transaction()
          .execute(async (tx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)
            // Another session ends this one while the transaction awaits something else.
            await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(t.app.db.kysely)
            for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 20))
            await sql`select 1`.execute(tx)
          })
          .then(
            () => null,
            (error: Error) => error,
          )
        // Reported, not thrown at the process; the transaction fails; the next query works.
        expect(lost.length).toBeGreaterThan(0)
        expect(failed).toBeInstanceOf(Error)
        expect((await sql<{ one: number }>`select 1 as one`.execute(db.kysely)).rows).toEqual([{ one: 1 }])
      } finally {
        await db.close()
      }
    },
  )

  it.runIf(!!process.env.TROVE_TEST_DATABASE_URL)(
    'takes a connection reset under a query for the database going away',
    async () => {
      // A TCP proxy in front of PostgreSQL that resets its sockets on demand, as a network or a
      // dying server does: the query meets ECONNRESET, not a PostgreSQL error.
      const target = new URL(t.config.databaseUrl as string)
      const sockets = new Set<net.Socket>()
      const proxy = net.createServer((client) => {
        const server = net.connect(Number(target.port || 5432), target.hostname)
        for (const s of [client, server]) {
          sockets.add(s)
          s.on('error', () => {})
        }
        client.pipe(server).pipe(client)
      })
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
      const via = new URL(target)
      via.hostname = '127.0.0.1'
      via.port = String((proxy.address() as net.AddressInfo).port)
      const db = await openDb({ databaseUrl: via.toString(), dataDir: t.dataDir })
      try {
        const sleeping = sql`select pg_sleep(5)`.execute(db.kysely).then(
          () => null,
          (error: unknown) => error,
        )
        await new Promise((r) => setTimeout(r, 300))
        for (const s of sockets) s.resetAndDestroy()
        const error = await sleeping
        expect(error).toBeInstanceOf(DatabaseUnavailable)
        expect(isDatabaseUnavailable(error)).toBe(true)
      } finally {
        await db.close().catch(() => {})
        await new Promise((r) => proxy.close(r))
      }
    },
  )

  it.runIf(!process.env.TROVE_TEST_DATABASE_URL)('runs SQLite in WAL mode with foreign keys on', async () => {
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.app.db.kysely)
    expect(journal.rows[0]?.journal_mode).toBe('wal')
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(t.app.db.kysely)
    expect(fk.rows[0]?.foreign_keys).toBe(1)
  })
})
