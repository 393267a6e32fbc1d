import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import { WriteWatch } from './dbWrites.js'

/** The committed-write reports in-memory caches rely on, on the real database (SQLite or PostgreSQL). */
describe('committed writes, by table', () => {
  let t: TestApp
  const seen: string[][] = []
  let stop: () => void

  beforeAll(async () => {
    t = await createTestApp()
    // Only the tables these tests write: the node's own background work (its heartbeat) writes others.
    const watched = new Set(['settings', 'files', 'tokens', '*'])
    stop = t.app.db.writes.on((tables) => {
      const mine = [...tables].filter((name) => watched.has(name)).sort()
      if (mine.length > 0) seen.push(mine)
    })
  })
  afterAll(async () => {
    stop()
    await t.close()
  })

  const db = () => t.app.db.kysely

  it('reports a write outside a transaction once it ran, and reads not at all', async () => {
    seen.length = 0
    await db().selectFrom('settings').selectAll().execute()
    expect(seen).toEqual([])
    await db().insertInto('settings').values({ key: 'test.one', value: '1', updated_at: Date.now() }).execute()
    expect(seen).toEqual([['settings']])
    await db().updateTable('settings').set({ value: '2' }).where('key', '=', 'test.one').execute()
    await db().deleteFrom('settings').where('key', '=', 'test.one').execute()
    expect(seen).toEqual([['settings'], ['settings'], ['settings']])
  })

  it('reports the writes of a transaction after its COMMIT, and nothing for a rollback', async () => {
    seen.length = 0
    await db()
      .transaction()
      .execute(async (tx) => {
        await tx.insertInto('settings').values({ key: 'test.two', value: '1', updated_at: Date.now() }).execute()
        await tx.updateTable('files').set({ mime_type: 'x' }).where('id', '=', -1).execute()
        // Not committed yet: a cache dropped now could be refilled with what other connections still see.
        expect(seen).toEqual([])
      })
    expect(seen).toEqual([['files', 'settings']])

    seen.length = 0
    await expect(
      db()
        .transaction()
        .execute(async (tx) => {
          await tx.deleteFrom('settings').where('key', '=', 'test.two').execute()
          throw new Error('changed my mind')
        }),
    ).rejects.toThrow('changed my mind')
    expect(seen).toEqual([])
    expect(await db().selectFrom('settings').select('key').where('key', '=', 'test.two').executeTakeFirst()).toBeDefined()
  })

  it('leaves out updates of bookkeeping columns alone (last use, download counts)', async () => {
    seen.length = 0
    await db().updateTable('tokens').set({ last_used_at: Date.now() }).where('id', '=', 'none').execute()
    await db()
      .updateTable('files')
      .set((eb) => ({ download_count: eb('download_count', '+', 1), last_downloaded_at: Date.now() }))
      .where('id', '=', -1)
      .execute()
    expect(seen).toEqual([])
    await db().updateTable('tokens').set({ last_used_at: Date.now(), expires_at: 0 }).where('id', '=', 'none').execute()
    expect(seen).toEqual([['tokens']])
  })
})

describe('writes and sibling worker processes', () => {
  it("relays this process's committed writes, and hands a sibling's to the listeners without relaying them back", () => {
    const watch = new WriteWatch()
    const heard: [string[], boolean][] = []
    const relayed: string[][] = []
    watch.on((tables, fromSibling) => heard.push([[...tables], fromSibling]))
    watch.addRelay((tables) => relayed.push([...tables]))
    watch.notify(new Set(['files']))
    watch.notifyFromSibling(new Set(['tokens']))
    watch.notify(new Set())
    expect(heard).toEqual([
      [['files'], false],
      [['tokens'], true],
    ])
    expect(relayed).toEqual([['files']])
  })
})
