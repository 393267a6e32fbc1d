import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

/**
 * The cluster-fault harness: a real nginx run from the configuration Trove generates, a PostgreSQL
 * server of a test's own (so it may stop and start it), and a load of downloads at a steady rate
 * whose every answer is recorded.
 */

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p))
export const PG_BIN = fs.existsSync('/usr/lib/postgresql')
  ? fs
      .readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(a) - Number(b))
      .map((v) => `/usr/lib/postgresql/${v}/bin`)
      .filter((bin) => fs.existsSync(path.join(bin, 'initdb')))
      .pop()
  : undefined

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** Probes until `ok` holds or `timeoutMs` passes; the last value either way, for the caller to assert on. */
export async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (ok(value) || Date.now() > until) return value
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** One line of nginx's access log: when the request began and ended, what it answered, which nodes it tried. */
export interface ProxyLogLine {
  startMs: number
  endMs: number
  status: number
  /** The upstream addresses tried, in order (`127.0.0.1:port`). */
  upstreams: string[]
  upstreamStatuses: string[]
  uri: string
}

/** nginx in front of the nodes, run from Trove's generated `http`-context file in a prefix dir of its own. */
export class Nginx {
  private child: ChildProcess | undefined
  private exited: Promise<void> | undefined

  constructor(
    readonly prefix: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  get accessLog(): string {
    return path.join(this.prefix, 'logs', 'access.log')
  }

  /** Writes the main configuration around `generated` (as an admin's conf.d would hold it), checks it and starts nginx. */
  async start(generated: string): Promise<void> {
    const p = this.prefix
    fs.mkdirSync(path.join(p, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(p, 'trove.conf'), generated)
    fs.writeFileSync(
      path.join(p, 'nginx.conf'),
      [
        'worker_processes 1;',
        `pid ${p}/nginx.pid;`,
        `error_log ${p}/logs/error.log warn;`,
        'events { worker_connections 1024; }',
        'http {',
        // Which nodes each request went to, and when it began and ended: the test's record of the kill.
        `  log_format cluster '$msec $request_time $status "$upstream_addr" "$upstream_status" $request_uri';`,
        `  access_log ${p}/logs/access.log cluster;`,
        `  client_body_temp_path ${p}/body; proxy_temp_path ${p}/proxy;`,
        `  fastcgi_temp_path ${p}/fcgi; uwsgi_temp_path ${p}/uwsgi; scgi_temp_path ${p}/scgi;`,
        `  include ${p}/trove.conf;`,
        '}',
      ].join('\n'),
    )
    const conf = path.join(p, 'nginx.conf')
    const check = spawnSync(NGINX as string, ['-t', '-p', p, '-c', conf], { encoding: 'utf8' })
    if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`)
    const child = spawn(NGINX as string, ['-p', p, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' })
    this.child = child
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()))
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`${this.url}/api/system/ping`).then(
        (r) => r.status === 200,
        () => false,
      )
      if (up) return
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`nginx did not answer: ${fs.readFileSync(path.join(p, 'logs', 'error.log'), 'utf8')}`)
  }

  /** Every request nginx logged so far. */
  log(): ProxyLogLine[] {
    const text = fs.existsSync(this.accessLog) ? fs.readFileSync(this.accessLog, 'utf8') : ''
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const m = /^(\S+) (\S+) (\d+) "([^"]*)" "([^"]*)" (\S+)$/.exec(line)
        if (!m) throw new Error(`unexpected access log line: ${line}`)
        const endMs = Number(m[1]) * 1000
        return {
          startMs: endMs - Number(m[2]) * 1000,
          endMs,
          status: Number(m[3]),
          upstreams: (m[4] ?? '').split(/, | : /).filter((s) => s && s !== '-'),
          upstreamStatuses: (m[5] ?? '').split(/, | : /).filter(Boolean),
          uri: m[6] ?? '',
        }
      })
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return
    this.child.kill('SIGTERM')
    await this.exited
  }
}

/**
 * A PostgreSQL server of the test's own on a temp dir and free port (as scripts/with-postgres.sh
 * makes one), which the test may stop and start again under load.
 */
export class OwnPostgres {
  port = 0
  private readonly asOwner: string[]

  constructor(readonly dir: string) {
    this.asOwner = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []
  }

  get url(): string {
    return `postgres://trove@127.0.0.1:${this.port}/postgres`
  }

  private run(bin: string, args: string[]): void {
    const [cmd = '', ...rest] = [...this.asOwner, path.join(PG_BIN as string, bin), ...args]
    execFileSync(cmd, rest, { stdio: 'pipe' })
  }

  async init(): Promise<void> {
    this.port = await freePort()
    if (this.asOwner.length > 0) execFileSync('chown', ['postgres', this.dir])
    this.run('initdb', ['-D', path.join(this.dir, 'data'), '-U', 'trove', '--auth=trust', '-E', 'UTF8', '--no-sync'])
    this.start()
  }

  start(): void {
    this.run('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'server.log'),
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=100`,
      'start',
    ])
  }

  /** Stops the server the way an administrator's restart does: sessions are ended, their queries fail. */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', mode, '-w', 'stop'])
  }

  destroy(): void {
    try {
      this.stop('immediate')
    } catch {
      // already stopped
    }
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}

/** One request of the load: when it began and ended, and how it ended. */
export interface LoadResult {
  url: string
  startMs: number
  endMs: number
  status: number
  /** Why it failed (a network error, a status other than 200, a body other than expected); undefined when it succeeded. */
  failure?: string
  /** An answer the server gave (any status), as opposed to a connection that failed. */
  answered: boolean
}

export interface Download {
  path: string
  /** The body's length, checked when given. */
  bytes?: number
}

/**
 * Downloads at a steady rate (`rate` a second, at most `maxInFlight` at once), each picked in turn
 * from `downloads`, every body read to the end, until `stop()`.
 */
export class Load {
  readonly results: LoadResult[] = []
  private readonly inFlight = new Set<Promise<void>>()
  private stopped = false
  private loop: Promise<void> | undefined

  constructor(
    private readonly base: string,
    private readonly downloads: Download[],
    private readonly headers: Record<string, string>,
    private readonly rate: number,
    private readonly maxInFlight = 64,
  ) {}

  start(): void {
    const began = Date.now()
    let sent = 0
    this.loop = (async () => {
      while (!this.stopped) {
        const due = Math.floor(((Date.now() - began) * this.rate) / 1000)
        while (sent < due && this.inFlight.size < this.maxInFlight) {
          const download = this.downloads[sent % this.downloads.length] as Download
          sent++
          const p = this.one(download).finally(() => this.inFlight.delete(p))
          this.inFlight.add(p)
        }
        // Behind (the cap held requests back): the rate does not catch up in a burst.
        if (sent < due) sent = due
        await new Promise((r) => setTimeout(r, 5))
      }
    })()
  }

  /** Requests started and not ended yet. */
  get pending(): number {
    return this.inFlight.size
  }

  private async one(download: Download): Promise<void> {
    const url = `${this.base}${download.path}`
    const startMs = Date.now()
    const result: LoadResult = { url, startMs, endMs: 0, status: 0, answered: false }
    try {
      const res = await fetch(url, { headers: this.headers, signal: AbortSignal.timeout(30_000) })
      result.status = res.status
      result.answered = true
      const body = Buffer.from(await res.arrayBuffer())
      if (res.status !== 200) result.failure = `HTTP ${res.status}: ${body.toString('utf8', 0, 200)}`
      else if (download.bytes !== undefined && body.length !== download.bytes)
        result.failure = `${body.length} bytes of ${download.bytes}`
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      result.failure = `${(error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ''}`
    }
    result.endMs = Date.now()
    this.results.push(result)
  }

  async stop(): Promise<LoadResult[]> {
    this.stopped = true
    await this.loop
    await Promise.all([...this.inFlight])
    return this.results
  }
}
