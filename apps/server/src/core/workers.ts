import cluster, { type Worker } from 'node:cluster'
import type { ChangedTables, WriteWatch } from './dbWrites.js'

/**
 * Several worker processes of one node (TROVE_WORKERS): they share the node's port (the primary
 * process hands each new connection to the next worker) and its data dir and database. Each
 * worker is a node of the cluster in its own right (its id, heartbeat, logs and peer address);
 * what this module adds is what processes of one machine owe each other:
 *
 * - a committed write in one worker reaches the in-memory caches of the others before the writer
 *   answers (`WorkerLink`): a client that publishes, then reads on another connection, which
 *   another worker serves, reads what it wrote;
 * - the primary starts worker 1 (it migrates the database and creates the first administrator)
 *   before the others, starts again a worker that dies, and stops them all on SIGTERM or SIGINT.
 */

type ToPrimary =
  | { t: 'starting' }
  | { t: 'linked' }
  | { t: 'ready' }
  | { t: 'writes'; seq: number; tables: string[] }
  | { t: 'ack'; relay: number }
type ToWorker = { t: 'writes'; relay: number; tables: string[] } | { t: 'acked'; seq: number }

/** How long a writer waits for its siblings to have heard of a write before it answers anyway. */
export const SIBLING_WAIT_MS = 1000
/**
 * Tables whose writes are not told to the siblings: no cache reads them, and the heartbeats write
 * `nodes` every few seconds.
 */
const NOT_RELAYED = new Set(['nodes', 'node_services', 'audit_events', 'signin_failures'])
/** What the primary allows a stopping worker beyond its own limit (a worker still starting finishes first). */
const STOP_MARGIN_MS = 10_000
/** How often the primary repeats its SIGTERM to workers that are still there. */
const RESEND_MS = 2000
/** A worker that dies this often in a minute is not started again: the node stops. */
const MAX_RESTARTS_PER_MINUTE = 5

const send = (target: Worker | NodeJS.Process, message: ToPrimary | ToWorker) => {
  try {
    // The callback swallows a channel that closed on the way (the process is exiting).
    target.send?.(message, undefined, undefined, () => {})
  } catch {
    // the channel is gone: the process is exiting
  }
}

/** A stop asked of a worker while it starts: done once it has started. */
export interface EarlyStop {
  signal: string | undefined
  listener: (signal: string) => void
}

/**
 * A worker's first act: from now on SIGTERM and SIGINT are heard (the stop is done once the worker
 * has started), and the primary is told so. The primary holds a stop back until then: the signal's
 * default action would kill the worker, which counts as a worker that failed.
 */
export function hearStopWhileStarting(): EarlyStop {
  const early: EarlyStop = {
    signal: undefined,
    listener: (signal) => {
      early.signal = signal
    },
  }
  process.on('SIGTERM', early.listener)
  process.on('SIGINT', early.listener)
  send(process, { t: 'starting' } satisfies ToPrimary)
  return early
}

/** A worker's side: tells the primary of its writes and applies those of its siblings. */
export class WorkerLink {
  private seq = 0
  private readonly waiting = new Map<number, { done: Promise<void>; resolve: () => void }>()

  constructor(
    watch: WriteWatch,
    private readonly onSlowSibling: () => void = () => {},
  ) {
    process.on('message', (message: ToWorker) => {
      if (message?.t === 'writes') {
        watch.notifyFromSibling(new Set(message.tables))
        send(process, { t: 'ack', relay: message.relay } satisfies ToPrimary)
      } else if (message?.t === 'acked') {
        this.waiting.get(message.seq)?.resolve()
        this.waiting.delete(message.seq)
      }
    })
    watch.addRelay((tables) => this.relay(tables))
    // From now on this worker's caches hear of its siblings' writes (before it serves anything).
    send(process, { t: 'linked' } satisfies ToPrimary)
  }

  private relay(tables: ChangedTables): void {
    // An entry is a table or one of its scopes (`nodes@*`, see core/dbWrites.ts).
    if ([...tables].every((t) => NOT_RELAYED.has(t.split('@')[0] as string))) return
    const seq = ++this.seq
    let resolve: () => void = () => {}
    const done = new Promise<void>((r) => {
      resolve = r
    })
    this.waiting.set(seq, { done, resolve })
    send(process, { t: 'writes', seq, tables: [...tables] } satisfies ToPrimary)
  }

  /** Writes told to the siblings that some sibling has not applied yet. */
  get pending(): number {
    return this.waiting.size
  }

  /** Resolves once every sibling has applied the writes told so far (at most SIBLING_WAIT_MS). */
  settled(): Promise<void> {
    const all = Promise.all([...this.waiting.values()].map((w) => w.done)).then(() => true)
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<boolean>((r) => {
      timer = setTimeout(() => r(false), SIBLING_WAIT_MS)
    })
    return Promise.race([all, late]).then((inTime) => {
      clearTimeout(timer)
      if (!inTime) {
        this.onSlowSibling()
        // Do not make every later answer wait for the same slow sibling (nor leave anyone waiting).
        for (const w of this.waiting.values()) w.resolve()
        this.waiting.clear()
      }
    })
  }

  /** Tells the primary that this worker listens (the primary starts the next ones then). */
  ready(): void {
    send(process, { t: 'ready' } satisfies ToPrimary)
  }
}

