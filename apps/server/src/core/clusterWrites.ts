import type pg from 'pg'
import type { ChangedTables, WriteWatch } from './dbWrites.js'

/** The PostgreSQL channel the nodes of a cluster tell each other their committed writes on. */
export const CLUSTER_CHANNEL = 'trove_writes'
/** Writes committed within this long are told in one notification. */
const BATCH_MS = 5
/** How long a lost listening connection waits before it tries again (doubling up to the most). */
const RETRY_MS = 250
const RETRY_MAX_MS = 5000
/** A notification that could not be sent is tried again this often, for as long as this (ms). */
const NOTIFY_RETRY_MS = 250
const NOTIFY_RETRY_FOR_MS = 5000
/** A notification's payload is at most 8000 bytes; a longer list of tables is told as "any". */
const PAYLOAD_MAX = 7900

export interface ClusterWritesOptions {
  connectionString: string
  /** This process's id in the cluster: its own notifications come back to it and are ignored. */
  processId: string
  /** Reported when the listening connection is lost (it reconnects by itself). */
  onLost?: (error: Error) => void
}

/**
 * Tells every node of a cluster which tables a node's committed writes changed, through
 * PostgreSQL's LISTEN/NOTIFY (no other infrastructure): each process listens on one connection of
 * its own and hears the others' writes as a sibling's (WriteWatch.notifyFromSibling), so the same
 * in-memory caches that drop entries on a local write drop them on a remote one. Writes are
 * batched for a few milliseconds. While the listening connection is down, a node cannot hear of
 * changes: when it is back, it drops everything (`*`), and each cache's own lifetime bounds the
 * staleness meanwhile. A notification that cannot be sent is tried again for a few seconds.
 */
export class ClusterWrites {
  private listener: pg.Client | undefined
  private pending = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private retryMs = RETRY_MS
  private retryTimer: NodeJS.Timeout | undefined
  /** Resolves once listening; a test or a bench waits for it before counting on notifications. */
  ready: Promise<void>
  private markReady: () => void = () => {}

  constructor(
    private readonly pgModule: typeof pg,
    private readonly pool: pg.Pool,
    private readonly watch: WriteWatch,
    private readonly options: ClusterWritesOptions,
  ) {
    this.ready = new Promise((resolve) => {
      this.markReady = resolve
    })
    watch.addRelay((tables) => this.tell(tables))
    void this.listen(false)
  }

  private async listen(again: boolean): Promise<void> {
    if (this.closed) return
    const client = new this.pgModule.Client({ connectionString: this.options.connectionString })
    client.on('error', (error: Error) => this.lost(client, error))
    client.on('end', () => this.lost(client, new Error('the listening connection ended')))
    client.on('notification', (message) => {
      if (message.channel !== CLUSTER_CHANNEL || !message.payload) return
      const space = message.payload.indexOf(' ')
      if (space < 0 || message.payload.slice(0, space) === this.options.processId) return
      const tables = new Set(
        message.payload
          .slice(space + 1)
          .split(',')
          .filter(Boolean),
      )
      this.watch.notifyFromSibling(tables)
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${CLUSTER_CHANNEL}`)
    } catch (error) {
      this.lost(client, error as Error)
      return
    }
    if (this.closed) {
      await client.end().catch(() => {})
      return
    }
    this.listener = client
    this.retryMs = RETRY_MS
    // What was committed while this node could not hear is unknown: every cache starts over.
    if (again) this.watch.notifyFromSibling(new Set(['*']))
    this.markReady()
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.listener === client) this.listener = undefined
    else if (this.listener !== undefined) return
    client.removeAllListeners('end')
    client.end().catch(() => {})
    if (this.closed || this.retryTimer) return
    this.options.onLost?.(error)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined
      void this.listen(true)
    }, this.retryMs)
    this.retryTimer.unref()
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS)
  }

  /** A committed write of this process: told to the others after the batch window. */
  private tell(tables: ChangedTables): void {
    if (this.closed) return
    for (const t of tables) this.pending.add(t)
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS)
  }

  private flush(since = Date.now()): void {
    this.timer = undefined
    const tables = [...this.pending]
    this.pending.clear()
    if (tables.length === 0) return
    let list = tables.join(',')
    if (list.length > PAYLOAD_MAX) list = '*'
    // A notification that cannot be sent (the database is away) is tried again for a while, with
    // whatever was committed since; after that it is lost, and the others' caches expire.
    this.pool.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, `${this.options.processId} ${list}`]).catch(() => {
      if (this.closed || Date.now() - since > NOTIFY_RETRY_FOR_MS) return
      for (const t of tables) this.pending.add(t)
      if (this.timer) clearTimeout(this.timer)
      this.timer = setTimeout(() => this.flush(since), NOTIFY_RETRY_MS)
      this.timer.unref()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.timer) {
      clearTimeout(this.timer)
      this.flush()
    }
    if (this.retryTimer) clearTimeout(this.retryTimer)
    const client = this.listener
    this.listener = undefined
    if (client) {
      client.removeAllListeners('end')
      await client.end().catch(() => {})
    }
  }
}
