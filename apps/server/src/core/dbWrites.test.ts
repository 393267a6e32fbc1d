import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo } from '../../test/clients.js'
import { createTestApp, signIn, type TestApp } from '../../test/testApp.js'
import { changedFor, changedScope, repositoriesChanged, WriteWatch } from './dbWrites.js'

type CompiledWrite = { query: Parameters<WriteWatch['tablesWritten']>[0]; queryId: Parameters<WriteWatch['tablesWritten']>[1] }

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
  const token = (id: string) => ({
    id,
    user_id: 1,
    kind: 'access' as const,
    secret_hash: id,
    secret_encrypted: null,
    description: null,
    created_at: Date.now(),
    expires_at: null,
    last_used_at: null,
  })

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
        await tx.insertInto('tokens').values(token('test.two')).execute()
        // Not committed yet: a cache dropped now could be refilled with what other connections still see.
        expect(seen).toEqual([])
      })
    expect(seen).toEqual([['settings', 'tokens']])

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
    await db().insertInto('tokens').values(token('test.three')).execute()
    seen.length = 0
    await db().updateTable('tokens').set({ last_used_at: Date.now() }).where('id', '=', 'test.three').execute()
    await db()
      .updateTable('files')
      .set((eb) => ({ download_count: eb('download_count', '+', 1), last_downloaded_at: Date.now() }))
      .where('id', '=', -1)
      .execute()
    expect(seen).toEqual([])
    await db().updateTable('tokens').set({ last_used_at: Date.now(), expires_at: 0 }).where('id', '=', 'test.three').execute()
    expect(seen).toEqual([['tokens']])
  })

  it('leaves out statements that changed no row, in a transaction or not', async () => {
    seen.length = 0
    await db().updateTable('tokens').set({ expires_at: 0 }).where('id', '=', 'none').execute()
    await db().deleteFrom('files').where('id', '=', -1).execute()
    await db()
      .transaction()
      .execute(async (tx) => {
        await tx.deleteFrom('settings').where('key', '=', 'none').execute()
        await tx.insertInto('tokens').values(token('test.four')).execute()
      })
    expect(seen).toEqual([['tokens']])
  })
})

