import fs from 'node:fs'
import path from 'node:path'
import pino, { type Logger } from 'pino'

export interface LogOptions {
  level: string
  stdout: boolean
  maxSize: number
  maxFiles: number
  /** Where the files go; `<data dir>/logs` when absent. */
  dir?: string
}

export interface ServiceLogger {
  logger: Logger
  /** The file the service writes now; rotated ones sit beside it as <service>.1.log (newest) … */
  file: string
  /** Flushes and closes the file. */
  close: () => Promise<void>
}

/** The log directory under the data dir; the log viewer and support bundles read from here. */
export function logDir(dataDir: string): string {
  return path.join(dataDir, 'logs')
}

/** Lines a log file that cannot be written (a full disk) keeps in memory for when it can; later ones are dropped. */
export const LOG_BACKLOG_BYTES = 8 * 1024 * 1024

/**
 * A file stream that rotates by size the way logrotate does: the current file keeps its name
 * (`trove.log`), older ones shift to `trove.1.log`, `trove.2.log`, … and the oldest beyond
 * `maxFiles` is removed. A stable current name lets a reader tail it by byte offset.
 */
export class RotatingFile {
  private readonly boom: ReturnType<typeof pino.destination>
  private size: number
  private closed = false
  /** Set while the file refuses writes (the disk is full); lines wait in the backlog meanwhile. */
  private failing: NodeJS.ErrnoException | undefined
  private refusals = 0
  private dropped = 0

  constructor(
    readonly file: string,
    private readonly maxSize: number,
    private readonly maxFiles: number,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    this.size = fs.existsSync(file) ? fs.statSync(file).size : 0
    // Synchronous writes: every line is in the file when the call returns, so a crash loses
    // nothing and a reader tailing the file sees it at once; open and rotation are immediate too.
    this.boom = pino.destination({ dest: file, append: true, mkdir: true, sync: true, maxLength: LOG_BACKLOG_BYTES })
    // Without a listener a refused write (ENOSPC) is thrown from whatever logged, and ends the
    // process. With one, the line waits: the next write tries the backlog again first.
    this.boom.on('error', (err: NodeJS.ErrnoException) => {
      this.refusals++
      if (this.failing) return
      this.failing = err
      process.stderr.write(`trove: cannot write ${this.file} (${err.code ?? err.message}); keeping lines until it can\n`)
    })
    this.boom.on('drop', () => {
      this.dropped++
    })
  }

  write(chunk: string): boolean {
    // A line logged while the server shuts down (a client's stream ending late) has nowhere to go.
    if (this.closed) return true
    const refusals = this.refusals
    const ok = this.boom.write(chunk)
    this.size += Buffer.byteLength(chunk)
    // A synchronous write that was not refused wrote the whole backlog too.
    if (this.failing && this.refusals === refusals) this.recovered()
    if (this.size >= this.maxSize && !this.failing) {
      try {
        this.rotate()
      } catch {
        // Tried again at the next line.
      }
    }
    return ok
  }

  private recovered(): void {
    const { dropped } = this
    this.failing = undefined
    this.dropped = 0
    const line = { level: 40, time: new Date().toISOString(), msg: 'the log file can be written again', droppedLines: dropped }
    this.boom.write(`${JSON.stringify(line)}\n`)
    this.size += 100
  }

  private rotate(): void {
    const { dir, name, ext } = path.parse(this.file)
    const numbered = (n: number) => path.join(dir, `${name}.${n}${ext}`)
    fs.rmSync(numbered(this.maxFiles), { force: true })
    for (let n = this.maxFiles - 1; n >= 1; n--) {
      if (fs.existsSync(numbered(n))) fs.renameSync(numbered(n), numbered(n + 1))
    }
    fs.renameSync(this.file, numbered(1))
    this.boom.reopen()
    this.size = 0
  }

  flushSync(): void {
    // sonic-boom's flushSync retries a refused write forever.
    if (this.failing) return
    this.boom.flushSync()
  }

  close(): Promise<void> {
    this.closed = true
    return new Promise((resolve) => {
      this.boom.once('close', () => resolve())
      // A backlog the disk still refuses is given up, not waited for.
      if (this.failing) {
        this.boom.destroy()
        return
      }
      this.boom.once('error', () => this.boom.destroy())
      this.boom.end()
    })
  }
}

/**
 * A pino logger writing JSON lines to stdout and to `<data dir>/logs/<service>.log`.
 * Nothing logs request headers or bodies, so secrets never reach a log line (a test greps the
 * files); pino's redaction is not used because it costs ~10% of throughput on every request.
 */
/**
 * pino's isoTime, computed once per millisecond: under load many lines share one (toISOString is
 * a noticeable part of writing a request's line).
 */
let lastTimeMs = -1
let lastTime = ''
export function isoTimeOncePerMs(): string {
  const now = Date.now()
  if (now !== lastTimeMs) {
    lastTimeMs = now
    lastTime = `,"time":"${new Date(now).toISOString()}"`
  }
  return lastTime
}

export function createServiceLogger(dataDir: string, service: string, options: LogOptions): ServiceLogger {
  const file = new RotatingFile(path.join(options.dir ?? logDir(dataDir), `${service}.log`), options.maxSize, options.maxFiles)
  const level = options.level as pino.Level
  const streams: pino.StreamEntry[] = [{ stream: file, level }]
  if (options.stdout) streams.push({ stream: pino.destination({ fd: 1, sync: false }), level })
  const logger = pino(
    {
      level,
      base: { service },
      timestamp: isoTimeOncePerMs,
    },
    // One destination (the usual case: stdout off) is written directly, without multistream's loop.
    streams.length === 1 ? file : pino.multistream(streams),
  )
  return { logger, file: file.file, close: () => file.close() }
}
