import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type TransactionSettings,
  type UnknownRow,
} from 'kysely'
import { crashPoint } from './crashPoints.js'

/** The tables a committed write changed; `'*'` stands for "any table" (schema changes, raw SQL). */
export type ChangedTables = ReadonlySet<string>
/** `fromSibling`: the write was committed by another worker process of this node (see core/workers.ts). */
export type WriteListener = (tables: ChangedTables, fromSibling: boolean) => void

const ANY: ChangedTables = new Set(['*'])

/**
 * Which rows of `table` a set of changed tables says changed: `'all'`, or the values of its scope
 * column (the repositories whose files changed, say), or undefined when the table did not change.
 * A write is reported by the table's name and `<table>@<value>` for each value of the scope column
 * its statement names, or `<table>@*` when it names none or the table has no scope column
 * (WriteWatch: `scoped`); a report with the name alone (from a node before scopes) counts as all.
 * A write made through WriteWatch.about's database adds its subject to those entries
 * (`<table>@<value>#<subject>`): here the subject is left aside (see changedFor).
 */
export function changedScope(tables: ChangedTables, table: string): 'all' | ReadonlySet<string> | undefined {
  if (tables.has('*')) return 'all'
  if (!tables.has(table)) return undefined
  const prefix = `${table}@`
  const values = new Set<string>()
  for (const name of tables) {
    if (!name.startsWith(prefix)) continue
    const [value] = scopeOf(name.slice(prefix.length))
    if (value === '*') return 'all'
    values.add(value)
  }
  return values.size > 0 ? values : 'all'
}

/** A report entry's scope value and, when its write was made about one, its subject. */
function scopeOf(entry: string): [string, string | undefined] {
  const hash = entry.indexOf('#')
  return hash < 0 ? [entry, undefined] : [entry.slice(0, hash), entry.slice(hash + 1)]
}

/** What changed of some tables where writes may concern one subject alone: see changedFor. */
export interface ChangedParts {
  /** Repositories whose rows changed, whatever they concern. */
  repositories: ReadonlySet<string>
  /** Subjects whose rows changed (in any repository), by writes made about them alone. */
  subjects: ReadonlySet<string>
}

/**
 * What the changed tables say changed of `tables`, telling apart the writes made about one subject
 * alone (WriteWatch.about: an npm package's publish): `'all'`, the repositories changed and the
 * subjects changed, or undefined when none of the tables changed.
 */
export function changedFor(changed: ChangedTables, tables: readonly string[]): 'all' | ChangedParts | undefined {
  if (changed.has('*')) return 'all'
  const repositories = new Set<string>()
  const subjects = new Set<string>()
  let any = false
  for (const table of tables) {
    if (!changed.has(table)) continue
    any = true
    const prefix = `${table}@`
    let named = false
    for (const name of changed) {
      if (!name.startsWith(prefix)) continue
      named = true
      const [value, subject] = scopeOf(name.slice(prefix.length))
      if (subject !== undefined) subjects.add(subject)
      else if (value === '*') return 'all'
      else repositories.add(value)
    }
    if (!named) return 'all'
  }
  return any ? { repositories, subjects } : undefined
}

