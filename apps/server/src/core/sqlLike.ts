import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely'

/** `text` taken literally inside a LIKE pattern: its `\`, `%` and `_` escaped with `\`. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * `value LIKE pattern ESCAPE '\'`, the one way this server writes LIKE. The ESCAPE is explicit:
 * SQLite has no default escape character (there `my\_image/%` asks for a backslash in the value),
 * PostgreSQL's is the backslash.
 */
export function like(value: Expression<unknown> | string, pattern: string): RawBuilder<SqlBool> {
  const left = typeof value === 'string' ? sql.ref(value) : value
  return sql<SqlBool>`${left} LIKE ${pattern} ESCAPE '\\'`
}

/** `value` starts with `prefix`, taken literally. */
export const startsWith = (value: Expression<unknown> | string, prefix: string) => like(value, `${likeLiteral(prefix)}%`)

/** `value` holds `text` somewhere, taken literally. */
export const contains = (value: Expression<unknown> | string, text: string) => like(value, `%${likeLiteral(text)}%`)
