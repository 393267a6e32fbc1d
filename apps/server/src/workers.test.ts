import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { npmPublishBody } from '../test/clients.js'
import { ADMIN_PASSWORD, tempDir, throwawayDatabase } from '../test/testApp.js'

/**
 * The built server with TROVE_WORKERS=2: two worker processes share one port, and the primary
 * hands each new connection to the next one. Every request here goes on a connection of its own,
 * so consecutive requests reach both workers (the logs prove it). On SQLite, or on PostgreSQL when
 * the suite runs against it.
 */
const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/src/main.js')

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
  text: () => string
  // biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as those of inject's json()
  json: () => any
}

let base = ''
let dataDir = ''
let primary: ChildProcess
/** The node's exit code, or 'still running' once `limitMs` has passed. */
let end: (limitMs: number) => Promise<number | null | string>
let dropDatabase: () => Promise<void> = async () => {}
/** What the node printed on standard output and error. */
let said = { out: '', err: '' }
let cookie = ''
let csrf = ''
let token = ''
let seq = 0
const requestIds: string[] = []

/** One request on a new connection (no keep-alive agent), with an id the logs record. */
function call(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
  timeoutMs = 20_000,
): Promise<Answer> {
  const id = `wk-${process.pid}-${++seq}`
  requestIds.push(id)
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, agent: false, headers: { 'x-request-id': id, ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const data = Buffer.concat(chunks)
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: data,
          text: () => data.toString('utf8'),
          json: () => JSON.parse(data.toString('utf8')),
        })
      })
    })
    req.on('error', reject)
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${method} ${url} within ${timeoutMs} ms`)))
    req.end(body)
  })
}

const admin = () => ({ cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' })
const bearer = (t = token) => ({ authorization: `Bearer ${t}` })

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (ok(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, 100))
  }
}

const nodes = async (timeoutMs?: number) =>
  (await call('GET', '/ui/api/v1/system/status/ha', admin(), undefined, timeoutMs)).json().repository.nodes as {
    node_id: string
    status: string
    start_time: number
  }[]

/** The processes `pid` started (ps exits with 1 when there are none). */
const children = (pid: number) => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0)
  } catch {
    return []
  }
}

beforeAll(async () => {
  dataDir = tempDir()
  const database = await throwawayDatabase()
  dropDatabase = database.drop
  const node = spawnNode(dataDir, {
    TROVE_NODE_ID: 'box',
    TROVE_HEARTBEAT_MS: '200',
    ...(database.url ? { TROVE_DATABASE_URL: database.url } : {}),
  })
  primary = node.node
  said = node.said
  end = node.end
  const deadline = Date.now() + 30_000
  while (!/Trove is running: /.test(said.out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  base = /Trove is running: (http:\/\/\S+?)\/ui\//.exec(said.out)?.[1] ?? ''
  expect(base, said.out).not.toBe('')

  const login = await call(
    'POST',
    '/ui/api/v1/ui/auth/login',
    { 'content-type': 'application/json' },
    JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
  )
  const cookies = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0])
  cookie = cookies.join('; ')
  csrf = /trove_csrf=([^;]+)/.exec(cookie)?.[1] ?? ''
  token = (await call('POST', '/ui/api/v1/ui/userIdentifyToken/admin', admin(), JSON.stringify({ expiresIn: 3600 }))).json()
    .access_token
  for (const [key, packageType] of [
    ['npm-local', 'npm'],
    ['docker-local', 'docker'],
  ]) {
    const made = await call('PUT', `/api/repositories/${key}`, admin(), JSON.stringify({ rclass: 'local', packageType }))
    expect(made.status).toBe(201)
  }
  // Both workers up.
  const up = await until(
    () => nodes(),
    (n) => n.filter((x) => x.status === 'Online').length === 2,
  )
  expect(up.map((n) => n.node_id).sort()).toEqual(['box', 'box-w2'])
  // Until now worker 1 took every request (worker 2 started after it): count from here.
  requestIds.length = 0
}, 60_000)

afterAll(async () => {
  if (primary.exitCode === null) {
    primary.kill('SIGTERM')
    await end(60_000)
  }
  await dropDatabase()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('a node of two worker processes', () => {
  it('prints one banner that says so', () => {
    expect(said.out.match(/Trove is running/g)).toHaveLength(1)
    expect(said.out).toContain('(2 worker processes share the port)')
  })

  it('serves a packument read right after a publish, whichever worker each request reaches', async () => {
    const name = 'shared-pkg'
    const packument = () => call('GET', `/api/npm/npm-local/${name}`, { ...bearer(), accept: 'application/json' })
    for (let i = 1; i <= 8; i++) {
      const version = `1.0.${i}`
      // Both workers hold the packument as it was (the first round: a 404 remembered).
      for (let k = 0; k < 2; k++) expect((await packument()).status).toBe(i === 1 ? 404 : 200)
      const { body, tarball: tgz } = await npmPublishBody(base, 'npm-local', { name, version })
      const published = await call(
        'PUT',
        `/api/npm/npm-local/${name}`,
        { ...bearer(), 'content-type': 'application/json' },
        JSON.stringify(body),
      )
      expect(published.status).toBe(201)
      for (let k = 0; k < 2; k++) {
        const read = await packument()
        expect(read.status).toBe(200)
        expect(read.json()['dist-tags'].latest).toBe(version)
        expect(Object.keys(read.json().versions)).toHaveLength(i)
        const tarball = await call('GET', `/api/npm/npm-local/${name}/-/${name}-${version}.tgz`, bearer())
        expect(tarball.status).toBe(200)
        expect(tarball.body.equals(tgz)).toBe(true)
      }
    }
  })

  it('refuses a revoked token at once on every worker', async () => {
    const made = (await call('POST', '/ui/api/v1/ui/userIdentifyToken/admin', admin(), JSON.stringify({ expiresIn: 600 }))).json()
    const whoami = () => call('GET', '/api/npm/npm-local/-/whoami', bearer(made.access_token))
    for (let k = 0; k < 2; k++) expect((await whoami()).status).toBe(200)
    const { cookie: c, 'x-csrf-token': x } = admin()
    expect(
      (await call('DELETE', `/ui/api/v1/ui/userIdentifyToken/id/${made.token_id}`, { cookie: c, 'x-csrf-token': x })).status,
    ).toBe(204)
    for (let k = 0; k < 4; k++) expect((await whoami()).status).toBe(401)
  })

  it('takes the chunks of one docker upload on different workers, and their registry tokens', async () => {
    const issued = await call('GET', '/v2/token?service=trove&scope=repository:docker-local/app:pull,push', bearer())
    expect(issued.status).toBe(200)
    const registry = bearer(issued.json().token)
    for (let k = 0; k < 2; k++) expect((await call('GET', '/v2/', registry)).status).toBe(200)

    const data = crypto.randomBytes(3 * 1024 * 1024 + 17)
    const digest = `sha256:${crypto.createHash('sha256').update(data).digest('hex')}`
    const started = await call('POST', '/v2/docker-local/app/blobs/uploads/', registry)
    expect(started.status).toBe(202)
    let location = started.headers.location as string
    const cuts = [0, 1024 * 1024, 2 * 1024 * 1024 + 5, data.length]
    for (let c = 0; c + 1 < cuts.length - 1; c++) {
      const chunk = data.subarray(cuts[c], cuts[c + 1])
      const patched = await call(
        'PATCH',
        location,
        { ...registry, 'content-type': 'application/octet-stream', 'content-range': `${cuts[c]}-${(cuts[c + 1] ?? 0) - 1}` },
        chunk,
      )
      expect(patched.status).toBe(202)
      expect(patched.headers.range).toBe(`0-${(cuts[c + 1] ?? 0) - 1}`)
      location = patched.headers.location as string
    }
    // Where the upload stands, asked of both workers.
    for (let k = 0; k < 2; k++) {
      const status = await call('GET', location, registry)
      expect(status.status).toBe(204)
      expect(status.headers.range).toBe(`0-${(cuts[2] ?? 0) - 1}`)
    }
    const finished = await call(
      'PUT',
      `${location}${location.includes('?') ? '&' : '?'}digest=${digest}`,
      { ...registry, 'content-type': 'application/octet-stream' },
      data.subarray(cuts[2]),
    )
    expect(finished.status, finished.text()).toBe(201)
    for (let k = 0; k < 2; k++) {
      const blob = await call('GET', `/v2/docker-local/app/blobs/${digest}`, registry)
      expect(blob.status).toBe(200)
      expect(blob.body.equals(data)).toBe(true)
    }
    // Finished for both: neither takes another chunk.
    for (let k = 0; k < 2; k++) expect((await call('GET', location, registry)).status).toBe(404)
  })

  it('reached both workers: each logged some of the requests', () => {
    const first = fs.readFileSync(path.join(dataDir, 'logs', 'trove.log'), 'utf8')
    const second = fs.readFileSync(path.join(dataDir, 'logs', 'box-w2', 'trove.log'), 'utf8')
    const inFirst = requestIds.filter((id) => first.includes(`"${id}"`)).length
    const inSecond = requestIds.filter((id) => second.includes(`"${id}"`)).length
    expect(inFirst).toBeGreaterThan(requestIds.length / 4)
    expect(inSecond).toBeGreaterThan(requestIds.length / 4)
  })

  it("answers a log request for the second worker from the first, at the worker's own address", async () => {
    const config = await until(
      () => call('GET', '/ui/api/v1/system/logs/config/repository?nodeId=box-w2', admin()),
      (r) => r.status === 200,
    )
    expect(config.status, config.text()).toBe(200)
    expect(config.json().logs).toContain('trove.log')
    // That address takes signed calls between nodes only.
    const own = (await nodes()).find((n) => n.node_id === 'box-w2') as unknown as { url: string }
    expect(own.url).not.toBe(base)
    const direct = await fetch(`${own.url}/api/system/ping`)
    expect(direct.status).toBe(403)
    expect(await direct.json()).toEqual({ errors: [{ status: 403, message: 'This port takes calls between nodes only' }] })
  })

  it('starts a worker again when it dies, and stops them all on SIGTERM', async () => {
    // Each step has its own limit, and a step that overruns it fails saying which step it was and
    // how long the ones before it took; the test's own limit is above their sum.
    const started = Date.now()
    const took: string[] = []
    const step = (name: string) => took.push(`${name} after ${Date.now() - started} ms`)
    const logTail = (file: string) => {
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
      return text.split('\n').slice(-15).join('\n')
    }
    const explain = () =>
      [
        took.join(', '),
        `stderr: ${said.err}`,
        `worker 1: ${logTail(path.join(dataDir, 'logs', 'trove.log'))}`,
        `worker 2: ${logTail(path.join(dataDir, 'logs', 'box-w2', 'trove.log'))}`,
      ].join('\n')

    const before = (await nodes()).find((n) => n.node_id === 'box-w2')?.start_time ?? 0
    const workers = children(primary.pid ?? 0)
    expect(workers).toHaveLength(2)
    const second = Math.max(...workers)
    process.kill(second, 'SIGKILL')
    step('killed')
    // A connection the primary handed to the worker as it died is lost (node:cluster does not hand
    // it to another): the client gives up on it after a while and asks again.
    const after = await until(
      () => nodes(2000).catch(() => []),
      (n) => (n.find((x) => x.node_id === 'box-w2')?.start_time ?? 0) > before,
      30_000,
    )
    step('restarted')
    expect(after.find((n) => n.node_id === 'box-w2')?.start_time, explain()).toBeGreaterThan(before)
    expect(said.err).toContain('Trove: worker 2 exited (SIGKILL); starting it again')
    expect((await call('GET', '/api/system/ping')).text()).toBe('OK')
    step('answered')

    // Killed again, and the node stopped as the new worker process starts (loading its modules,
    // deaf to signals until it says it hears them): it finishes starting, then stops like the other.
    const first = Math.min(...children(primary.pid ?? 0))
    const restarted = Math.max(...children(primary.pid ?? 0))
    process.kill(restarted, 'SIGKILL')
    // (The killed one stays listed until the primary has reaped it.)
    const known = [first, restarted, ...workers]
    let starting: number[] = []
    const deadline = Date.now() + 30_000
    while (starting.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10))
      starting = children(primary.pid ?? 0).filter((pid) => !known.includes(pid))
    }
    step('starting again')
    expect(starting, explain()).toHaveLength(1)
    primary.kill('SIGTERM')
    const code = await end(40_000)
    step('stopped')
    expect(code, explain()).toBe(0)
    for (const pid of [first, ...starting]) expect(() => process.kill(pid, 0)).toThrow()
    const secondLog = fs.readFileSync(path.join(dataDir, 'logs', 'box-w2', 'trove.log'), 'utf8')
    expect(secondLog.match(/"server started"/g), explain()).toHaveLength(3)
    expect(secondLog.match(/"server stopped"/g), explain()).toHaveLength(1)
    // Alone this takes 3-4 s; on a two-core machine eight times oversubscribed, 20 s.
  }, 120_000)
})

/** A node of two workers (the built server) with its data in `dir`. */
function spawnNode(dir: string, env: Record<string, string>) {
  const node = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? '',
      TROVE_DATA_DIR: dir,
      TROVE_PORT: '0',
      TROVE_HOST: '127.0.0.1',
      TROVE_LOG_STDOUT: 'false',
      TROVE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      TROVE_WORKERS: '2',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const said = { out: '', err: '' }
  node.stdout?.on('data', (d) => {
    said.out += d
  })
  node.stderr?.on('data', (d) => {
    said.err += d
  })
  const ended = new Promise<number | null>((resolve) => node.once('exit', (code) => resolve(code)))
  const end = (limitMs: number) =>
    Promise.race([ended, new Promise<string>((r) => setTimeout(() => r('still running'), limitMs))])
  const cleanUp = () => {
    for (const pid of children(node.pid ?? 0)) process.kill(pid, 'SIGKILL')
    if (node.exitCode === null) node.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return { node, said, end, cleanUp }
}

describe('a node stopped while its first worker starts', () => {
  it('starts no other worker, and ends', async () => {
    const dir = tempDir()
    const { node, said, end, cleanUp } = spawnNode(dir, { TROVE_NODE_ID: 'early' })
    try {
      let pids: number[] = []
      const deadline = Date.now() + 30_000
      while (pids.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10))
        pids = children(node.pid ?? 0)
      }
      expect(pids).toHaveLength(1)
      node.kill('SIGTERM')
      expect(await end(60_000), said.err).toBe(0)
      expect(() => process.kill(pids[0] ?? 0, 0)).toThrow()
      // Worker 1 finished starting, then stopped; worker 2 never started.
      expect(fs.readFileSync(path.join(dir, 'logs', 'trove.log'), 'utf8')).toContain('"server stopped"')
      expect(fs.existsSync(path.join(dir, 'logs', 'early-w2'))).toBe(false)
    } finally {
      cleanUp()
    }
  }, 120_000)
})

describe('a node whose worker is frozen', () => {
  it('kills it once the stop has waited its limit and a margin, and says so', async () => {
    const dir = tempDir()
    const { node, said, end, cleanUp } = spawnNode(dir, { TROVE_NODE_ID: 'frozen', TROVE_SHUTDOWN_TIMEOUT_MS: '1000' })
    try {
      const deadline = Date.now() + 60_000
      let pids: number[] = []
      const second = path.join(dir, 'logs', 'frozen-w2', 'trove.log')
      const bothUp = () => fs.existsSync(second) && fs.readFileSync(second, 'utf8').includes('"server started"')
      while ((pids.length < 2 || !/Trove is running/.test(said.out) || !bothUp()) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
        pids = children(node.pid ?? 0)
      }
      expect(pids, `${said.out}\n${said.err}`).toHaveLength(2)
      const frozen = Math.max(...pids)
      process.kill(frozen, 'SIGSTOP')
      const asked = Date.now()
      node.kill('SIGTERM')
      const code = await end(30_000)
      expect(code, said.err).toBe(1)
      // The frozen one's own limit (1 s) cannot end it; the primary waits 10 s more.
      expect(Date.now() - asked).toBeGreaterThanOrEqual(10_000)
      expect(said.err).toContain('Trove: worker 2 did not stop in time; killing')
      // The node's end means its processes are gone (the primary has reaped them).
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow()
    } finally {
      cleanUp()
    }
  }, 120_000)
})
