import fs from 'node:fs'
import { ADMIN_PASSWORD, ServerProcess } from './crash.js'
import { tempDir, throwawayDatabase } from './testApp.js'

export interface Session {
  cookie: string
  csrf: string
}
export interface Answer {
  statusCode: number
  body: string
  // biome-ignore lint/suspicious/noExplicitAny: a test reads answers as inject's json() does
  json: () => any
}

/**
 * A built node as a process of its own, on a throwaway data dir and database, called over HTTP the
 * way `inject` is called on an app in the test's process.
 */
export class NodeProcess {
  private constructor(
    readonly process: ServerProcess,
    private readonly drop: () => Promise<void>,
  ) {}

  static async start(env: Record<string, string>): Promise<NodeProcess> {
    const db = await throwawayDatabase()
    const p = new ServerProcess(tempDir('trove-dist-node-'), db.url)
    await p.start(env)
    return new NodeProcess(p, db.drop)
  }

  get url(): string {
    return this.process.url
  }

  async inject(r: { method: string; url: string; headers?: Record<string, string>; payload?: object }): Promise<Answer> {
    const res = await fetch(`${this.url}${r.url}`, {
      method: r.method,
      headers: { ...(r.payload === undefined ? {} : { 'content-type': 'application/json' }), ...r.headers },
      body: r.payload === undefined ? undefined : JSON.stringify(r.payload),
    })
    const body = await res.text()
    return { statusCode: res.status, body, json: () => JSON.parse(body) }
  }

  async signIn(user = 'admin', password = ADMIN_PASSWORD): Promise<Session> {
    const res = await fetch(`${this.url}/ui/api/v1/ui/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, password, type: 'login' }),
    })
    if (res.status !== 200) throw new Error(`sign-in: ${res.status}`)
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    return { cookie, csrf: /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? '' }
  }

  async token(s: Session): Promise<string> {
    const res = await this.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: sessionHeaders(s),
      payload: { expiresIn: 3600 },
    })
    return res.json().access_token
  }

  async createRepo(s: Session, key: string, body: object): Promise<void> {
    const res = await this.inject({ method: 'PUT', url: `/api/repositories/${key}`, headers: sessionHeaders(s), payload: body })
    if (res.statusCode !== 201) throw new Error(`create ${key}: ${res.statusCode} ${res.body}`)
  }

  async close(): Promise<void> {
    await this.process.stop()
    await this.drop()
    fs.rmSync(this.process.dataDir, { recursive: true, force: true })
  }
}
export const sessionHeaders = (s: Session) => ({ cookie: s.cookie, 'x-csrf-token': s.csrf })
