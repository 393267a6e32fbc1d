import fs from 'node:fs'

/**
 * Fault injection for the crash-consistency tests (`TROVE_CRASH_AT`, `TROVE_CRASH_TRACE`): the
 * steps where a write becomes durable name themselves here, and a test makes the process die there
 * the way a power cut or the OOM killer would (SIGKILL: no handler runs, nothing is flushed).
 *
 * - `blob.synced`: an upload's temp file is written and fsynced, not yet under its sha256;
 * - `blob.stored`: the blob is under its sha256, its metadata not yet committed;
 * - `db.commit`: a transaction's statements ran, its COMMIT not yet sent;
 * - `db.committed`: COMMIT returned, the client not yet answered;
 * - `db.written`: a statement outside a transaction returned.
 *
 * Nothing is armed unless the settings ask, and then only once the node has started, so start-up's
 * own writes do not count.
 */
export type CrashPointName = 'blob.synced' | 'blob.stored' | 'db.commit' | 'db.committed' | 'db.written'

let armed: { point: string; left: number } | undefined
let trace: number | undefined

/**
 * `at`: `<point>` or `<point>#<n>` (the n-th time the point is passed; 1 by default).
 * `traceFile`: every point passed is appended to it, one per line, so a test learns which points a
 * request passes and how often.
 */
export function armCrashPoints(at: string | undefined, traceFile: string | undefined): void {
  if (at) {
    const [point, nth] = at.split('#')
    armed = { point: point as string, left: nth ? Number(nth) : 1 }
  }
  if (traceFile) trace = fs.openSync(traceFile, 'a')
}

export function crashPoint(name: CrashPointName): void {
  if (trace !== undefined) fs.writeSync(trace, `${name}\n`)
  if (!armed || armed.point !== name) return
  armed.left--
  if (armed.left === 0) process.kill(process.pid, 'SIGKILL')
}
