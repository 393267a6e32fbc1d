import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { type App, type BuildOptions, buildApp } from '../src/app.js'
import { type Config, loadConfig } from '../src/core/config.js'

export const ADMIN_PASSWORD = 'correct-horse-battery'

/** The PostgreSQL server the suite runs against, or undefined to run on SQLite. */
const postgresUrl = process.env.TROVE_TEST_DATABASE_URL

export interface TestApp {
  app: App
  fastify: FastifyInstance
  config: Config
  dataDir: string
  /** Stops the app (flushing its logs) but keeps its data dir and database. */
  stop: () => Promise<void>
  /** Stops the app and removes its data dir and database. */
  close: () => Promise<void>
}

/** A throwaway database: a new SQLite file, or a new database on the test PostgreSQL server. */
export async function throwawayDatabase(): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  if (!postgresUrl) return { url: undefined, drop: async () => {} }
  const name = `trove_test_${crypto.randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgresUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

export function tempDir(prefix = 'trove-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** Builds the real app on a fresh data dir and database. */
export async function createTestApp(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const dataDir = tempDir()
  const database = await throwawayDatabase()
  const config = loadConfig({
    TROVE_DATA_DIR: dataDir,
    TROVE_LOG_STDOUT: 'false',
    TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    TROVE_WEB_DIR: path.join(dataDir, 'no-console'),
    TROVE_DATABASE_URL: database.url,
    // The tests of the scanner and of release bundles turn their module on; the rest run the repository alone.
    TROVE_MODULES: 'repository',
    ...env,
  })
  const app = await buildApp(config, options)
  await app.fastify.ready()
  return {
    app,
    fastify: app.fastify,
    config,
    dataDir,
    stop: () => app.close(),
    close: async () => {
      await app.close()
      await database.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export interface Session {
  /** Cookie header value carrying the session and CSRF cookies. */
  cookie: string
  csrf: string
  setCookies: string[]
}

/** Signs in through the real login call and returns what a browser would then send. */
export async function signIn(
  fastify: FastifyInstance,
  user = 'admin',
  password = ADMIN_PASSWORD,
  rememberMe = false,
): Promise<Session> {
  const res = await fastify.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/auth/login?_spring_security_remember_me=${rememberMe}`,
    payload: { user, password, type: 'login' },
  })
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`)
  const setCookies = [res.headers['set-cookie'] ?? []].flat()
  const pairs = setCookies.map((c) => c.split(';')[0] ?? '')
  const csrf = pairs.find((p) => p.startsWith('trove_csrf='))?.slice('trove_csrf='.length) ?? ''
  return { cookie: pairs.join('; '), csrf, setCookies }
}

/** The headers a browser with this session sends on a mutating call. */
export const sessionHeaders = (s: Session) => ({ cookie: s.cookie, 'x-csrf-token': s.csrf })
