import { sql } from 'kysely'
import type { Db } from '../core/db.js'
import type { FileRow } from './artifacts.js'
import type { Tx } from './repo.js'

/**
 * Folders are not stored: a folder is the common prefix of the paths of its files. A folder's
 * children are found by a loose index scan over `(repo_key, path)`: one recursive query seeks to
 * the first path after the folder's prefix, takes its first segment as a child, then seeks past
 * everything under that child, and so on. Each child costs one index seek, whatever the number of
 * files below it, so a page of a folder with 10,000 children among a million files is as fast as
 * one of a small folder, and nothing has to be kept in step with the files.
 *
 * A child's key orders the children as the index does: a file's is its name, a folder's its name
 * followed by `/`. A name can be a file and a folder at once (two paths `a` and `a/b`): two children.
 */
export interface ChildKey {
  key: string
  folder: boolean
  name: string
}

/** The strings that start with `prefix` lie in [prefix, upperBound(prefix)) in byte order. */
export function upperBound(prefix: string): string | null {
  if (!prefix) return null
  const chars = [...prefix]
  const last = chars.pop() as string
  const code = last.codePointAt(0) as number
  // No code point follows U+10FFFF: drop it and bound by the shorter prefix.
  if (code >= 0x10ffff) return upperBound(chars.join(''))
  // Skip the surrogate range, which is never a whole code point in a path.
  const next = code + 1 === 0xd800 ? 0xe000 : code + 1
  return chars.join('') + String.fromCodePoint(next)
}

/** The folder prefix of a path inside a repository: '' for its root, else `path/`. */
export const folderPrefix = (path: string) => (path ? `${path}/` : '')

export function childOf(prefix: string, path: string): ChildKey {
  const rest = path.slice(prefix.length)
  const slash = rest.indexOf('/')
  if (slash < 0) return { key: rest, folder: false, name: rest }
  const name = rest.slice(0, slash)
  return { key: `${name}/`, folder: true, name }
}

/**
 * Up to `limit` children of the folder `path` of one repository, after the child key `after`,
 * whose names start with `filter`.
 */
export async function childKeys(
  db: Db,
  repoKey: string,
  path: string,
  options: { after?: string; from?: string; filter?: string; limit: number },
): Promise<ChildKey[]> {
  const prefix = folderPrefix(path)
  const from = prefix + (options.filter ?? '')
  const hi = upperBound(from)
  // The first seek: past the cursor (a folder's whole range, or the file itself), within the filter.
  let lo = from
  let eq = ''
  if (options.from && prefix + options.from > lo) lo = prefix + options.from
  if (options.after) {
    const after = options.after
    const start = after.endsWith('/') ? `${prefix}${after.slice(0, -1)}0` : prefix + after
    if (start >= lo) {
      lo = start
      eq = after.endsWith('/') ? '' : start
    }
  }
  const pg = db.dialect === 'postgres'
  const c = pg ? sql` COLLATE "C"` : sql``
  const instr = (s: ReturnType<typeof sql>) => (pg ? sql`strpos(${s}, '/')` : sql`instr(${s}, '/')`)
  const plen = [...prefix].length
  const rest = sql`substr(w.p, ${plen + 1})`
  const slash = instr(rest)
  // The next seek after a child: past its folder's range (`name0` follows every `name/…`), or past the file.
  const nextLo = sql`case when ${slash} > 0 then ${prefix} || substr(${rest}, 1, ${slash} - 1) || '0' else w.p end`
  const nextEq = sql`case when ${slash} > 0 then '' else w.p end`
  const below = hi === null ? sql`` : sql` and f.path < ${hi}${c}`
  const seek = (loExpr: ReturnType<typeof sql>, eqExpr: ReturnType<typeof sql>) =>
    sql`(select f.path from files f where f.repo_key = ${repoKey} and f.path >= (${loExpr})${c} and f.path <> (${eqExpr})${c}${below} order by f.path limit 1)`
  const castText = (v: string) => (pg ? sql`cast(${v} as varchar)` : sql`${v}`)
  const query = sql<{ p: string }>`with recursive w(p, n) as (
      select ${seek(castText(lo), castText(eq))}, 1
      union all
      select ${seek(nextLo, nextEq)}, w.n + 1 from w where w.p is not null and w.n < ${options.limit}
    )
    select p from w where p is not null`
  const rows = await query.execute(db.kysely)
  return rows.rows.map((r) => childOf(prefix, r.p))
}

/** The file rows of some paths of one repository. */
export async function filesAt(db: Tx, repoKey: string, paths: string[]): Promise<Map<string, FileRow>> {
  const out = new Map<string, FileRow>()
  for (let i = 0; i < paths.length; i += 500) {
    const rows = await db
      .selectFrom('files')
      .selectAll()
      .where('repo_key', '=', repoKey)
      .where('path', 'in', paths.slice(i, i + 500))
      .execute()
    for (const r of rows) out.set(r.path, r)
  }
  return out
}

/**
 * Every file under a folder ('' for the whole repository), in path order, a page at a time: memory
 * stays flat however many files there are.
 */
export async function* filesUnder(
  db: Tx,
  repoKey: string,
  path: string,
  pageSize = 1000,
): AsyncGenerator<FileRow[], void, undefined> {
  const prefix = folderPrefix(path)
  const hi = upperBound(prefix)
  let after: string | null = null
  for (;;) {
    let q = db.selectFrom('files').selectAll().where('repo_key', '=', repoKey)
    q = after === null ? q.where('path', '>=', prefix) : q.where('path', '>', after)
    if (hi !== null) q = q.where('path', '<', hi)
    const page = await q.orderBy('path').limit(pageSize).execute()
    if (page.length === 0) return
    yield page
    if (page.length < pageSize) return
    after = (page[page.length - 1] as FileRow).path
  }
}

/** Whether anything is stored under a folder. */
export async function folderExists(db: Tx, repoKey: string, path: string): Promise<boolean> {
  const prefix = folderPrefix(path)
  const hi = upperBound(prefix)
  let q = db.selectFrom('files').select('id').where('repo_key', '=', repoKey).where('path', '>=', prefix)
  if (hi !== null) q = q.where('path', '<', hi)
  return (await q.limit(1).executeTakeFirst()) !== undefined
}
