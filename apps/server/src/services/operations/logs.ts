import fs from 'node:fs'
import path from 'node:path'
import type { LogData } from '@trove/contracts/operations'

/** At most this much log text per answer; a client further behind skips ahead (see skipped_bytes). */
export const LOG_ANSWER_CAP_BYTES = 256 * 1024
/** How often the viewer polls. */
export const LOG_REFRESH_MS = 5000

const LOG_FILE = /^trove(\.\d+)?\.log$/

/** The log files that exist in the directory: the current one first, then rotated ones newest first. */
export async function listLogFiles(dir: string): Promise<string[]> {
  let names: string[]
  try {
    names = await fs.promises.readdir(dir)
  } catch {
    return []
  }
  const rank = (name: string) => Number(name.match(/\.(\d+)\.log$/)?.[1] ?? 0)
  return names.filter((n) => LOG_FILE.test(n)).sort((a, b) => rank(a) - rank(b))
}

const fileId = (stat: fs.Stats) => `${stat.dev}:${stat.ino}`

/**
 * What was appended to a log file since the client's read position, capped: the read allocates at
 * most the cap, whatever the file's size. The client sends back `file_size` and `file_id`.
 * - no position (first read): the last lines, up to the cap;
 * - the file is another one (rotated) or shorter than the position: the new file from its start;
 * - further behind than the cap: skip ahead to the last cap's worth and say how much was skipped.
 * Answers end at the last complete line, so a line half-written is sent whole next time.
 */
export async function readLogSince(
  file: string,
  position: number | undefined,
  clientFileId: string | undefined,
): Promise<LogData> {
  const handle = await fs.promises.open(file, 'r')
  try {
    const stat = await handle.stat()
    const id = fileId(stat)
    const size = stat.size
    const rotated = position !== undefined && ((clientFileId !== undefined && clientFileId !== id) || position > size)
    let start = position === undefined ? Math.max(0, size - LOG_ANSWER_CAP_BYTES) : rotated ? 0 : position
    const firstRead = position === undefined
    let skipped = 0
    if (!firstRead && size - start > LOG_ANSWER_CAP_BYTES) {
      skipped = size - LOG_ANSWER_CAP_BYTES - start
      start = size - LOG_ANSWER_CAP_BYTES
    }
    const length = Math.min(size - start, LOG_ANSWER_CAP_BYTES)
    const buffer = Buffer.allocUnsafe(length)
    const { bytesRead } = length > 0 ? await handle.read(buffer, 0, length, start) : { bytesRead: 0 }
    let from = 0
    // Started mid-file by choice (tail or skip): drop the partial first line.
    if ((firstRead || skipped > 0) && start > 0) {
      const nl = buffer.indexOf(10)
      from = nl >= 0 && nl < bytesRead ? nl + 1 : bytesRead
      skipped += from
    }
    const lastNl = buffer.lastIndexOf(10, bytesRead - 1)
    const to = lastNl >= from ? lastNl + 1 : from
    return {
      file_size: start + to,
      file_id: id,
      log_content: buffer.toString('utf8', from, to),
      last_update_modified: stat.mtimeMs,
      skipped_bytes: firstRead ? 0 : skipped,
      rotated,
    }
  } finally {
    await handle.close()
  }
}

/** The resolved path of a log file named by a client, only if it is one of the listed files. */
export async function resolveLogFile(dir: string, name: string): Promise<string | undefined> {
  const files = await listLogFiles(dir)
  return files.includes(name) ? path.join(dir, name) : undefined
}
