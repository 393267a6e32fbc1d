import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createTestApp, tempDir } from '../test/testApp.js'

describe('graceful shutdown', () => {
  it('lets in-flight requests finish, refuses new ones, and closes the database', async () => {
    let release: () => void = () => {}
    const t = await createTestApp(
      {},
      {
        extend: (app) => {
          app.get('/api/test/slow', { config: { access: 'public' } }, async () => {
            await new Promise<void>((resolve) => {
              release = resolve
            })
            return { finished: true }
          })
        },
      },
    )
    const address = await t.fastify.listen({ port: 0, host: '127.0.0.1' })
    const inFlight = fetch(`${address}/api/test/slow`)
    await new Promise((r) => setTimeout(r, 100))
    const closing = t.app.close()
    await new Promise((r) => setTimeout(r, 100))
    await expect(fetch(`${address}/api/system/ping`)).rejects.toThrow()
    release()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ finished: true })
    await closing
    await expect(sql`select 1`.execute(t.app.db.kysely)).rejects.toThrow()
    await t.close()
  })
})

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/src/main.js')

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    stdout += d
  })
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, out: () => stdout, err: () => stderr }
}

describe('the built server (npm start)', () => {
  it('exists: the test command builds before testing', () => {
    expect(fs.existsSync(main), `${main} is missing: run "npm run build" first`).toBe(true)
  })

  it('prints the URL and the generated admin password on first start, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir()
    const env: Record<string, string> = {
      TROVE_DATA_DIR: dataDir,
      TROVE_PORT: '0',
      TROVE_HOST: '127.0.0.1',
      TROVE_LOG_STDOUT: 'false',
    }
    const server = run(env)
    const deadline = Date.now() + 30_000
    while (!/Trove is running: (\S+)/.test(server.out()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    const url = /Trove is running: (http:\/\/\S+?)\/ui\//.exec(server.out())?.[1]
    expect(url, server.err()).toBeDefined()
    const password = fs.readFileSync(path.join(dataDir, 'initial-admin-password'), 'utf8').trim()
    expect(server.out()).toContain(`sign in as "admin" with the password ${password}`)
    expect(await (await fetch(`${url}/api/system/ping`)).text()).toBe('OK')

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'trove.log'), 'utf8')
    expect(log).toContain('shutting down')
    expect(log).toContain('server stopped')

    // A second start on the same data keeps the administrator and prints no password.
    const again = run(env)
    const againDeadline = Date.now() + 30_000
    while (!/Trove is running/.test(again.out()) && Date.now() < againDeadline) await new Promise((r) => setTimeout(r, 50))
    expect(again.out(), again.err()).toContain('Trove is running')
    expect(again.out()).not.toContain('password')
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }, 90_000)

  it('refuses a bad configuration with a clear message and exit code 2', async () => {
    const server = run({ TROVE_PORT: 'eighty', TROVE_DATA_DIR: tempDir() })
    expect(await server.exited).toBe(2)
    expect(server.err()).toContain('Invalid configuration')
    expect(server.err()).toContain('TROVE_PORT="eighty"')
  })
})

describe('npm start at the repository root', () => {
  it('starts the built server without reinstalling or rebuilding', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
    const dataDir = tempDir()
    // Its own process group, so the whole tree (npm, the shell, node) is stopped at the end.
    const child = spawn('npm', ['start', '--silent'], {
      cwd: root,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TROVE_DATA_DIR: dataDir,
        TROVE_PORT: '0',
        TROVE_HOST: '127.0.0.1',
        TROVE_LOG_STDOUT: 'false',
        TROVE_ADMIN_PASSWORD: 'npm-start-password',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      err += d
    })
    const exited = new Promise((resolve) => child.on('exit', resolve))
    try {
      const deadline = Date.now() + 60_000
      while (!/Trove is running: /.test(out) && child.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
      }
      const url = /Trove is running: (http:\/\/\S+?)\/ui\//.exec(out)?.[1]
      expect(url, `${out}\n${err}`).toBeDefined()
      expect(await (await fetch(`${url}/api/system/ping`)).text()).toBe('OK')
    } finally {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
      await exited
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 90_000)
})