/** A subject of WriteWatch.about: what a notification's entries can carry. */
const SUBJECT = /^[^\s,@#]+$/

/** Marks the queries of a database handle as made about a subject (WriteWatch.about). */
class AboutPlugin implements KyselyPlugin {
  constructor(
    private readonly subjects: WeakMap<QueryId, string>,
    private readonly subject: string,
  ) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.subjects.set(args.queryId, this.subject)
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

/**
 * The repositories whose rows of `tables` the changed tables say changed: `'all'` when one of
 * them changed without a scope (or is not scoped at all), undefined when none changed.
 */
export function repositoriesChanged(changed: ChangedTables, tables: readonly string[]): 'all' | ReadonlySet<string> | undefined {
  const keys = new Set<string>()
  let any = false
  for (const table of tables) {
    const scope = changedScope(changed, table)
    if (scope === 'all') return 'all'
    if (!scope) continue
    any = true
    for (const key of scope) keys.add(key)
  }
  return any ? keys : undefined
}

/**
 * Tells in-memory caches which tables changed, once the change is committed: after the statement
 * for a write outside a transaction, after COMMIT for writes inside one (a rolled-back transaction
 * tells nothing). Every write of this process goes through the database wrapper, so a cache that
 * listens here cannot miss a change made on this node, wherever in the code it was made.
 *
 * Updates that set only bookkeeping columns (a token's last use, download counters) are not
 * reported: no cached answer depends on them, and they happen on every request. Nor are statements
 * that changed no row.
 */
export class WriteWatch {
  private readonly listeners = new Set<WriteListener>()
  /** Tell other processes: the node's other worker processes (core/workers.ts), the other nodes (core/clusterWrites.ts). */
  private readonly relays = new Set<(tables: ChangedTables) => void>()

  /** The subject of each query made through an `about` handle, by its id. */
  private readonly subjects = new WeakMap<QueryId, string>()

  /**
   * `bookkeeping`: per table, the columns whose updates alone are not reported. `scoped`: per table,
   * the column whose values a write's report names (see changedScope), from the values an insert
   * gives it and the `column = value` (or `in`) conditions an update's or a deletion's WHERE
   * requires.
   */
  constructor(
    private readonly bookkeeping: Readonly<Record<string, readonly string[]>> = {},
    private readonly scoped: Readonly<Record<string, string>> = {},
  ) {}

  /**
   * `db`, whose writes are told as concerning `subject` alone (each report entry gains `#subject`,
   * see changedFor): a cache that keeps answers by subject (npm's packuments, by package) drops only
   * that subject's on another node, where a plain write drops its repositories' or all. Every
   * write made through the handle must be about that subject, and nothing else.
   */
  about<DB>(db: Kysely<DB>, subject: string): Kysely<DB> {
    if (!SUBJECT.test(subject)) throw new Error(`not a subject a notification can carry: ${subject}`)
    return db.withPlugin(new AboutPlugin(this.subjects, subject))
  }

  /** Calls `listener` after each committed write; returns the function that stops it. */
  on(listener: WriteListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Calls `relay` after each committed write of this process, to tell other processes of it. */
  addRelay(relay: (tables: ChangedTables) => void): () => void {
    this.relays.add(relay)
    return () => this.relays.delete(relay)
  }

  /** A write of this process was committed: its listeners, then the other processes, hear of it. */
  notify(tables: ChangedTables): void {
    if (tables.size === 0) return
    for (const listener of this.listeners) listener(tables, false)
    for (const relay of this.relays) relay(tables)
  }

  /** Another process (a sibling worker, another node) committed a write to the same database. */
  notifyFromSibling(tables: ChangedTables): void {
    if (tables.size === 0) return
    for (const listener of this.listeners) listener(tables, true)
  }

  /**
   * The tables a statement writes (with their scopes, see changedScope; and its subject when it was
   * made through an `about` handle: `queryId`), or undefined for a read.
   */
  tablesWritten(node: OperationNode, queryId?: QueryId): Set<string> | undefined {
    const tables = this.tablesOf(node)
    const subject = queryId && this.subjects.get(queryId)
    if (!tables || !subject || tables.has('*')) return tables
    return new Set([...tables].map((t) => (t.includes('@') ? `${t}#${subject}` : t)))
  }

  private tablesOf(node: OperationNode): Set<string> | undefined {
    const n = node as OperationNode & Record<string, unknown>
    switch (node.kind) {
      case 'SelectQueryNode':
        return undefined
      case 'InsertQueryNode':
      case 'MergeQueryNode': {
        const table = tableName(n.into as OperationNode)
        return this.withScope(table, () => insertedValues(n, this.scoped[table] as string))
      }
      case 'DeleteQueryNode': {
        const froms = ((n.from as { froms?: OperationNode[] } | undefined)?.froms ?? []).map(tableName)
        if (froms.length === 0 || froms.includes('*')) return new Set(ANY)
        if (froms.length > 1) return new Set(froms.flatMap((t) => [t, `${t}@*`]))
        const table = froms[0] as string
        return this.withScope(table, () =>
          requiredValues(n.where as OperationNode | undefined, this.scoped[table] as string, table),
        )
      }
      case 'UpdateQueryNode': {
        const table = tableName(n.table as OperationNode | undefined)
        const ignored = this.bookkeeping[table]
        const updates = (n.updates ?? []) as { column: OperationNode }[]
        if (ignored && updates.length > 0 && updates.every((u) => ignored.includes(columnName(u.column)))) return new Set()
        const column = this.scoped[table]
        // An update that moves rows to another scope is not told by its WHERE alone.
        if (column && updates.some((u) => columnName(u.column) === column)) return new Set([table, `${table}@*`])
        return this.withScope(table, () => requiredValues(n.where as OperationNode | undefined, column as string, table))
      }
      default:
        // Schema changes, raw SQL: assume anything changed.
        return new Set(ANY)
    }
  }

  private withScope(table: string, values: () => Set<string> | undefined): Set<string> {
    if (table === '*') return new Set(ANY)
    // Every write names at least one scope: a subject's entries (about) are then told apart from a
    // plain write's in the same notification.
    if (!this.scoped[table]) return new Set([table, `${table}@*`])
    const found = values()
    // A value that would not survive a notification's comma-separated list counts as unnamed.
    if (!found || found.size === 0 || [...found].some((v) => /[\s,@#]/.test(v))) return new Set([table, `${table}@*`])
    return new Set([table, ...[...found].map((v) => `${table}@${v}`)])
  }
}

/** A value a report can name a scope by: a string, or a whole number (an id), told as its digits. */
function isScopeValue(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isSafeInteger(value)
}

/** The values an insert gives `column`, or undefined when it does not say (INSERT … SELECT, expressions). */
function insertedValues(n: Record<string, unknown>, column: string): Set<string> | undefined {
  const columns = ((n.columns ?? []) as OperationNode[]).map(columnName)
  const index = columns.indexOf(column)
  const values = n.values as (OperationNode & { values?: unknown[] }) | undefined
  if (index < 0 || values?.kind !== 'ValuesNode') return undefined
  const found = new Set<string>()
  for (const row of (values.values ?? []) as (OperationNode & { values: unknown[] })[]) {
    const value = row.kind === 'PrimitiveValueListNode' ? row.values[index] : literal(row.values[index] as OperationNode)
    if (!isScopeValue(value)) return undefined
    found.add(String(value))
  }
  return found
}

/**
 * The values of `column` a WHERE clause requires: from a `column = value` or `column in (…)` that
 * holds whatever else is true (a term of its top-level AND), or undefined when there is none.
 */
function requiredValues(where: OperationNode | undefined, column: string, table: string): Set<string> | undefined {
  const n = where as (OperationNode & Record<string, unknown>) | undefined
  if (!n) return undefined
  switch (n.kind) {
    case 'WhereNode':
      return requiredValues(n.where as OperationNode, column, table)
    case 'ParensNode':
      return requiredValues(n.node as OperationNode, column, table)
    case 'AndNode':
      return requiredValues(n.left as OperationNode, column, table) ?? requiredValues(n.right as OperationNode, column, table)
    case 'BinaryOperationNode': {
      const left = n.leftOperand as OperationNode & Record<string, unknown>
      const operator = (n.operator as { operator?: string }).operator
      if (columnName(left) !== column) return undefined
      if (left.kind === 'ReferenceNode' && left.table && tableName(left.table as OperationNode) !== table) return undefined
      const right = n.rightOperand as OperationNode & { values?: unknown[] }
      const values =
        operator === '='
          ? [literal(right)]
          : operator === 'in' && right.kind === 'PrimitiveValueListNode'
            ? (right.values ?? [])
            : operator === 'in' && right.kind === 'ValueListNode'
              ? ((right.values ?? []) as OperationNode[]).map(literal)
              : [undefined]
      if (values.length === 0 || !values.every(isScopeValue)) return undefined
      return new Set(values.map(String))
    }
    default:
      return undefined
  }
}

function literal(node: OperationNode | undefined): unknown {
  return node?.kind === 'ValueNode' ? (node as OperationNode & { value: unknown }).value : undefined
}

function tableName(node: OperationNode | undefined): string {
  if (!node) return '*'
  const n = node as OperationNode & Record<string, unknown>
  if (node.kind === 'TableNode') return (n.table as { identifier: { name: string } }).identifier.name
  if (node.kind === 'AliasNode') return tableName(n.node as OperationNode)
  return '*'
}

function columnName(node: OperationNode): string {
  const n = node as OperationNode & Record<string, unknown>
  if (node.kind === 'ColumnNode') return (n.column as { name: string }).name
  if (node.kind === 'ReferenceNode') return columnName(n.column as OperationNode)
  return '*'
}

/** A connection as handed out by the watching driver: the real one, and the writes of its open transaction. */
class WatchedConnection implements DatabaseConnection {
  inTransaction = false
  pending = new Set<string>()

  constructor(
    readonly inner: DatabaseConnection,
    private readonly watch: WriteWatch,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(compiledQuery)
    // A statement that changed no row (a deletion that found none, say) has nothing to tell; one
    // whose driver does not count its rows (SQLite's with RETURNING) is told all the same.
    const tables =
      result.numAffectedRows === 0n ? undefined : this.watch.tablesWritten(compiledQuery.query, compiledQuery.queryId)
    if (tables) {
      if (this.inTransaction) for (const t of tables) this.pending.add(t)
      else {
        crashPoint('db.written')
        this.watch.notify(tables)
      }
    }
    return result
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiledQuery, chunkSize)
  }
}

class WatchingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly watch: WriteWatch,
    private readonly begin: string | undefined,
  ) {}

  init(): Promise<void> {
    return this.inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WatchedConnection(await this.inner.acquireConnection(), this.watch)
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as WatchedConnection
    if (this.begin) await c.inner.executeQuery(CompiledQuery.raw(this.begin))
    else await this.inner.beginTransaction(c.inner, settings)
    c.inTransaction = true
    c.pending = new Set()
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection
    try {
      crashPoint('db.commit')
      await this.inner.commitTransaction(c.inner)
      crashPoint('db.committed')
    } finally {
      // A failed COMMIT may still have committed (a lost connection): tell the caches all the same.
      c.inTransaction = false
      const pending = c.pending
      c.pending = new Set()
      this.watch.notify(pending)
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection
    c.inTransaction = false
    c.pending = new Set()
    try {
      await this.inner.rollbackTransaction(c.inner)
    } catch (error) {
      // SQLite ends a transaction itself on some errors (SQLITE_FULL: the disk is full): its
      // ROLLBACK then fails, and must not hide the error that caused it.
      if (!/no transaction is active/.test((error as Error).message)) throw error
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection((connection as WatchedConnection).inner)
  }

  destroy(): Promise<void> {
    return this.inner.destroy()
  }
}

/**
 * Wraps a dialect so that every committed write through it is reported to `watch`. `begin` replaces
 * the statement that opens a transaction (SQLite: `begin immediate`, see db.ts).
 */
export function watchWrites(dialect: Dialect, watch: WriteWatch, begin?: string): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => {
      const inner = dialect.createDriver()
      const driver = new WatchingDriver(inner, watch, begin) as WatchingDriver & Partial<Driver>
      // Savepoints (nested transactions) pass straight through; their writes count at the outer COMMIT.
      for (const method of ['savepoint', 'rollbackToSavepoint', 'releaseSavepoint'] as const) {
        const fn = inner[method]
        if (fn) {
          driver[method] = (connection: DatabaseConnection, name: string, compile: never) =>
            fn.call(inner, (connection as WatchedConnection).inner, name, compile)
        }
      }
      return driver
    },
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  }
}
