import { type ChildProcess, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import pg from 'pg'
import type { Harness } from './crashFlows.js'

/**
 * The crash-consistency harness: the built server in a child process, a TCP proxy in front of it
 * that kills it (SIGKILL) once a client has sent a given number of bytes, and the checks that what
 * a killed request left is either all there or not visible at all.
 */

/** The built server; TROVE_CRASH_SERVER names another build (a long bench run keeps its own copy). */
export const MAIN =
  process.env.TROVE_CRASH_SERVER ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/src/main.js')
export const NODE_ID = 'crash-node'
export const ADMIN_PASSWORD = 'crash-harness-password'

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex')
export const sha1 = (data: Buffer | string) => crypto.createHash('sha1').update(data).digest('hex')

/** The built server as a process of its own, on a data dir and database that outlive it. */
export class ServerProcess {
  private child: ChildProcess | undefined
  private exited: Promise<NodeJS.Signals | number | null> | undefined
  port = 0
  stderr = ''

  constructor(
    readonly dataDir: string,
    readonly databaseUrl: string | undefined,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Starts it (with extra settings: a crash point) and waits until it answers. */
  async start(env: Record<string, string> = {}): Promise<void> {
    this.stderr = ''
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        TROVE_DATA_DIR: this.dataDir,
        ...(this.databaseUrl ? { TROVE_DATABASE_URL: this.databaseUrl } : {}),
        TROVE_PORT: '0',
        TROVE_HOST: '127.0.0.1',
        TROVE_LOG_STDOUT: 'false',
        TROVE_NODE_ID: NODE_ID,
        TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // No background writes while a crash point counts: the beat is as rare as it may be.
        TROVE_HEARTBEAT_MS: '60000',
        TROVE_BLOB_GC_INTERVAL_S: '0',
        TROVE_GIT_REFRESH_INTERVAL_S: '0',
        TROVE_GIT_RETEST_INTERVAL_S: '0',
        TROVE_WEB_DIR: path.join(this.dataDir, 'no-console'),
        TROVE_MODULES: 'repository',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)))
    let stdout = ''
    child.stdout?.on('data', (d) => {
      stdout += d
    })
    child.stderr?.on('data', (d) => {
      this.stderr += d
    })
    const deadline = Date.now() + 60_000
    for (;;) {
      // The line names TROVE_BASE_URL where that is set (a load balancer's): then the port is the one given.
      const running = /Trove is running: http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)?.[1]
      if (running) {
        this.port = env.TROVE_BASE_URL ? Number(env.TROVE_PORT) : Number(running)
        return
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited during start (${child.signalCode ?? child.exitCode}): ${this.stderr}${stdout}`)
      }
      if (Date.now() > deadline) throw new Error(`the server did not start: ${this.stderr}`)
      await new Promise((r) => setTimeout(r, 10))
    }
  }

  /** SIGKILL now (the proxy's kill). */
  kill(): void {
    this.child?.kill('SIGKILL')
  }

  /** Resolves with how the process ended: a signal name or an exit code. */
  async ended(): Promise<NodeJS.Signals | number | null> {
    return (await this.exited) ?? null
  }

  /** Whether the process ends within `ms` (or has ended). */
  async endsWithin(ms: number): Promise<boolean> {
    if (!this.running) return true
    let timer: NodeJS.Timeout | undefined
    const ended = await Promise.race([
      this.exited?.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms)
      }),
    ])
    clearTimeout(timer)
    return ended === true
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null
  }

  async stop(): Promise<void> {
    if (!this.running) return
    this.child?.kill('SIGTERM')
    await this.exited
  }
}

/**
 * A loopback TCP proxy in front of the server. It counts what clients send; when the count reaches
 * the armed offset it forwards exactly that many bytes, then kills the server and cuts every
 * connection.
 */
export class KillingProxy {
  private server: net.Server | undefined
  private readonly sockets = new Set<net.Socket>()
  private sent = 0
  private killAt: number | undefined
  fired = false
  port = 0

  constructor(private readonly target: ServerProcess) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  get host(): string {
    return `127.0.0.1:${this.port}`
  }

  async listen(): Promise<void> {
    this.server = net.createServer((client) => this.relay(client))
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve))
    this.port = (this.server.address() as net.AddressInfo).port
  }

  /** Counts from zero again; kills the server at `offset` bytes sent (undefined: never). */
  arm(offset: number | undefined): void {
    this.sent = 0
    this.killAt = offset
    this.fired = false
    this.killDone = false
    this.generation++
  }

  /** Bytes clients sent since the last `arm`. */
  get bytesSent(): number {
    return this.sent
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(this.target.port, '127.0.0.1')
    this.sockets.add(client)
    this.sockets.add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      this.sockets.delete(client)
      this.sockets.delete(upstream)
    }
    client.on('error', drop)
    upstream.on('error', drop)
    client.on('close', drop)
    upstream.on('close', drop)
    upstream.on('data', (chunk) => {
      if (!this.fired) client.write(chunk)
    })
    client.on('data', (chunk: Buffer) => {
      if (this.fired) return
      const left = this.killAt === undefined ? Number.POSITIVE_INFINITY : this.killAt - this.sent
      if (chunk.length < left) {
        this.sent += chunk.length
        upstream.write(chunk)
        return
      }
      this.sent += left
      this.fired = true
      const armed = this.generation
      const fire = () => {
        if (armed === this.generation) this.fire()
      }
      upstream.write(chunk.subarray(0, left), fire)
      // Should the write callback be slow, the kill still comes (unless the proxy was armed again).
      setTimeout(fire, 20)
    })
  }

  private killDone = false
  private generation = 0
  private fire(): void {
    if (this.killDone) return
    this.killDone = true
    this.target.kill()
    for (const s of this.sockets) s.destroy()
    this.sockets.clear()
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy()
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }
}

/** Rows the checks read straight from the database (SQLite file or PostgreSQL). */
export async function query<T>(dataDir: string, databaseUrl: string | undefined, sql: string): Promise<T[]> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      return (await client.query(sql)).rows as T[]
    } finally {
      await client.end()
    }
  }
  const db = new Database(path.join(dataDir, 'trove.db'), { readonly: true, fileMustExist: true })
  try {
    return db.prepare(sql).all() as T[]
  } finally {
    db.close()
  }
}

/**
 * What must hold whatever moment the server died: every file row names a stored blob whose content
 * hashes to it, every version has its files, and start-up recovery left no temp file of a dead
 * request (a chunked upload between chunks may stay: its client can go on with it).
 */
export async function storeProblems(dataDir: string, databaseUrl: string | undefined): Promise<string[]> {
  const problems: string[] = []
  const files = await query<{ repo_key: string; path: string; sha256: string; size: number | string; blob: string | null }>(
    dataDir,
    databaseUrl,
    'SELECT f.repo_key, f.path, f.sha256, f.size, b.sha256 AS blob FROM files f LEFT JOIN blobs b ON b.sha256 = f.sha256',
  )
  for (const f of files) {
    const where = `${f.repo_key}/${f.path}`
    if (!f.blob) problems.push(`${where}: no blob row for ${f.sha256}`)
    const file = path.join(dataDir, 'blobs', f.sha256.slice(0, 2), f.sha256.slice(2, 4), f.sha256)
    if (!fs.existsSync(file)) {
      problems.push(`${where}: blob file ${f.sha256} missing`)
      continue
    }
    const data = fs.readFileSync(file)
    if (sha256(data) !== f.sha256) problems.push(`${where}: blob ${f.sha256} holds other content`)
    if (data.length !== Number(f.size)) problems.push(`${where}: ${data.length} bytes stored, ${f.size} recorded`)
  }
  const bare = await query<{ repo_key: string; version: string }>(
    dataDir,
    databaseUrl,
    'SELECT v.repo_key, v.version FROM package_versions v WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.version_id = v.id)',
  )
  for (const v of bare) problems.push(`${v.repo_key}: version ${v.version} has no files`)
  const tmp = path.join(dataDir, 'blobs', 'tmp')
  const names = fs.existsSync(tmp) ? fs.readdirSync(tmp) : []
  for (const name of names) {
    if (name.startsWith(`${NODE_ID}~`)) problems.push(`temp file ${name} left by a dead request`)
    const upload = /^upload-([0-9a-f-]{36})$/.exec(name)?.[1]
    if (upload) {
      const record = path.join(tmp, `upload-${upload}.json`)
      const lock = path.join(tmp, `upload-${upload}.lock`)
      if (!fs.existsSync(record)) problems.push(`chunked upload ${upload}: data without its record`)
      if (fs.existsSync(lock)) problems.push(`chunked upload ${upload}: still locked by a dead request`)
    }
  }
  return problems
}

/** The administrator signed in on a running server: the session's cookie and CSRF token, and an access token of theirs (a day long). */
export async function adminSession(url: string): Promise<{ cookie: string; csrf: string; token: string }> {
  const login = await fetch(`${url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
  })
  if (login.status !== 200) throw new Error(`login: ${login.status}`)
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const csrf = /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? ''
  const token = await fetch(`${url}/ui/api/v1/ui/userIdentifyToken/admin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
    body: JSON.stringify({ expiresIn: 86_400 }),
  })
  if (token.status !== 200) throw new Error(`token: ${token.status}`)
  return { cookie, csrf, token: ((await token.json()) as { access_token: string }).access_token }
}

/** An access token of the administrator of a running server (a day long). */
export async function adminToken(url: string): Promise<string> {
  return (await adminSession(url)).token
}

/**
 * The built server started on `dataDir` (and `databaseUrl`), behind a killing proxy that cuts
 * nothing, with the administrator's token and a local repository `<type>-local` of each type.
 */
export async function startHarness(
  dataDir: string,
  databaseUrl: string | undefined,
  types: string[],
  work: string,
): Promise<{ server: ServerProcess; h: Harness }> {
  const server = new ServerProcess(dataDir, databaseUrl)
  await server.start()
  const proxy = new KillingProxy(server)
  await proxy.listen()
  proxy.arm(undefined)
  const h = { proxy, token: await adminToken(server.url), work }
  for (const type of types) {
    const created = await fetch(`${server.url}/api/repositories/${type}-local`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: type }),
    })
    if (created.status !== 201) throw new Error(`repository ${type}-local: ${created.status} ${await created.text()}`)
  }
  return { server, h }
}
