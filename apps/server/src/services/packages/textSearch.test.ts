import { PACKAGES_QUERY } from '@trove/contracts/packages'
import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo, npmPublishBody } from '../../../test/clients.js'
import { createTestApp, type Session, sessionHeaders, signIn, type TestApp } from '../../../test/testApp.js'
import { textCondition } from './textSearch.js'

/** Carries a query plan out of a transaction that is rolled back. */
class Plan extends Error {}

/** Free-text package search (filter.search) on packages published through the npm protocol. */
describe('package search by any part of a name', () => {
  let t: TestApp
  let admin: Session
  let token: string
  const base = 'http://localhost'

  const publish = async (repo: string, manifest: { name: string; version: string; [key: string]: unknown }) => {
    const { body } = await npmPublishBody(base, repo, manifest)
    const res = await t.fastify.inject({
      method: 'PUT',
      url: `/api/npm/${repo}/${manifest.name.replace('/', '%2f')}`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    })
    expect(res.statusCode, res.body).toBe(201)
  }
  const search = async (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const res = await t.fastify.inject({
      method: 'POST',
      url: '/ui/api/v1/mds/packages',
      headers: sessionHeaders(admin),
      payload: { graphQL: { query: PACKAGES_QUERY, variables: { filter, first: 50, ...extra } } },
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().data.packages as {
      edges: { node: { id: string; name: string } }[]
      pageInfo: { hasNextPage: boolean; endCursor: string | null }
    }
  }
  const names = async (text: string, filter: Record<string, unknown> = {}) =>
    (await search({ search: text, ...filter })).edges.map((e) => e.node.name)

  beforeAll(async () => {
    t = await createTestApp()
    admin = await signIn(t.fastify)
    token = await accessToken(t.fastify, admin)
    await createRepo(t.fastify, admin, 'npm-local', { rclass: 'local', packageType: 'npm' })
    await createRepo(t.fastify, admin, 'npm-other', { rclass: 'local', packageType: 'npm' })
    const packages = [
      { name: '@walk/hello-trove', description: 'Walks through the console' },
      { name: 'hello', description: 'The plain one' },
      { name: 'hello-world', description: 'Prints a line' },
      { name: 'say-hello', description: 'Speaks' },
      { name: 'othello', description: 'A board game' },
      { name: 'greeter', description: 'Says HELLO to everyone' },
      { name: 'kit', description: 'Tools', keywords: ['hello-kit', 'misc'] },
      { name: 'unrelated', description: 'Nothing to see' },
    ]
    for (const p of packages) await publish('npm-local', { ...p, version: '1.0.0' })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('finds a package by any part of its name or scope', async () => {
    expect(await names('hello')).toContain('@walk/hello-trove')
    expect(await names('trove')).toEqual(['@walk/hello-trove'])
    expect(await names('walk')).toEqual(['@walk/hello-trove'])
    expect(await names('LO-TR')).toEqual(['@walk/hello-trove'])
  })

  it('ranks exact > prefix > word > inside the name > description or keyword', async () => {
    expect(await names('hello')).toEqual([
      'hello', // exact
      '@walk/hello-trove', // a segment starts with it (the name after its scope)
      'hello-world', // prefix
      'say-hello', // a word
      'othello', // inside
      'greeter', // description
      'kit', // keyword
    ])
  })

  it('pages a ranked search by its cursor', async () => {
    const first = await search({ search: 'hello' }, { first: 3 })
    expect(first.edges.map((e) => e.node.name)).toEqual(['hello', '@walk/hello-trove', 'hello-world'])
    expect(first.pageInfo.hasNextPage).toBe(true)
    const rest = await search({ search: 'hello' }, { first: 10, after: first.pageInfo.endCursor })
    expect(rest.edges.map((e) => e.node.name)).toEqual(['say-hello', 'othello', 'greeter', 'kit'])
    expect(rest.pageInfo.hasNextPage).toBe(false)
  })

  it('combines with the other filters and orders', async () => {
    expect(await names('hello', { package_type: 'pypi' })).toEqual([])
    const byName = await search({ search: 'hello' }, { orderBy: { field: 'NAME', direction: 'ASC' } })
    expect(byName.edges.map((e) => e.node.name)).toEqual([
      '@walk/hello-trove',
      'greeter',
      'hello',
      'hello-world',
      'kit',
      'othello',
      'say-hello',
    ])
  })

  it('matches a text under three characters at the start of the name only', async () => {
    expect(await names('he')).toEqual(['hello', 'hello-world'])
    expect(await names('@w')).toEqual(['@walk/hello-trove'])
  })

  it('takes a text with LIKE and FTS characters literally', async () => {
    expect(await names('hel%o')).toEqual([])
    expect(await names('"hello"')).toEqual([])
    expect(await names('o_w')).toEqual([])
  })

  it('keeps globs for API users', async () => {
    const globbed = await search({ lowercase_name: 'hello*' })
    expect(globbed.edges.map((e) => e.node.name)).toEqual(['hello', 'hello-world'])
    const inside = await search({ lowercase_name: '*hello*' })
    expect(inside.edges.map((e) => e.node.name)).toHaveLength(5)
  })

  it('follows every write: a new description, new keywords, an unpublish, a repository removed', async () => {
    await publish('npm-local', { name: 'unrelated', version: '2.0.0', description: 'Now about zebras', keywords: ['stripes'] })
    expect(await names('zebra')).toEqual(['unrelated'])
    expect(await names('stripe')).toEqual(['unrelated'])
    expect(await names('nothing to')).toEqual([])

    const gone = await t.fastify.inject({
      method: 'DELETE',
      url: '/api/npm/npm-local/othello/-rev/1',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(gone.statusCode, gone.body).toBe(200)
    expect(await names('othello')).toEqual([])

    await publish('npm-other', { name: 'lonely-zebra', version: '1.0.0', description: 'In its own repository' })
    expect(await names('zebra')).toEqual(['lonely-zebra', 'unrelated'])
    const removed = await t.fastify.inject({
      method: 'DELETE',
      url: '/api/repositories/npm-other',
      headers: sessionHeaders(admin),
    })
    expect(removed.statusCode, removed.body).toBe(204)
    expect(await names('zebra')).toEqual(['unrelated'])
  })

  it('looks candidates up through an index, not a scan of packages', async () => {
    const { kysely, dialect } = t.app.db
    for (const text of ['hello', 'walks through']) {
      const query = kysely.selectFrom('packages as p').select('p.id').where(textCondition(dialect, text)).compile()
      if (dialect === 'sqlite') {
        const plan = await kysely.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
        )
        const details = plan.rows.map((r) => r.detail).join('\n')
        expect(details).toMatch(/SCAN package_search VIRTUAL TABLE INDEX/)
        expect(details).not.toMatch(/SCAN p\b/)
      } else {
        // Eight rows are read faster whole: the plan is asked of a table of 20,000 (then rolled back).
        const lines = await kysely
          .transaction()
          .execute(async (tx) => {
            await sql`INSERT INTO packages (package_type, name, lowercase_name, description, created_at, modified_at)
              SELECT 'generic', 'filler-' || g, 'filler-' || g, 'Filler number ' || g, g, g
              FROM generate_series(1, 20000) g`.execute(tx)
            await sql`INSERT INTO package_tags (package_id, tag) SELECT id, 'tag-' || id FROM packages`.execute(tx)
            // What autovacuum does on a live table: the new rows move from GIN's pending list into the index.
            for (const index of ['packages_name_trgm', 'packages_description_trgm', 'package_tags_tag_trgm']) {
              await sql`SELECT gin_clean_pending_list(${index}::regclass)`.execute(tx)
            }
            await sql`ANALYZE packages, package_tags`.execute(tx)
            const plan = await tx.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
            )
            throw new Plan(plan.rows.map((r) => r['QUERY PLAN']).join('\n'))
          })
          .catch((e: unknown) => {
            if (e instanceof Plan) return e.message
            throw e
          })
        for (const index of ['packages_name_trgm', 'packages_description_trgm', 'package_tags_tag_trgm']) {
          expect(lines).toContain(`Bitmap Index Scan on ${index}`)
        }
        expect(lines).not.toMatch(/Seq Scan/)
      }
    }
  })
})
