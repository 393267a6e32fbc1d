import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const main = new URL('../../apps/server/dist/src/main.js', import.meta.url).pathname
/**
 * Node.js flags for every server the bench starts: those `npm start` and the deploy files start it
 * with (docs/operations.md, "Node.js flags"), then those of TROVE_BENCH_NODE_FLAGS (space-separated;
 * a later flag wins): `--cpu-prof --cpu-prof-dir=/tmp/profiles` writes each node's CPU profile when
 * it stops; `--memory-reducer` or `--initial-old-space-size=0` measures a node started without one.
 */
const NODE_FLAGS = [
  '--no-memory-reducer',
  '--initial-old-space-size=128',
  ...(process.env.TROVE_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
]
/** TROVE_BENCH_NODE_OUT=DIR keeps each node's standard output (`--trace-gc` writes there) as DIR/<node id or port>.out. */
const NODE_OUT = process.env.TROVE_BENCH_NODE_OUT

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Starts the built server on a fresh data dir; resolves once it answers ping, with the time that took. */
export async function startServer(env = {}) {
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`)
  // A data dir the caller gives is the caller's to remove.
  const ownDir = !env.TROVE_DATA_DIR
  const dataDir = env.TROVE_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-'))
  const port = env.TROVE_PORT ? Number(env.TROVE_PORT) : await freePort()
  const url = `http://127.0.0.1:${port}`
  const started = performance.now()
  const out = NODE_OUT ? fs.openSync(path.join(NODE_OUT, `${env.TROVE_NODE_ID ?? port}.out`), 'a') : 'ignore'
  const child = spawn(process.execPath, [...NODE_FLAGS, main], {
    env: {
      ...process.env,
      TROVE_DATA_DIR: dataDir,
      TROVE_PORT: String(port),
      TROVE_HOST: '127.0.0.1',
      TROVE_LOG_STDOUT: 'false',
      ...env,
    },
    stdio: ['ignore', out, 'inherit'],
  })
  if (typeof out === 'number') fs.closeSync(out)
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
    async stop() {
      child.kill('SIGTERM')
      await exited
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Signs in as the admin as the console does; answers the headers of a changing call (session cookie and CSRF token). */
export async function signInAdmin(url, password) {
  const login = await fetch(`${url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'admin', password, type: 'login' }),
  })
  if (login.status !== 200) throw new Error(`login: ${login.status}`)
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const csrf = /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? ''
  return { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf }
}
