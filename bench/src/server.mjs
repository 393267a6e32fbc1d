import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const main = new URL('../../apps/server/dist/src/main.js', import.meta.url).pathname

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts the built server on a fresh data dir; resolves once it answers ping, with the time that
 * took. With `prepare`, the server first starts once (to migrate the database), stops, lets
 * `prepare(dataDir)` fill it, and starts again.
 */
export async function startServer(env = {}, { prepare } = {}) {
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-'))
  if (prepare) {
    const first = await startOn(dataDir, env)
    await first.halt()
    await prepare(dataDir)
  }
  const server = await startOn(dataDir, env)
  return {
    ...server,
    async stop() {
      await server.halt()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function startOn(dataDir, env) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const started = performance.now()
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      TROVE_DATA_DIR: dataDir,
      TROVE_PORT: String(port),
      TROVE_HOST: '127.0.0.1',
      TROVE_LOG_STDOUT: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for (;;) {
    try {
      const res = await fetch(`${url}/api/system/ping`)
      if (res.ok && (await res.text()) === 'OK') break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('the server exited during start')
    await new Promise((r) => setTimeout(r, 5))
  }
  const startMs = performance.now() - started
  return {
    url,
    dataDir,
    startMs,
    pid: child.pid,
    async halt() {
      child.kill('SIGTERM')
      await exited
    },
  }
}
