import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessToken, createRepo } from '../../test/clients.js'
import { createTestApp, signIn, type TestApp } from '../../test/testApp.js'
import { contains, like, likeLiteral, startsWith } from './sqlLike.js'

let t: TestApp
let auth: { authorization: string }
beforeAll(async () => {
  t = await createTestApp()
  const admin = await signIn(t.fastify)
  auth = { authorization: `Bearer ${await accessToken(t.fastify, admin)}` }
  await createRepo(t.fastify, admin, 'like-files', { rclass: 'local', packageType: 'generic' })
  for (const name of ['my_tool/1.0/my_tool-1.0.tgz', 'myXtool/1.0/myXtool-1.0.tgz', 'pct/v1_0_done.txt', 'pct/v1x0_done.txt']) {
    const put = await t.fastify.inject({
      method: 'PUT',
      url: `/artifactory/like-files/${name.split('/').map(encodeURIComponent).join('/')}`,
      headers: auth,
      payload: name,
    })
    expect(put.statusCode).toBe(201)
  }
})
afterAll(() => t.close())

/** Whether `value` matches, asked of the suite's database (SQLite, or PostgreSQL when given). */
async function matches(value: string, condition: (v: ReturnType<typeof sql.val<string>>) => ReturnType<typeof like>) {
  const { rows } = await sql<{
    hit: number | boolean
  }>`select case when ${condition(sql.val(value))} then 1 else 0 end as hit`.execute(t.app.db.kysely)
  return Number(rows[0]?.hit) === 1
}

describe('LIKE with literal text', () => {
  it('takes \\, % and _ literally on this database', async () => {
    expect(likeLiteral('a_b%c\\d')).toBe('a\\_b\\%c\\\\d')
    expect(await matches('my_image/manifest', (v) => startsWith(v, 'my_image/'))).toBe(true)
    expect(await matches('myXimage/manifest', (v) => startsWith(v, 'my_image/'))).toBe(false)
    expect(await matches('100%_done', (v) => contains(v, '%_'))).toBe(true)
    expect(await matches('100x_done', (v) => contains(v, '%_'))).toBe(false)
    expect(await matches('C:\\dir\\file', (v) => contains(v, '\\dir\\'))).toBe(true)
    // A pattern of its own keeps its wildcards.
    expect(await matches('abc', (v) => like(v, 'a_c'))).toBe(true)
  })

  it('finds files whose names hold an underscore, and only those', async () => {
    const names = async (name: string) => {
      const res = await t.fastify.inject({
        url: `/api/search/artifact?name=${encodeURIComponent(name)}&repos=like-files`,
        headers: { ...auth, 'x-result-detail': 'info' },
      })
      expect(res.statusCode).toBe(200)
      return (res.json().results as { name: string }[]).map((r) => r.name)
    }
    expect(await names('my_tool')).toEqual(['my_tool-1.0.tgz'])
    expect(await names('1_0')).toEqual(['v1_0_done.txt'])
    expect((await names('my?tool')).sort()).toEqual(['myXtool-1.0.tgz', 'my_tool-1.0.tgz'])
  })

  it('deletes a folder whose name holds an underscore, and nothing beside it', async () => {
    const del = await t.fastify.inject({ method: 'DELETE', url: '/artifactory/like-files/my_tool', headers: auth })
    expect(del.statusCode).toBe(204)
    const left = await t.app.db.kysely
      .selectFrom('files')
      .select('path')
      .where('repo_key', '=', 'like-files')
      .orderBy('path')
      .execute()
    expect(left.map((r) => r.path)).toEqual(['myXtool/1.0/myXtool-1.0.tgz', 'pct/v1_0_done.txt', 'pct/v1x0_done.txt'])
  })
})

describe('the server source', () => {
  it("writes LIKE only through sqlLike.ts (a LIKE without ESCAPE '\\' misreads escaped patterns on SQLite)", () => {
    const root = path.resolve(import.meta.dirname, '..')
    const offenders: string[] = []
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && entry.name !== 'sqlLike.ts') {
          const text = fs.readFileSync(file, 'utf8')
          // Kysely's 'like' operator, or a LIKE in raw SQL that does not name the escape character.
          for (const [n, line] of text.split('\n').entries()) {
            if (/'(i?like|not like)'/.test(line) || (/\bLIKE \$\{/i.test(line) && !/ESCAPE '\\\\'/i.test(line)))
              offenders.push(`${path.relative(root, file)}:${n + 1}`)
          }
        }
      }
    }
    walk(root)
    expect(offenders).toEqual([])
  })
})