interface Relay {
  origin: Worker
  seq: number
  waiting: Set<Worker>
}

/**
 * The primary process: starts `count` workers (worker 1 first), relays their writes to each
 * other, starts again those that die, and stops them all on SIGTERM or SIGINT. It opens no
 * database and serves nothing itself.
 */
export function runPrimary(
  count: number,
  /** How long a worker may take to stop (its own limit, TROVE_SHUTDOWN_TIMEOUT_MS); a few seconds more and it is killed. */
  stopLimitMs: number,
  say: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): void {
  const workers = new Map<number, Worker>()
  /** Workers whose link is up: they take relayed writes. */
  const linked = new Set<Worker>()
  /** Workers that hear a stop (before that, a signal would kill them). */
  const hearing = new Set<Worker>()
  let firstReady = false
  const relays = new Map<number, Relay>()
  const restarts: number[] = []
  let nextRelay = 1
  let othersStarted = false
  let stopping = false
  let exitCode = 0

  const settle = (id: number, worker: Worker) => {
    const relay = relays.get(id)
    if (!relay) return
    relay.waiting.delete(worker)
    if (relay.waiting.size > 0) return
    relays.delete(id)
    send(relay.origin, { t: 'acked', seq: relay.seq } satisfies ToWorker)
  }

  function onMessage(from: Worker, index: number, message: ToPrimary): void {
    if (message?.t === 'starting') {
      hearing.add(from)
      if (stopping) from.process.kill('SIGTERM')
    } else if (message?.t === 'linked') {
      linked.add(from)
    } else if (message?.t === 'ready') {
      if (index === 1) firstReady = true
      // Not while stopping: one started then would be told of no stop, and keep the node up.
      if (index === 1 && !othersStarted && !stopping) {
        othersStarted = true
        for (let k = 2; k <= count; k++) fork(k)
      }
    } else if (message?.t === 'writes') {
      const others = [...linked].filter((w) => w !== from)
      if (others.length === 0) {
        send(from, { t: 'acked', seq: message.seq } satisfies ToWorker)
        return
      }
      const id = nextRelay++
      relays.set(id, { origin: from, seq: message.seq, waiting: new Set(others) })
      for (const w of others) send(w, { t: 'writes', relay: id, tables: message.tables } satisfies ToWorker)
    } else if (message?.t === 'ack') {
      settle(message.relay, from)
    }
  }

  function onExit(index: number, worker: Worker, code: number | null, signal: string | null): void {
    linked.delete(worker)
    hearing.delete(worker)
    for (const [id] of relays) settle(id, worker)
    if (workers.get(index) === worker) workers.delete(index)
    if (stopping) {
      // A worker that did not stop by itself (killed by a signal) makes the exit a failure.
      if (code || signal) exitCode = code || 1
      if (workers.size === 0) process.exit(exitCode)
      return
    }
    if (!firstReady && index === 1) {
      // The first worker could not start (configuration, database): neither can the others.
      stopAll(code || 1)
      return
    }
    const now = Date.now()
    restarts.push(now)
    while (restarts.length > 0 && (restarts[0] ?? now) < now - 60_000) restarts.shift()
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      say(`Trove: worker ${index} exited (${signal ?? `code ${code}`}); workers keep dying, stopping`)
      stopAll(1)
      return
    }
    say(`Trove: worker ${index} exited (${signal ?? `code ${code}`}); starting it again`)
    setTimeout(() => {
      if (!stopping) fork(index)
    }, 1000)
  }

  function fork(index: number): void {
    const worker = cluster.fork({ TROVE_WORKER_INDEX: String(index) })
    workers.set(index, worker)
    worker.on('message', (message: ToPrimary) => onMessage(worker, index, message))
    worker.on('exit', (code, signal) => onExit(index, worker, code, signal))
  }

  function stopAll(code: number): void {
    if (stopping) {
      // Asked again: stop now.
      for (const worker of workers.values()) worker.process.kill('SIGKILL')
      process.exit(1)
    }
    stopping = true
    exitCode = code
    if (workers.size === 0) process.exit(exitCode)
    // A worker that has not stopped by then (it would have ended itself at its own limit) is killed:
    // a node asked to stop is gone.
    setTimeout(() => {
      say(`Trove: ${[...workers.keys()].map((k) => `worker ${k}`).join(', ')} did not stop in time; killing`)
      exitCode = 1
      process.exitCode = 1
      for (const worker of workers.values()) worker.process.kill('SIGKILL')
      // The node exits once they have (onExit): its end means its processes are gone. Should an
      // exit never be reported, it ends anyway.
      setTimeout(() => process.exit(1), 5000).unref()
    }, stopLimitMs + STOP_MARGIN_MS).unref()
    // One that does not hear it yet is told when it says it does. The signal is sent again every
    // few seconds until each has gone: a worker restarted a moment before has been seen to miss it.
    const tell = () => {
      for (const worker of workers.values()) if (hearing.has(worker)) worker.process.kill('SIGTERM')
    }
    tell()
    setInterval(tell, RESEND_MS).unref()
  }

  process.on('SIGTERM', () => stopAll(0))
  process.on('SIGINT', () => stopAll(0))
  fork(1)
}