/** Writes to a repository's rows name the repository, so that caches drop only its entries. */
describe('committed writes, by repository', () => {
  let t: TestApp
  const seen: string[][] = []
  let stop: () => void

  beforeAll(async () => {
    t = await createTestApp()
    stop = t.app.db.writes.on((tables) => {
      const mine = [...tables].filter((name) => name.startsWith('files')).sort()
      if (mine.length > 0) seen.push(mine)
    })
  })
  afterAll(async () => {
    stop()
    await t.close()
  })

  const db = () => t.app.db.kysely
  const row = (repo_key: string, path: string) => ({
    repo_key,
    path,
    name: path,
    size: 1,
    md5: 'm',
    sha1: 's',
    sha256: 'x'.repeat(64),
    mime_type: 'text/plain',
    created_at: Date.now(),
    modified_at: Date.now(),
  })

  it('names the repositories an insert gives, and those an update’s or a deletion’s WHERE requires', () => {
    const told = (query: { compile(): CompiledWrite }) => {
      const compiled = query.compile()
      return [...(t.app.db.writes.tablesWritten(compiled.query, compiled.queryId) ?? [])].sort()
    }
    expect(
      told(
        db()
          .insertInto('files')
          .values([row('scope-a', 'one.txt'), row('scope-b', 'two.txt')]),
      ),
    ).toEqual(['files', 'files@scope-a', 'files@scope-b'])
    expect(
      told(db().updateTable('files').set({ mime_type: 'x' }).where('repo_key', '=', 'scope-a').where('path', '=', 'one.txt')),
    ).toEqual(['files', 'files@scope-a'])
    expect(
      told(
        db()
          .deleteFrom('files')
          .where((eb) => eb.and([eb('path', 'like', '%.txt'), eb('repo_key', 'in', ['scope-a', 'scope-b'])])),
      ),
    ).toEqual(['files', 'files@scope-a', 'files@scope-b'])
    // Bookkeeping alone is still not told; other tables are told by name only.
    expect(told(db().updateTable('files').set({ download_count: 2 }).where('repo_key', '=', 'scope-a'))).toEqual([])
    // A scope column that holds ids: the scan status of a version.
    expect(
      told(db().insertInto('scan_status').values({ version_id: 7, state: 'scanning', claimed_by: 'n', claimed_at: 1 })),
    ).toEqual(['scan_status', 'scan_status@7'])
    expect(told(db().deleteFrom('scan_status').where('version_id', '=', 12))).toEqual(['scan_status', 'scan_status@12'])
    expect(told(db().deleteFrom('scan_status').where('version_id', '>', 12))).toEqual(['scan_status', 'scan_status@*'])
    // A table without a scope column is told with "any" scope.
    expect(told(db().deleteFrom('settings').where('key', '=', 'x'))).toEqual(['settings', 'settings@*'])
    // Made about a subject: each scope carries it.
    const about = t.app.db.writes.about(db(), 'npm:x')
    expect(told(about.insertInto('files').values([row('scope-a', 'three.txt')]))).toEqual(['files', 'files@scope-a#npm:x'])
    expect(told(about.deleteFrom('settings').where('key', '=', 'x'))).toEqual(['settings', 'settings@*#npm:x'])
    expect(told(db().deleteFrom('settings').where('key', '=', 'x'))).toEqual(['settings', 'settings@*'])
    expect(() => t.app.db.writes.about(db(), 'npm:a,b')).toThrow('not a subject')
  })

  it('tells the writes of a transaction made about a subject with it, once committed', async () => {
    const admin = await signIn(t.fastify)
    await createRepo(t.fastify, admin, 'scope-s', { rclass: 'local', packageType: 'generic' })
    const headers = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
    const put = await t.fastify.inject({ method: 'PUT', url: '/artifactory/scope-s/in-tx.txt', headers, payload: 'x' })
    expect(put.statusCode).toBe(201)
    seen.length = 0
    await t.app.db.writes
      .about(db(), 'npm:y')
      .transaction()
      .execute(async (tx) => {
        await tx
          .updateTable('files')
          .set({ mime_type: 'x' })
          .where('repo_key', '=', 'scope-s')
          .where('path', '=', 'in-tx.txt')
          .execute()
        await tx.deleteFrom('files').where('repo_key', '=', 'scope-s').where('path', '=', 'in-tx.txt').execute()
      })
    expect(seen).toEqual([['files', 'files@scope-s#npm:y']])
  })

  it('says "any repository" where the statement does not tell, or moves rows to another', async () => {
    const admin = await signIn(t.fastify)
    const headers = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
    for (const key of ['scope-a', 'scope-c']) await createRepo(t.fastify, admin, key, { rclass: 'local', packageType: 'generic' })
    for (const name of ['one.txt', 'two.txt']) {
      const res = await t.fastify.inject({ method: 'PUT', url: `/artifactory/scope-a/${name}`, headers, payload: name })
      expect(res.statusCode).toBe(201)
    }
    const { id } = await db().selectFrom('files').select('id').where('repo_key', '=', 'scope-a').executeTakeFirstOrThrow()
    seen.length = 0
    await db().updateTable('files').set({ mime_type: 'x' }).where('id', '=', id).execute()
    await db().updateTable('files').set({ repo_key: 'scope-c' }).where('repo_key', '=', 'scope-a').execute()
    await db()
      .deleteFrom('files')
      .where((eb) => eb.or([eb('repo_key', '=', 'scope-c'), eb('id', '=', -1)]))
      .execute()
    expect(seen).toEqual([
      ['files', 'files@*'],
      ['files', 'files@*'],
      ['files', 'files@*'],
    ])
  })

  it('names the repository a generic deploy and a deletion through the API write to', async () => {
    const admin = await signIn(t.fastify)
    const token = await accessToken(t.fastify, admin)
    await createRepo(t.fastify, admin, 'scoped-generic', { rclass: 'local', packageType: 'generic' })
    seen.length = 0
    const headers = { authorization: `Bearer ${token}` }
    const put = await t.fastify.inject({ method: 'PUT', url: '/artifactory/scoped-generic/a/b.bin', headers, payload: 'bytes' })
    expect(put.statusCode, put.body).toBe(201)
    const del = await t.fastify.inject({ method: 'DELETE', url: '/artifactory/scoped-generic/a/b.bin', headers })
    expect(del.statusCode, del.body).toBe(204)
    expect(seen.length).toBeGreaterThan(0)
    expect(new Set(seen.flat())).toEqual(new Set(['files', 'files@scoped-generic']))
  })

  it('reads a report’s scope: named, all, or unchanged', () => {
    expect(changedScope(new Set(['files', 'files@a', 'files@b']), 'files')).toEqual(new Set(['a', 'b']))
    expect(changedScope(new Set(['files', 'files@a', 'files@*']), 'files')).toBe('all')
    // From a node that does not name repositories.
    expect(changedScope(new Set(['files']), 'files')).toBe('all')
    expect(changedScope(new Set(['*']), 'files')).toBe('all')
    expect(changedScope(new Set(['blobs']), 'files')).toBeUndefined()
    expect(repositoriesChanged(new Set(['files', 'files@a', 'dist_tags', 'dist_tags@b']), ['files', 'dist_tags'])).toEqual(
      new Set(['a', 'b']),
    )
    expect(repositoriesChanged(new Set(['files', 'files@a', 'packages']), ['files', 'packages'])).toBe('all')
    expect(repositoriesChanged(new Set(['blobs']), ['files', 'packages'])).toBeUndefined()
    // A subject's entries name their repository to every other reader.
    expect(changedScope(new Set(['files', 'files@a#npm:x']), 'files')).toEqual(new Set(['a']))
    expect(changedScope(new Set(['packages', 'packages@*#npm:x']), 'packages')).toBe('all')
  })

  it('reads which subjects and which repositories changed, a plain write beside a subject’s counting in full', () => {
    const subjectOnly = new Set(['files', 'files@a#npm:x', 'packages', 'packages@*#npm:x'])
    expect(changedFor(subjectOnly, ['files', 'packages'])).toEqual({ repositories: new Set(), subjects: new Set(['npm:x']) })
    expect(changedFor(new Set([...subjectOnly, 'files@b']), ['files', 'packages'])).toEqual({
      repositories: new Set(['b']),
      subjects: new Set(['npm:x']),
    })
    expect(changedFor(new Set([...subjectOnly, 'packages@*']), ['files', 'packages'])).toBe('all')
    // From a node before scopes, and a schema change.
    expect(changedFor(new Set(['packages']), ['packages'])).toBe('all')
    expect(changedFor(new Set(['*']), ['packages'])).toBe('all')
    expect(changedFor(new Set(['blobs', 'blobs@*']), ['files', 'packages'])).toBeUndefined()
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
