import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Dialect } from '../../core/db.js'
import { contains, like, likeLiteral } from '../../core/sqlLike.js'

/**
 * Free-text package search: any part of the name (scope included), the description or a keyword.
 * Candidates come from an index (migration 0132: SQLite's FTS5 trigram table, PostgreSQL's pg_trgm
 * GIN indexes); only those are ranked. A trigram index needs three characters, so a shorter text
 * matches the start of the name only, through the name's own index range.
 */

/** Shortest text the trigram indexes can look up. */
export const SEARCH_MIN_INDEXED = 3

/** The rank a match on the description or a keyword gets (below every match on the name). */
export const RANK_OTHER = 4

/** The smallest string above every string starting with `prefix` (byte order). */
function prefixEnd(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0
  return prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1)) + String.fromCodePoint(last + 1)
}

/** The text as searched: trimmed and lowercased (names are compared by their lowercase form). */
export const searchText = (text: string) => text.trim().toLowerCase()

/** The packages whose name, description or keywords hold `text` (lowercased), as a condition on `p`. */
export function textCondition(dialect: Dialect, text: string): Expression<SqlBool> {
  if (text.length < SEARCH_MIN_INDEXED) {
    return sql<SqlBool>`(p.lowercase_name >= ${text} AND p.lowercase_name < ${prefixEnd(text)})`
  }
  if (dialect === 'sqlite') {
    // One FTS5 phrase: the text's trigrams in order, in any column.
    const phrase = `"${text.replace(/"/g, '""')}"`
    return sql<SqlBool>`p.id IN (SELECT rowid FROM package_search WHERE package_search MATCH ${phrase})`
  }
  // Three indexed lookups joined, rather than one OR the planner cannot split across two tables.
  return sql<SqlBool>`p.id IN (
    SELECT id FROM packages WHERE ${contains('lowercase_name', text)}
    UNION SELECT id FROM packages WHERE ${contains(sql`lower(description)`, text)}
    UNION SELECT package_id FROM package_tags WHERE ${contains(sql`lower(tag)`, text)})`
}

/** Characters that start a word inside a name (`hello-trove`, `org.acme`, `@scope`, `group:artifact`). */
const WORD_SEPARATORS = ['-', '_', '.', ' ', '@']
/** Characters that start a segment of a name (`@scope/name`, `github.com/org/mod`, `group:artifact`). */
const SEGMENT_SEPARATORS = ['/', ':']

/**
 * How well the name matches: 0 the name (or its last segment) is the text, 1 it or a segment
 * starts with it, 2 a word in it does, 3 the text is inside it, 4 only the description or a
 * keyword holds it. The same expression in both dialects.
 */
export function rankExpression(text: string): RawBuilder<number> {
  const e = likeLiteral(text)
  const n = sql.ref('p.lowercase_name')
  const any = (patterns: string[]) =>
    sql.join(
      patterns.map((pattern) => like(n, pattern)),
      sql` OR `,
    )
  return sql<number>`(CASE
    WHEN ${n} = ${text} OR ${any(SEGMENT_SEPARATORS.map((s) => `%${s}${e}`))} THEN 0
    WHEN ${any([`${e}%`, ...SEGMENT_SEPARATORS.map((s) => `%${s}${e}%`)])} THEN 1
    WHEN ${any(WORD_SEPARATORS.map((s) => `%${likeLiteral(s)}${e}%`))} THEN 2
    WHEN ${like(n, `%${e}%`)} THEN 3
    ELSE ${sql.lit(RANK_OTHER)} END)`
}
